import FoundationEssentials

/// An application's `WM_CLASS` (ICCCM §4.1.2.5): its instance name and its class, two NUL-terminated Latin-1
/// strings in one property (`gedit`/`Gedit`, `Navigator`/`firefox`, `keepassxc`/`KeePassXC`).
public struct WindowClass: Sendable, Hashable, CustomStringConvertible {
    /// The instance name (the program's name, or `-name`).
    public var instance: String
    /// The class name.
    public var className: String

    /// Creates a class.
    public init(instance: String, className: String) {
        self.instance = instance
        self.className = className
    }

    /// The property's value, or nil when it names nothing. A property with one string (some toolkits omit the
    /// second NUL) gives it as both.
    package init?(property bytes: Data) {
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
        let strings = parts.prefix(2).map { String(decoding: $0, as: UTF8.self) }
        guard let instance = strings.first, !(instance.isEmpty && (strings.count < 2 || strings[1].isEmpty)) else {
            return nil
        }
        self.instance = instance
        self.className = strings.count > 1 && !strings[1].isEmpty ? strings[1] : instance
    }

    /// Whether `name` names this application: its class or its instance, compared without case (`keepassxc`
    /// matches `KeePassXC`).
    public func matches(_ name: String) -> Bool {
        className.lowercased() == name.lowercased() || instance.lowercased() == name.lowercased()
    }

    /// `instance.class`, as `xprop` would list them.
    public var description: String { "\(instance).\(className)" }
}
