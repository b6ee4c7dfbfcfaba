// SPDX-License-Identifier: Apache-2.0
// ClipBridge — watching owner changes, the paste button's enabled state, and persistence

import FoundationEssentials
import TransferKit
import X11Selection

/// Owner changes with the offered types and the sensitive flag. Buffered: no change is lost between
/// iterations. Finishes when the connection shuts down; throws `SelectionError` `.connectionLost` when it
/// breaks, `.extensionUnavailable` when the server has no XFixes.
public struct ClipboardChanges: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = ClipboardChange
    /// The failure type.
    public typealias Failure = any Error
    let stream: AsyncThrowingStream<ClipboardChange, any Error>

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ClipboardChange, any Error>.AsyncIterator
        /// The next change.
        public mutating func next() async throws -> ClipboardChange? { try await base.next() }
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
}

@available(*, unavailable)
extension ClipboardChanges.AsyncIterator: Sendable {}

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
    /// Owner changes of this selection, each with the offered types and the sensitive flag (TARGETS only).
    public nonisolated func changes() -> ClipboardChanges {
        Self.changes(of: [selection], on: connection, configuration: configuration)
    }

    /// Owner changes of several selections on one connection, in the order the server reports them.
    public static func changes(
        of selections: [SelectionName], on connection: X11Connection, configuration: ClipboardConfiguration = .init()
    ) -> ClipboardChanges {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ClipboardChange.self)
        let task = Task {
            do {
                for try await change in connection.ownerChanges(of: selections) {
                    continuation.yield(await describe(change, on: connection, configuration: configuration))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return ClipboardChanges(stream: stream)
    }

    /// Like ``changes()``, but returns once the server is already reporting: every change after this call
    /// returns is in the sequence (tests and `watch --once` need that guarantee).
    public func watchChanges() async throws -> ClipboardChanges {
        try await Self.watchChanges(of: [selection], on: connection, configuration: configuration)
    }

    /// Like ``changes(of:on:configuration:)``, but returns once the server is already reporting changes of
    /// `selections`.
    /// - Throws: `SelectionError` `.extensionUnavailable` (no XFixes), `.connectionLost`, `.shutDown`.
    public static func watchChanges(
        of selections: [SelectionName], on connection: X11Connection, configuration: ClipboardConfiguration = .init()
    ) async throws -> ClipboardChanges {
        let owner = try await connection.watchOwnerChanges(of: selections)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ClipboardChange.self)
        let task = Task {
            do {
                for try await change in owner {
                    continuation.yield(await describe(change, on: connection, configuration: configuration))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return ClipboardChanges(stream: stream)
    }

    /// The paste button's enabled state for `T`: the current state, then a new value on every owner change.
    public nonisolated func availability<T: Transferable>(of type: T.Type) -> ClipboardAvailability {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        let task = Task {
            let changes: ClipboardChanges
            do { changes = try await self.watchChanges() } catch {
                continuation.finish()
                return
            }
            continuation.yield(await self.canPaste(T.self))
            do {
                for try await change in changes {
                    let state =
                        change.owner != nil
                        && Self.canImport(
                            T.self, offered: change.types.filter { !$0.isConverted }.map(\.target),
                            all: change.targets, converters: self.configuration.converters)
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
        guard let changes = try? await connection.watchOwnerChanges(of: [selection]) else { return }
        guard (try? await isOwner()) == true else { return }
        do {
            for try await change in changes where change.owner != ownWindow || change.owner == nil {
                return
            }
        } catch {}
    }

    // MARK: - Internals

    static func describe(
        _ change: OwnerChange, on connection: X11Connection, configuration: ClipboardConfiguration
    ) async -> ClipboardChange {
        var targets: [SelectionTarget] = []
        if change.owner != nil {
            targets =
                (try? await connection.targets(of: change.selection, timeout: configuration.readTimeout ?? .seconds(2)))
                ?? []
        }
        var seen = Set<SelectionTarget>()
        let content = targets.filter { TargetMapping.isContentTarget($0) && seen.insert($0).inserted }
        return ClipboardChange(
            selection: change.selection, reason: change.reason, owner: change.owner, timestamp: change.timestamp,
            selectionTimestamp: change.selectionTimestamp, isOwnedByThisProcess: change.isOwnedByThisProcess,
            types: types(for: content, converters: configuration.converters),
            isSensitive: targets.contains(TargetMapping.passwordManagerHint), targets: targets)
    }
}
