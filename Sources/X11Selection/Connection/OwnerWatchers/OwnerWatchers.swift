/// The connection's owner-change watchers (XFixes): the `OwnerChanges` sequences registered, how many of them
/// watch each selection, and the XFixes event base once queried. A component of ``X11Connection`` (GTK 4's
/// clipboard listens to the display's XFixes events the same way): it runs on the loop thread, isolated to the
/// connection, and is touched only there.
final class OwnerWatchers {
    /// One `OwnerChanges` sequence registered with the connection.
    struct Watcher {
        let selections: Set<X11Atom>
        let continuation: AsyncThrowingStream<OwnerChange, any Error>.Continuation
    }

    private var watchers: [UInt64: Watcher] = [:]
    private var ids = IDCounter()
    private var watchedSelections: [X11Atom: Int] = [:]
    /// The XFixes event base, once the extension was queried (nil: not there, or not asked yet).
    private(set) var fixesEventBase: Int32?
    private var fixesChecked = false

    /// Registers a sequence for owner changes of `selections`; the error it finished with otherwise.
    func register(
        _ selections: [SelectionName], continuation: AsyncThrowingStream<OwnerChange, any Error>.Continuation,
        on connection: isolated X11Connection
    ) -> SelectionError? {
        let display: XDisplay
        let selectionAtoms: [X11Atom]
        do {
            display = try connection.requireDisplay()
            selectionAtoms = try connection.atoms(for: selections.map(\.rawValue))
        } catch {
            continuation.finish(throwing: error)
            return error
        }
        if !fixesChecked {
            fixesChecked = true
            fixesEventBase = display.queryFixesExtension()
        }
        guard fixesEventBase != nil else {
            let error = SelectionError(
                .extensionUnavailable, "the X server \(connection.displayName) has no XFixes extension")
            continuation.finish(throwing: error)
            return error
        }
        let id = ids.next()
        watchers[id] = Watcher(selections: Set(selectionAtoms), continuation: continuation)
        for atom in Set(selectionAtoms) {
            let count = watchedSelections[atom, default: 0]
            if count == 0 { display.selectOwnerChanges(connection.window, selection: atom, enabled: true) }
            watchedSelections[atom] = count + 1
        }
        continuation.onTermination = { [weak connection] _ in
            guard let connection else { return }
            Task { await connection.unregisterWatcher(id) }
        }
        return nil
    }

    /// A sequence ended: stop selecting owner changes of the selections nobody watches any more.
    func unregister(_ id: UInt64, on connection: isolated X11Connection) {
        guard let watcher = watchers.removeValue(forKey: id) else { return }
        for atom in watcher.selections {
            let count = watchedSelections[atom, default: 1] - 1
            if count <= 0 {
                watchedSelections[atom] = nil
                if connection.closedError == nil {
                    connection.xdisplay?.selectOwnerChanges(connection.window, selection: atom, enabled: false)
                }
            } else {
                watchedSelections[atom] = count
            }
        }
    }

    /// An XFixes selection-owner notification: yielded to every sequence watching its selection.
    func handle(_ change: X11Event.FixesOwnerChange, on connection: isolated X11Connection) {
        let interested = watchers.values.filter { $0.selections.contains(change.selection) }
        guard !interested.isEmpty else { return }
        let name = SelectionName(
            rawValue: ((try? connection.names(for: [change.selection])) ?? []).first.flatMap { $0 } ?? "")
        let reason = change.reason
        let owner = reason == .newOwner ? change.owner : nil
        let ours = owner.map {
            $0 == connection.window || ProcessWindows.shared.contains(connection.serverIdentity, $0)
        } ?? false
        let event = OwnerChange(
            selection: name, reason: reason, owner: owner, timestamp: change.timestamp,
            selectionTimestamp: change.selectionTimestamp, isOwnedByThisProcess: ours)
        for watcher in interested {
            watcher.continuation.yield(event)
        }
    }

    /// The connection closes: every sequence finishes (throwing when the connection broke).
    func tearDown(_ error: SelectionError, on connection: isolated X11Connection) {
        let ended = watchers
        watchers.removeAll()
        watchedSelections.removeAll()
        for watcher in ended.values {
            if error.code == .connectionLost {
                watcher.continuation.finish(throwing: error)
            } else {
                watcher.continuation.finish()
            }
        }
    }
}
