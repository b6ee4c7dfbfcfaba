/// The pointer, as far as selections care: a PRIMARY selection is being dragged out while a button is held.
extension X11Connection {
    /// Whether a pointer button is held down on this display now (false when the server cannot say).
    /// - Throws: `.connectionLost` / `.shutDown` when the connection is closed.
    public func isPointerButtonHeld() throws -> Bool {
        try requireDisplay().pointerButtonHeld() ?? false
    }
}

extension X11Connection {
    /// Where `window` is on the root window and its size; nil when it is gone.
    public func geometry(of window: X11Window) throws -> (x: Int, y: Int, width: Int, height: Int)? {
        try requireDisplay().geometry(of: window)
    }
}
