// SPDX-License-Identifier: Apache-2.0
// ClipBridge — the clipboard of one selection

import FoundationEssentials
import Logging
import Synchronization
import X11Selection

/// A selection — CLIPBOARD, PRIMARY, SECONDARY or any named one — seen as a clipboard of `Transferable`
/// values, on X11.
///
/// Copying offers a value's representations richest first under the X targets other applications
/// understand (``TargetMapping``); pasting picks the first offered type the asked type can import, by
/// conformance, through proxies, then through converters (``ConverterRegistry``).
///
/// ```swift
/// let clipboard = try await Clipboard.open()                 // CLIPBOARD on $DISPLAY
/// try await clipboard.copy(note)                             // Note's JSON, HTML and text
/// let notes = try await clipboard.paste(Note.self)           // in another app
/// let text = try await clipboard.text()                      // what gedit would paste
/// for try await change in try await clipboard.changes() { print(change.types, change.isSensitive) }
/// ```
///
/// Many clipboards may share one `X11Connection`. The owner side keeps serving while the connection is open:
/// keep the clipboard (or the connection) alive, call ``waitUntilOwnershipLost()`` to serve until another
/// client copies, or ``handOverToClipboardManager(timeout:)`` before quitting so the content survives.
///
/// A clipboard is a `Sendable` class, not an actor: its work is the connection's (which has its own thread), and
/// its one piece of mutable state — the window its last claim made the owner — sits behind a mutex, so no call
/// hops to an executor of its own before it reaches the connection. Its methods are `async` as the connection's
/// are.
public final class Clipboard: Sendable {
    /// The selection this clipboard reads and owns.
    public let selection: SelectionName
    /// The connection it talks through.
    public let connection: X11Connection
    /// Its settings.
    public let configuration: ClipboardConfiguration
    /// Whether ``open(_:display:configuration:)`` made the connection (then ``shutdown(handOverTimeout:)`` closes it).
    private let ownsConnection: Bool
    /// The window this clipboard's last claim made the owner, as the claim verified it (`SelectionLease.owner`).
    private let claimedOwner = Mutex<X11Window?>(nil)
    /// The targets a drag announced (XdndEnter, XdndTypeList): a drop's clipboard takes them instead of asking
    /// TARGETS, which Qt 5's drag sources do not answer.
    private let announcedTargets: [SelectionTarget]?
    /// The time every conversion is stamped with: a drop's (XDND: the target converts `XdndSelection` with the
    /// XdndDrop's time; Qt 5's sources find the drag by it); nil: the latest server time.
    let readTime: X11Timestamp?

    /// The clipboard of one drop: `XdndSelection`, with the types the drag announced, read at the drop's time.
    init(drop: XdndDrop, connection: X11Connection, configuration: ClipboardConfiguration) {
        self.selection = .xdndSelection
        self.connection = connection
        self.configuration = configuration
        self.ownsConnection = false
        self.announcedTargets = drop.types
        self.readTime = drop.time
    }

    /// Wraps an open connection; ``shutdown(handOverTimeout:)`` leaves it open.
    public init(
        _ selection: SelectionName = .clipboard, connection: X11Connection,
        configuration: ClipboardConfiguration = .init()
    ) {
        self.selection = selection
        self.connection = connection
        self.configuration = configuration
        self.ownsConnection = false
        self.announcedTargets = nil
        self.readTime = nil
    }

    private init(selection: SelectionName, ownedConnection: X11Connection, configuration: ClipboardConfiguration) {
        self.selection = selection
        self.connection = ownedConnection
        self.configuration = configuration
        self.ownsConnection = true
        self.announcedTargets = nil
        self.readTime = nil
    }

    /// Opens `display` (nil: `$DISPLAY`) and wraps the new connection; ``shutdown(handOverTimeout:)`` closes it.
    /// - Throws: `SelectionError` `.displayUnavailable`, naming the display.
    public static func open(
        _ selection: SelectionName = .clipboard, display: String? = nil,
        configuration: ClipboardConfiguration = .init()
    ) async throws -> Clipboard {
        let connection = try await X11Connection.open(display: display)
        return Clipboard(selection: selection, ownedConnection: connection, configuration: configuration)
    }

    /// Continues a `PreparedClaim`'s connection (in the child after claim-then-fork) and wraps it for the
    /// claimed selection: the next `copy`, supplies the offer for the
    /// claim already held, with its timestamp; ``shutdown(handOverTimeout:)`` closes the connection.
    /// - Throws: `SelectionError` `.shutDown` when the prepared claim was already used.
    public static func open(
        continuing prepared: PreparedClaim, engine: Configuration = .init(),
        configuration: ClipboardConfiguration = .init()
    ) async throws -> Clipboard {
        let connection = try await X11Connection.open(continuing: prepared, configuration: engine)
        return Clipboard(selection: prepared.selection, ownedConnection: connection, configuration: configuration)
    }

    /// Ends this clipboard: when it owns CLIPBOARD, first hands the content to the running clipboard manager
    /// (freedesktop SAVE_TARGETS, at most `handOverTimeout`; never for sensitive content, and at once when no
    /// manager runs), then releases ownership, removes the private receive directory when no other clipboard of
    /// the process uses it, and closes the connection if ``open(_:display:configuration:)`` made it.
    /// - Parameter handOverTimeout: The bound of the handover; nil skips it.
    public func shutdown(handOverTimeout: Duration? = .seconds(2)) async {
        if let handOverTimeout, selection == .clipboard, (try? await isOwner()) == true {
            do {
                let outcome = try await connection.handOverToClipboardManager(timeout: handOverTimeout)
                logger.debug("clipboard manager handover on shutdown: \(outcome)")
            } catch {
                logger.notice("the clipboard manager did not take the content before shutdown: \(error)")
            }
        }
        await clear()
        ImportDirectory.removeIfEmpty()
        if ownsConnection { await connection.shutdown() }
    }

    // MARK: - Shared helpers

    /// The window this clipboard's last claim made the owner (nil before any claim).
    var ownWindow: X11Window? {
        get { claimedOwner.withLock { $0 } }
        set { claimedOwner.withLock { $0 = newValue } }
    }

    var logger: Logger { configuration.logger }

    /// The owner's content targets in its order (meta targets, the password hint and the item list removed),
    /// and the raw list.
    func offeredTargets() async throws -> (content: [SelectionTarget], all: [SelectionTarget]) {
        let all: [SelectionTarget]
        if let announcedTargets {
            all = announcedTargets
        } else {
            all = try await connection.targets(of: selection, timeout: configuration.readTimeout)
        }
        return (TargetMapping.contentTargets(in: all), all)
    }

    /// The in-process representations of the current owner, when this process owns the selection.
    func inProcessRepresentations() async -> [InProcessContent.Representation] {
        guard let owner = try? await connection.owner(of: selection) else { return [] }
        return InProcessContent.representations(
            for: .init(display: connection.displayName, selection: selection, owner: owner))
    }
}
