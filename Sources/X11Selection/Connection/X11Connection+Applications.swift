/// Which application a window belongs to, for rules that name applications (a history that ignores a password
/// manager's copies).
extension X11Connection {
    /// The most top-level windows of the server looked at to find a client's `WM_CLASS`.
    static let classSearchLimit = 4096

    /// The `WM_CLASS` of the application that made `window` (a selection owner's, say), or nil when none says.
    ///
    /// A selection owner is rarely a window with a class of its own: GTK owns from its client leader window,
    /// Qt from a hidden "Qt Selection Owner" window, xclip from a bare window. So, in order: `window`'s own
    /// `WM_CLASS`; that of its `WM_CLIENT_LEADER` (ICCCM §5.1: the leader names the client); that of any
    /// top-level window the same client made — windows whose IDs share the client's resource base (the bits
    /// outside the server's resource-ID mask, X11 protocol "Connection Setup") — children of the root, at most
    /// 4,096 of them looked at (`classSearchLimit`).
    /// - Throws: `.connectionLost` / `.shutDown` when the connection is closed.
    public func applicationClass(of window: X11Window) throws -> WindowClass? {
        let display = try requireDisplay()
        let atoms = try self.atoms(for: ["WM_CLASS", "WM_CLIENT_LEADER"])
        let wmClass = atoms[0], clientLeader = atoms[1]
        func ownClass(_ candidate: X11Window) -> WindowClass? {
            guard let value = display.getProperty(candidate, wmClass, delete: false, length: 1024), value.format == 8
            else { return nil }
            return WindowClass(property: value.bytes)
        }
        if let found = ownClass(window) { return found }
        if let leader = display.getProperty(window, clientLeader, delete: false, length: 4),
            leader.format == 32, leader.bytes.count >= 4
        {
            let id = leader.bytes.prefix(4).reversed().reduce(UInt(0)) { $0 << 8 | UInt($1) }
            if id != 0, id != window.rawValue, let found = ownClass(X11Window(rawValue: id)) { return found }
        }
        let mask = display.resourceIDMask
        guard mask != 0 else { return nil }
        let client = window.rawValue & ~mask
        for candidate in display.children(of: display.root).prefix(Self.classSearchLimit)
        where candidate.rawValue & ~mask == client && candidate != window {
            if let found = ownClass(candidate) { return found }
        }
        return nil
    }
}
