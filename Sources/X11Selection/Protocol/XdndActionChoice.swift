/// The keyboard modifiers held during a drag, as far as choosing its action cares.
struct DragModifiers: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let shift = DragModifiers(rawValue: 1)
    static let control = DragModifiers(rawValue: 2)

    init(rawValue: UInt8) { self.rawValue = rawValue }
}

/// Which action a drag source asks for in each XdndPosition.
///
/// XDND leaves the choice to the source ("the source decides which action to request based on the modifier
/// keys"); GTK, Qt and the file managers agree on the keys: Ctrl copies, Shift moves, Ctrl+Shift links, and
/// with no key the drag asks for its first allowed action. A key whose action the drag does not allow asks
/// for the first allowed one instead, so a copy-only drag stays a copy whatever is held.
enum XdndActionChoice {
    static func action(allowed: [SelectionTarget], modifiers: DragModifiers) -> SelectionTarget {
        let fallback = allowed.first ?? .xdndActionCopy
        let wanted: SelectionTarget? =
            switch (modifiers.contains(.control), modifiers.contains(.shift)) {
            case (true, true): .xdndActionLink
            case (true, false): .xdndActionCopy
            case (false, true): .xdndActionMove
            case (false, false): nil
            }
        guard let wanted, allowed.contains(wanted) else { return fallback }
        return wanted
    }
}
