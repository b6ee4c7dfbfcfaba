// SPDX-License-Identifier: Apache-2.0
// ClipBridge — what this process owns, for representations that never leave it

import FoundationEssentials
import Synchronization
import TransferKit
import UniformTypes
import X11Selection

/// Representations with a visibility narrower than `.all` are never advertised in TARGETS: X11 has no way
/// to learn who a requestor is (any client may convert any selection), so `.ownProcess`, `.team` and
/// `.group` content is served only to `paste` calls from this process. This table remembers it, keyed by
/// display, selection and the owner window this process claimed with, so any ``Clipboard`` of the process
/// (on any connection to that display) finds it while — and only while — that window owns the selection.
enum InProcessContent {
    struct Key: Hashable {
        var display: String
        var selection: SelectionName
        var owner: X11Window
    }

    /// One representation kept in-process.
    struct Representation: Sendable {
        var contentType: UTType
        var export: @Sendable () async throws -> TransferPayload
    }

    private static let table = Mutex<[Key: [Representation]]>([:])

    static func register(_ representations: [Representation], for key: Key) {
        table.withLock { table in
            table = table.filter { $0.key.display != key.display || $0.key.selection != key.selection }
            if !representations.isEmpty { table[key] = representations }
        }
    }

    static func remove(display: String, selection: SelectionName) {
        table.withLock { table in
            table = table.filter { $0.key.display != display || $0.key.selection != selection }
        }
    }

    static func representations(for key: Key) -> [Representation] {
        table.withLock { $0[key] ?? [] }
    }
}

/// One warning per undeclared exported custom type, per process (the seeds' most common cross-app failure:
/// "custom UTTypes must be registered … without it cross-app transfers fail silently").
enum UndeclaredTypeWarnings {
    private static let warned = Mutex<Set<String>>([])

    /// True the first time it is asked about `type`, when `type` is a custom type nothing declares.
    static func shouldWarn(about type: UTType) -> Bool {
        guard !type.isDeclared, !type.isDynamic, !type.isPublic else { return false }
        return warned.withLock { $0.insert(type.identifier).inserted }
    }
}
