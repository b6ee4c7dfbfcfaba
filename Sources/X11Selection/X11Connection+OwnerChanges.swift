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
        if let error = registerWatcher(selections, continuation: continuation) { throw error }
        // One round trip: the server has processed the XFixesSelectSelectionInput requests.
        xdisplay?.sync()
        drainErrors()
        return OwnerChanges(stream: stream)
    }

    @discardableResult
    private func registerWatcher(
        _ selections: [SelectionName], continuation: AsyncThrowingStream<OwnerChange, any Error>.Continuation
    ) -> SelectionError? {
        let display: XDisplay
        let selectionAtoms: [X11Atom]
        do {
            display = try requireDisplay()
            selectionAtoms = try atoms(for: selections.map(\.rawValue))
        } catch {
            continuation.finish(throwing: error)
            return error
        }
        if !fixesChecked {
            fixesChecked = true
            fixesEventBase = display.queryFixesExtension()
        }
        guard fixesEventBase != nil else {
            let error = SelectionError(.extensionUnavailable, "the X server \(displayName) has no XFixes extension")
            continuation.finish(throwing: error)
            return error
        }
        let id = nextID()
        watchers[id] = Watcher(selections: Set(selectionAtoms), continuation: continuation)
        for atom in Set(selectionAtoms) {
            let count = watchedSelections[atom, default: 0]
            if count == 0 { display.selectOwnerChanges(window, selection: atom, enabled: true) }
            watchedSelections[atom] = count + 1
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            Task { await self.unregisterWatcher(id) }
        }
        return nil
    }

    private func unregisterWatcher(_ id: UInt64) {
        guard let watcher = watchers.removeValue(forKey: id) else { return }
        for atom in watcher.selections {
            let count = watchedSelections[atom, default: 1] - 1
            if count <= 0 {
                watchedSelections[atom] = nil
                if closedError == nil { xdisplay?.selectOwnerChanges(window, selection: atom, enabled: false) }
            } else {
                watchedSelections[atom] = count
            }
        }
    }

    func handleOwnerChange(_ change: X11Event.FixesOwnerChange) {
        let interested = watchers.values.filter { $0.selections.contains(change.selection) }
        guard !interested.isEmpty else { return }
        let name = SelectionName(rawValue: ((try? names(for: [change.selection])) ?? []).first.flatMap { $0 } ?? "")
        let reason = change.reason
        let owner = reason == .newOwner ? change.owner : nil
        let ours = owner.map { $0 == window || ProcessWindows.shared.contains(serverIdentity, $0) } ?? false
        let event = OwnerChange(
            selection: name, reason: reason, owner: owner, timestamp: change.timestamp,
            selectionTimestamp: change.selectionTimestamp, isOwnedByThisProcess: ours)
        for watcher in interested {
            watcher.continuation.yield(event)
        }
    }
}
