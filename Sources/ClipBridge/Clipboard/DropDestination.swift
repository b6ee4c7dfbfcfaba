// SPDX-License-Identifier: Apache-2.0
// ClipBridge — receiving Transferable values by drag and drop (XDND)

import FoundationEssentials
import TransferKit
import X11Selection

/// Where a drop landed: on the root window, and in the destination window's own coordinates (SwiftUI's
/// `location`, with the window as the view).
public struct DropLocation: Sendable, Equatable {
    /// The pointer's x on the root window.
    public var x: Int
    /// The pointer's y on the root window.
    public var y: Int
    /// The pointer's x in the window (its top-left corner is 0, 0).
    public var windowX: Int
    /// The pointer's y in the window.
    public var windowY: Int

    /// Creates a value (the window coordinates default to the root ones).
    public init(x: Int, y: Int, windowX: Int? = nil, windowY: Int? = nil) {
        self.x = x
        self.y = y
        self.windowX = windowX ?? x
        self.windowY = windowY ?? y
    }
}

/// A rectangle of a window, in the window's coordinates: the part of it a destination takes drops in (a view's
/// frame, for a toolkit that draws several views in one X window).
public struct DropRectangle: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the point is inside (the right and bottom edges are outside).
    public func contains(x pointX: Int, y pointY: Int) -> Bool {
        pointX >= x && pointY >= y && pointX < x + width && pointY < y + height
    }
}

/// A drop destination for values of `T` on an X window: the counterpart of SwiftUI's
/// `dropDestination(for:action:isTargeted:)`, on any toplevel's XID (a raw Xlib, SDL, GLFW, GTK or Qt window).
///
/// A drag is accepted where `T` can import one of the types it offers — the same rule as
/// ``Clipboard/paste(_:validator:)``: by conformance, through proxy representations, or through the cheapest
/// converter chain (a drag of HTML dropped as `String`). That is decided once, when the drag enters (its types
/// are known then), and the plan is reused for every position and for the drop. The drop is read from
/// `XdndSelection` as a paste is (richest importable type first, files into private 0600 files, a URL list as
/// one value per URL) and handed to `action`, whose answer is the verdict the drag source gets (XdndFinished).
///
/// ```swift
/// let destination = try await DropDestination<URL>.register(on: window, connection: connection) { urls, location in
///     print("dropped", urls, "at", location)
///     return true
/// } isTargeted: { print($0 ? "drag over us" : "drag gone") }
/// ```
///
/// The drop is read with the types the drag announced (XdndEnter / XdndTypeList) and the XdndDrop's time —
/// every read of the drop carries it — as XDND asks: Qt 5's drag sources refuse TARGETS (seen in the Qt 5
/// tests).
public final class DropDestination<T: Transferable>: Sendable {
    /// The window that takes the drops.
    public let window: X11Window
    /// The connection it talks through.
    public let connection: X11Connection

    private init(window: X11Window, connection: X11Connection) {
        self.window = window
        self.connection = connection
    }

    /// Makes `window` (this connection's own window when nil) take drops of `T`.
    ///
    /// - Parameters:
    ///   - window: The toplevel that takes the drops: another client's too, through `XdndProxy`.
    ///   - rectangle: The part of the window that takes them, in its coordinates (all of it when nil); a drag
    ///     elsewhere over the window is refused there, and accepted once it moves inside.
    ///   - connection: The connection that speaks XDND for it and reads the drops.
    ///   - configuration: How drops are read: converters, where files are received.
    ///   - directSaves: A folder where a drag offering the X Direct Save protocol (`XdndDirectSave0`: an image
    ///     dragged from Chromium or Firefox) is saved, under the name its source proposes (see
    ///     `XdndDrop.directSave(in:timeout:)`); the saved file is then what `T` imports — its file URL when `T`
    ///     imports file URLs (`URL`), else the file itself (typed by its extension). Nil: such drags are read
    ///     like any other.
    ///   - action: Receives the dropped values and where they landed; returns whether the drop was taken.
    ///   - isTargeted: Called with true when a drag `T` can take enters, false when it leaves or is dropped.
    /// - Throws: `SelectionError` when the connection is closed.
    public static func register(
        on window: X11Window? = nil, in rectangle: DropRectangle? = nil, connection: X11Connection,
        configuration: ClipboardConfiguration = .init(), directSaves: URL? = nil,
        action: @escaping @Sendable ([T], DropLocation) async -> Bool,
        isTargeted: @escaping @Sendable (Bool) -> Void = { _ in }
    ) async throws -> DropDestination<T> {
        let converters = configuration.converters
        let taking = try await DropRegistration.register(
            on: window, connection: connection, configuration: configuration,
            // Decided once per drag, when it enters: every position and the drop reuse the plan.
            plan: { types in DropImportPlan(T.self, offering: types, directSaves: directSaves != nil, converters: converters) },
            accepts: { _, proposal in rectangle?.contains(x: proposal.windowX, y: proposal.windowY) ?? true },
            take: { plan, clipboard, location, drop in
                if plan.savesDirectly, let directory = directSaves,
                    case .saved(let path, _)? = try? await drop.directSave(in: directory)
                {
                    let file = URL(fileURLWithPath: path)
                    let value: T? = T.resolvedImporter(forOfferedTypes: [.fileURL]) != nil
                        ? try? await T(importing: Data(file.absoluteString.utf8), contentType: .fileURL)
                        : try? await T(importing: file, contentType: nil)
                    guard let value else { return false }
                    return await action([value], location)
                }
                guard let values = try? await clipboard.paste(plan.imports), !values.isEmpty else { return false }
                return await action(values, location)
            },
            isTargeted: isTargeted)
        return DropDestination(window: taking, connection: connection)
    }

    /// Stops taking drops.
    public func unregister() async {
        await connection.unregisterDropTarget(on: window)
    }
}
