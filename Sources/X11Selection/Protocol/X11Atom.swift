/// An X atom: a server-interned name (selection, target, property or type).
///
/// Internal on purpose: the public API speaks in `SelectionName` / `SelectionTarget` strings, and atoms
/// are per-server values that would be meaningless on another connection.
package struct X11Atom: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: UInt

    package init(rawValue: UInt) { self.rawValue = rawValue }

    /// The X11 `None` atom.
    static let none = X11Atom(rawValue: 0)

    var isNone: Bool { rawValue == 0 }

    // Atoms the core protocol predefines (X11 protocol, Appendix B): the same on every server, usable
    // without an InternAtom round trip.
    /// PRIMARY (1).
    static let primary = X11Atom(rawValue: 1)
    /// SECONDARY (2).
    static let secondary = X11Atom(rawValue: 2)
    /// STRING (31).
    static let string = X11Atom(rawValue: 31)
    /// WM_NAME (39).
    static let wmName = X11Atom(rawValue: 39)

    /// The predefined atom for a selection name, nil for names that must be interned.
    static func predefinedSelection(_ name: String) -> X11Atom? {
        switch name {
        case "PRIMARY": .primary
        case "SECONDARY": .secondary
        default: nil
        }
    }

    package var description: String { "atom#\(rawValue)" }
}
