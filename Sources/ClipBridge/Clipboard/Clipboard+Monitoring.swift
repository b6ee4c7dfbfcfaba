// SPDX-License-Identifier: Apache-2.0
// ClipBridge — watching owner changes, the paste button's enabled state, and persistence

import FoundationEssentials
import TransferKit
import X11Selection

/// Owner changes with the offered types and the sensitive flag. Buffered: no change is lost between
/// iterations. Finishes when the connection shuts down; throws `SelectionError` `.connectionLost` when it
/// breaks.
public typealias ClipboardChanges = BufferedEvents<ClipboardChange>

/// Whether a type can be pasted: the current state first, then one value per owner change — the enabled state
/// of a paste button. Finishes when the connection shuts down or breaks.
public struct ClipboardAvailability: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = Bool
    /// The failure type.
    public typealias Failure = Never
    let stream: AsyncStream<Bool>

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Bool>.AsyncIterator
        /// The next state.
        public mutating func next() async -> Bool? { await base.next() }
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
}

@available(*, unavailable)
extension ClipboardAvailability.AsyncIterator: Sendable {}

extension Clipboard {
    /// Owner changes of this selection, each with the offered types and the sensitive flag (TARGETS only),
    /// from the moment this call returns: it returns once the server is reporting, so every change after it
    /// is in the sequence.
    /// - Throws: `SelectionError` `.extensionUnavailable` (no XFixes), `.connectionLost`, `.shutDown`.
    public func changes() async throws -> ClipboardChanges {
        try await Self.changes(of: [selection], on: connection, configuration: configuration)
    }

    /// Owner changes of several selections on one connection, in the order the server reports them, from the
    /// moment this call returns (see ``changes()``).
    /// - Throws: `SelectionError` `.extensionUnavailable` (no XFixes), `.connectionLost`, `.shutDown`.
    public static func changes(
        of selections: [SelectionName], on connection: X11Connection, configuration: ClipboardConfiguration = .init()
    ) async throws -> ClipboardChanges {
        described(try await connection.ownerChanges(of: selections), on: connection, configuration: configuration)
    }

    /// Owner changes with their types, in the order the server reported them.
    ///
    /// Each change's TARGETS is read as soon as the change arrives, concurrently with the others, and a newer
    /// change of the same selection cancels the older one's read: those types describe an owner that is
    /// gone, and an owner that never answers TARGETS must not hold back the changes after it (each used to
    /// wait for the one before it, up to the read timeout). A change whose read was cut short has no types.
    static func described(
        _ changes: OwnerChanges, on connection: X11Connection, configuration: ClipboardConfiguration
    ) -> ClipboardChanges {
        enum Item: Sendable {
            case change(Task<ClipboardChange, Never>)
            case failed(any Error)
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ClipboardChange.self)
        let (items, itemInput) = AsyncStream.makeStream(of: Item.self)
        let reader = Task {
            var latest: [SelectionName: Task<ClipboardChange, Never>] = [:]
            do {
                for try await change in changes {
                    latest[change.selection]?.cancel()
                    let task = Task { await describe(change, on: connection, configuration: configuration) }
                    latest[change.selection] = task
                    itemInput.yield(.change(task))
                }
            } catch {
                itemInput.yield(.failed(error))
            }
            itemInput.finish()
        }
        let writer = Task {
            for await item in items {
                switch item {
                case .change(let task):
                    continuation.yield(await task.value)
                case .failed(let error):
                    continuation.finish(throwing: error)
                    return
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            reader.cancel()
            writer.cancel()
        }
        return ClipboardChanges(stream: stream)
    }

    /// The paste button's enabled state for `T`: the current state, then a new value on every owner change.
    public func availability<T: Transferable>(of type: T.Type) -> ClipboardAvailability {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        let task = Task {
            let changes: ClipboardChanges
            do { changes = try await self.changes() } catch {
                continuation.finish()
                return
            }
            continuation.yield(await self.canPaste(T.self))
            do {
                for try await change in changes {
                    let state =
                        change.owner != nil
                        && ImportPlan(
                            T.self, offered: change.types.filter { !$0.isConverted }.map(\.target),
                            all: change.targets, converters: self.configuration.converters
                        ).isImportable
                    continuation.yield(state)
                }
            } catch {}
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return ClipboardAvailability(stream: stream)
    }

    /// Hands the current content to the running clipboard manager (freedesktop SAVE_TARGETS), bounded by
    /// `timeout`, so it survives this process. CLIPBOARD only (the spec covers nothing else).
    /// - Returns: `.saved`; `.noManager`; `.skippedSensitive` for a sensitive copy (never handed over);
    ///   `.notOwner` when this process does not own CLIPBOARD.
    public func handOverToClipboardManager(timeout: Duration = .seconds(5)) async throws -> ClipboardManagerHandover {
        guard selection == .clipboard else { return .notOwner }
        return try await connection.handOverToClipboardManager(timeout: timeout)
    }

    /// Suspends until this clipboard no longer owns the selection — another client copied, or ``clear()`` —
    /// for apps and `clipbridge copy --foreground` that serve until then. Returns at once when not owner;
    /// also returns when the connection shuts down or breaks.
    public func waitUntilOwnershipLost() async {
        guard let changes = try? await connection.ownerChanges(of: [selection]) else { return }
        guard (try? await isOwner()) == true else { return }
        do {
            for try await change in changes where change.owner != ownWindow || change.owner == nil {
                return
            }
        } catch {}
    }

    // MARK: - Internals

    /// `change` with what its owner offers: TARGETS is read (within the configuration's read timeout, or
    /// until the task is cancelled); the types are empty when nobody owns the selection or the owner did
    /// not answer.
    public static func describe(
        _ change: OwnerChange, on connection: X11Connection, configuration: ClipboardConfiguration = .init()
    ) async -> ClipboardChange {
        var targets: [SelectionTarget] = []
        if change.owner != nil {
            targets =
                (try? await connection.targets(of: change.selection, timeout: configuration.readTimeout ?? .seconds(2)))
                ?? []
        }
        let content = TargetMapping.contentTargets(in: targets)
        return ClipboardChange(
            change, types: types(for: content, converters: configuration.converters),
            isSensitive: targets.contains(TargetMapping.passwordManagerHint), targets: targets)
    }
}
