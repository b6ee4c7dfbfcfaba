import SelectionCore
import WaylandSelection

extension SelectionName {
    /// The selection a compositor's `selection` is: CLIPBOARD or PRIMARY.
    package init(_ selection: WaylandSelectionName) {
        self = selection == .clipboard ? .clipboard : .primary
    }

    /// The compositor's selection this one is.
    /// - Throws: `WaylandError` `.protocolUnavailable` for any but CLIPBOARD and PRIMARY (SECONDARY, a named one):
    ///   a compositor shares no other.
    package func wayland() throws(WaylandError) -> WaylandSelectionName {
        switch self {
        case .clipboard: return .clipboard
        case .primary: return .primary
        default: throw WaylandError(.protocolUnavailable, "Wayland has no \(rawValue) selection: only CLIPBOARD and PRIMARY")
        }
    }
}
