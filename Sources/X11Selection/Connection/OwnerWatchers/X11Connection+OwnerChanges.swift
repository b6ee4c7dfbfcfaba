extension X11Connection {
    /// Owner changes of `selections` (XFixes), from the moment this call returns: it returns once the
    /// server reports changes of `selections` to us, so every change after it is in the sequence.
    ///
    /// The sequence is buffered and finishes on `shutdown()`; it throws `.connectionLost` when the
    /// connection breaks.
    /// - Throws: `.extensionUnavailable` (no XFixes), `.connectionLost`, `.shutDown`.
    public func ownerChanges(of selections: [SelectionName]) async throws -> OwnerChanges {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: OwnerChange.self, throwing: (any Error).self, bufferingPolicy: .unbounded)
        if let error = ownerWatchers.register(selections, continuation: continuation, on: self) { throw error }
        // One round trip: the server has processed the XFixesSelectSelectionInput requests.
        xdisplay?.sync()
        drainErrors()
        return OwnerChanges(stream: stream)
    }

    func unregisterWatcher(_ id: UInt64) {
        ownerWatchers.unregister(id, on: self)
    }
}
