// SPDX-License-Identifier: Apache-2.0
// ClipBridge — dragging Transferable values (XDND)

import FoundationEssentials
import TransferKit
import X11Selection

/// Drags of `Transferable` values to any application on the display: the counterpart of SwiftUI's
/// `draggable(_:)` (and AppKit's `beginDraggingSession`), for a program that decides when a drag starts.
///
/// The values are offered as `Clipboard.copy(_:options:)` offers them, under `XdndSelection`:
/// every exported representation richest first under the targets other applications know, files also as
/// `text/uri-list` and `x-special/gnome-copied-files`, text with its fallbacks. Nothing is converted until
/// the target asks, and files stream from disk.
///
/// ```swift
/// // In the handler of a button press plus a few pixels of motion in your window:
/// let outcome = try await DragSource.drag([photoURL], connection: connection, actions: [.xdndActionCopy, .xdndActionMove])
/// if case .dropped(_, .xdndActionMove, _) = outcome { try FileManager.default.removeItem(at: photoURL) }
/// ```
///
/// How the drag follows the pointer, when it drops and how long it may take are
/// `X11Connection.drag(_:actions:timeout:)`'s: with a button held it drops at its release; with none held it
/// follows the pointer and drops at the next click; Escape cancels.
public enum DragSource {
    /// Drags `items` until they are dropped, refused or cancelled.
    ///
    /// - Parameters:
    ///   - items: What is dragged: one value, or several (another ClipBridge app receives the whole list; other
    ///     applications get the first item's types, or the items joined where the format allows, as for copy).
    ///   - connection: The connection whose display the drag is on.
    ///   - configuration: The converters that widen the offer, and the logger.
    ///   - actions: The actions allowed, the first the default (Ctrl, Shift and Ctrl+Shift pick copy, move and
    ///     link among them).
    ///   - timeout: The longest the whole drag may take.
    /// - Returns: Where it was dropped and with which action, or how it ended otherwise.
    /// - Throws: ``ClipboardError`` `.invalidItem` / `.exportFailed` when there is nothing to offer;
    ///   `SelectionError` `.pointerUnavailable` when another client holds the pointer, `.dragInProgress`.
    public static func drag<T: Transferable>(
        _ items: [T], connection: X11Connection, configuration: ClipboardConfiguration = .init(),
        actions: [SelectionTarget] = [.xdndActionCopy], timeout: Duration = .seconds(120)
    ) async throws -> XdndDragOutcome {
        let clipboard = Clipboard(.xdndSelection, connection: connection, configuration: configuration)
        return try await drag(try await clipboard.prepare(items), clipboard, actions: actions, timeout: timeout)
    }

    /// Drags raw items built from bytes, files and providers (what `clipbridge drag` does).
    public static func drag(
        _ items: [ClipboardItem], connection: X11Connection, configuration: ClipboardConfiguration = .init(),
        actions: [SelectionTarget] = [.xdndActionCopy], timeout: Duration = .seconds(120)
    ) async throws -> XdndDragOutcome {
        guard !items.isEmpty else { throw ClipboardError(.invalidItem, "nothing to drag: the list is empty") }
        let clipboard = Clipboard(.xdndSelection, connection: connection, configuration: configuration)
        return try await drag(try items.map(PreparedItem.init), clipboard, actions: actions, timeout: timeout)
    }

    /// Drags files as a file manager does: `text/uri-list` (CRLF), `x-special/gnome-copied-files`, and the
    /// paths as text.
    public static func dragFiles(
        _ files: [URL], connection: X11Connection, configuration: ClipboardConfiguration = .init(),
        actions: [SelectionTarget] = [.xdndActionCopy], timeout: Duration = .seconds(120)
    ) async throws -> XdndDragOutcome {
        let clipboard = Clipboard(.xdndSelection, connection: connection, configuration: configuration)
        return try await drag([try PreparedItem.files(files)], clipboard, actions: actions, timeout: timeout)
    }

    private static func drag(
        _ items: [PreparedItem], _ clipboard: Clipboard, actions: [SelectionTarget], timeout: Duration
    ) async throws -> XdndDragOutcome {
        let (offer, _) = try await clipboard.offer(for: items, options: CopyOptions(), isCut: false)
        guard !offer.representations.isEmpty else {
            throw ClipboardError(.exportFailed, "the content has no representation other applications can take")
        }
        return try await clipboard.connection.drag(offer, actions: actions, timeout: timeout)
    }
}
