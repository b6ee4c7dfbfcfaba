/// An X atom: a server-interned name (selection, target, property or type).
///
/// Internal on purpose: the public API speaks in `SelectionName` / `SelectionTarget` strings, and atoms
/// are per-server values that would be meaningless on another connection.
struct X11Atom: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    var rawValue: UInt

    init(rawValue: UInt) { self.rawValue = rawValue }

    /// The X11 `None` atom.
    static let none = X11Atom(rawValue: 0)

    var isNone: Bool { rawValue == 0 }

    var description: String { "atom#\(rawValue)" }
}
