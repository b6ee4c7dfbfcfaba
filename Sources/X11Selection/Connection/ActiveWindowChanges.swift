/// The window the window manager says has the focus, followed (the root's `_NET_ACTIVE_WINDOW`, EWMH): a component
/// of the connection that listens to the root's property changes.
final class ActiveWindowWatcher: ConnectionComponent {
    private let root: X11Window
    private let property: X11Atom
    private var subscribers: [AsyncStream<X11Window?>.Continuation] = []

    init(root: X11Window, property: X11Atom) {
        self.root = root
        self.property = property
    }

    func subscribe(_ continuation: AsyncStream<X11Window?>.Continuation) {
        subscribers.append(continuation)
    }

    func handle(_ event: X11Event, on connection: isolated X11Connection) -> Bool {
        guard case .propertyNotify(let window, let changed, _, _) = event, window == root, changed == property else { return false }
        let active = (try? connection.activeWindow()) ?? nil
        for subscriber in subscribers { subscriber.yield(active) }
        return true
    }

    func tearDown(_ error: SelectionError, on connection: isolated X11Connection) {
        for subscriber in subscribers { subscriber.finish() }
        subscribers.removeAll()
    }
}

extension X11Connection {
    /// The focused window as the window manager tells it, each time it changes (nil: none, or an application of
    /// another kind — under a Wayland compositor, a Wayland window); the stream ends when the connection closes.
    ///
    /// - Throws: `.connectionLost` / `.shutDown` when the connection is closed.
    public func activeWindowChanges() throws -> AsyncStream<X11Window?> {
        let display = try requireDisplay()
        let property = try atom(for: "_NET_ACTIVE_WINDOW")
        let watcher = component(ActiveWindowWatcher.self) {
            // The root's property changes reach this client from now on (no other part of the engine selects on it).
            display.selectInput(display.root, propertyChanges: true, structureChanges: false)
            return ActiveWindowWatcher(root: display.root, property: property)
        }
        let (stream, continuation) = AsyncStream.makeStream(of: X11Window?.self)
        watcher.subscribe(continuation)
        return stream
    }
}
