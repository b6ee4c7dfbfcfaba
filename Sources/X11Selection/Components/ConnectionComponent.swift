/// A feature added to an ``X11Connection`` from outside its core (GTK 4's model: the clipboard, drop and drag
/// objects of `gdk/x11/` each listen to the display's events — `gdkclipboard-x11.c`, `gdkdrop-x11.c`,
/// `gdkdrag-x11.c`): it owns its state, takes the X events that are its own, and tears itself down when the
/// connection closes. The connection keeps the display, the atoms, the dispatch and the loop.
///
/// Every method runs on the connection's loop, isolated to it; Xlib is reached only through the connection's
/// door (`XDisplay`), like the rest of the engine.
package protocol ConnectionComponent: AnyObject {
    /// Offered each X event the connection's own features left, in the order the components were added; true
    /// when it was this component's, and no later component sees it.
    func handle(_ event: X11Event, on connection: isolated X11Connection) -> Bool

    /// The connection closes (shut down, released, or its server gone): end every stream, forget every window.
    func tearDown(_ error: SelectionError, on connection: isolated X11Connection)
}

/// The components added to a connection, in order, and the windows they made (a drop target on one of them
/// needs no proxy property). Held by the connection; touched only isolated to it.
final class AddedComponents {
    private(set) var list: [any ConnectionComponent] = []
    private(set) var windows: Set<X11Window> = []

    func add(_ component: any ConnectionComponent) { list.append(component) }

    func noteWindow(_ window: X11Window, present: Bool) {
        if present { windows.insert(window) } else { windows.remove(window) }
    }

    /// The connection closes: each component tears itself down, once.
    func tearDown(_ error: SelectionError, on connection: isolated X11Connection) {
        let ended = list
        list.removeAll()
        windows.removeAll()
        for component in ended { component.tearDown(error, on: connection) }
    }
}

extension X11Connection {
    /// The component of type `C`, added (by `make`) on first use.
    package func component<C: ConnectionComponent>(_ type: C.Type, orAdd make: () -> C) -> C {
        if let existing = added.list.lazy.compactMap({ $0 as? C }).first { return existing }
        let component = make()
        added.add(component)
        return component
    }

    /// Offers `event` to the added components; true when one took it.
    func offerToComponents(_ event: X11Event) -> Bool {
        for component in added.list where component.handle(event, on: self) { return true }
        return false
    }

    /// Windows a component made on this connection (a drop target on one of them needs no proxy property).
    package func noteOwnWindow(_ window: X11Window, present: Bool) {
        added.noteWindow(window, present: present)
    }
}
