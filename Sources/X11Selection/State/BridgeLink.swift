import FoundationEssentials

/// A bridge's connection to one X display — the X display bridge's (`BridgeCoordinator`) and the X side of the X ↔
/// Wayland bridge — and what each of them does with it the same way.
package struct BridgeLink: Sendable {
    /// The connection.
    package var connection: X11Connection
    /// Its owner changes, subscribed before anything was adopted.
    package var changes: OwnerChanges
    /// The selections that had an owner when it connected.
    package var owned: Set<SelectionName>

    /// Connects `display` and subscribes to the owner changes of `selections`.
    /// - Throws: what opening or subscribing throws (the connection is shut down then).
    package static func open(_ display: String, selections: [SelectionName], configuration: Configuration) async throws -> BridgeLink {
        let connection = try await X11Connection.open(display: display, configuration: configuration)
        do {
            let changes = try await connection.ownerChanges(of: selections)
            var owned: Set<SelectionName> = []
            for selection in selections where (try? await connection.owner(of: selection)) != nil {
                owned.insert(selection)
            }
            return BridgeLink(connection: connection, changes: changes, owned: owned)
        } catch {
            await connection.shutdown()
            throw error
        }
    }
}

extension BridgeLink {
    /// Keeps a display connected: hands `changed` its owner changes while the connection lives, tells `lost` when it
    /// breaks, and reconnects through `reconnect` with backoff (`BridgePolicy.retryDelay`), until the task is
    /// cancelled — a cancellation is the bridge closing, not the display going away, and is not told.
    package static func maintain(
        from first: BridgeLink?, maximumDelay: Duration, reconnect: () async -> BridgeLink?,
        changed: (OwnerChange) -> Void, lost: (X11Connection, String) -> Void
    ) async {
        var link = first
        var failures = first == nil ? 1 : 0
        while !Task.isCancelled {
            if let current = link {
                var reason = "the connection was closed"
                do {
                    for try await change in current.changes { changed(change) }
                } catch {
                    reason = (error as? SelectionError)?.message ?? "\(error)"
                }
                if Task.isCancelled { return }
                lost(current.connection, reason)
                link = nil
                failures = 1
            }
            do {
                try await Task.sleep(for: BridgePolicy.retryDelay(failures: failures - 1, maximum: maximumDelay))
            } catch {
                return
            }
            link = await reconnect()
            if link == nil { failures += 1 }
        }
    }
}

extension X11Connection {
    /// The TARGETS of `selection`'s owner as a bridge's machine takes them: the list, or why it could not be read and
    /// whether our own claim is the owner now (a claim of ours that overtook the change).
    package func bridgeTargets(of selection: SelectionName, timeout: Duration) async
        -> Result<[SelectionTarget], BridgeMachine.TargetsFailure>
    {
        do {
            return .success(try await targets(of: selection, timeout: timeout))
        } catch {
            let ours = (try? owner(of: selection)) == utilityWindow
            return .failure(.init(reason: (error as? SelectionError)?.message ?? "\(error)", ownClaimIsOwner: ours))
        }
    }
}

extension SelectionLease {
    /// Reports each paste of a bridge's claim — relayed in full, or failed — until the lease ends.
    package func reportPastes(
        of selection: SelectionName, on display: String, to report: @escaping @Sendable (SelectionBridge.Event) -> Void
    ) async {
        for await event in events {
            switch event {
            case .served(let target, _, let byteCount):
                report(.served(selection, display: display, target: target, byteCount: byteCount))
            case .failed(let target, _, let reason):
                report(.failed(selection, display: display, target: target, reason: reason))
            case .lost, .saveTargetsRequested:
                break
            }
        }
    }
}
