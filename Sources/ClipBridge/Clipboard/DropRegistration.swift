// SPDX-License-Identifier: Apache-2.0
// ClipBridge — what every drop destination does on the wire, whatever it hands over

import FoundationEssentials
import X11Selection

/// The part `DropDestination` and `ItemDropDestination` share: an XDND drop target whose proposal is the
/// destination's rule, and whose drop is read through a clipboard of the drop — the types the drag announced
/// (Qt 5's sources refuse TARGETS) and the XdndDrop's time.
enum DropRegistration {
    /// Makes `window` (the connection's own when nil) take drops; returns the window that does.
    ///
    /// - Parameters:
    ///   - accepts: Whether a drag at this point is taken (runs on the connection's thread: decide from the types).
    ///   - take: Reads the drop through its clipboard (or the drop itself: a direct save) and returns whether it
    ///     was taken.
    static func register(
        on window: X11Window?, connection: X11Connection, configuration: ClipboardConfiguration,
        accepts: @escaping @Sendable (XdndProposal) -> Bool,
        take: @escaping @Sendable (Clipboard, DropLocation, XdndDrop) async -> Bool,
        isTargeted: @escaping @Sendable (Bool) -> Void
    ) async throws -> X11Window {
        let delegate = XdndDropDelegate(
            proposal: { proposal in accepts(proposal) ? action(for: proposal.action) : nil },
            drop: { drop in
                let clipboard = Clipboard(drop: drop.types, connection: connection, configuration: configuration)
                return await take(clipboard, DropLocation(x: drop.x, y: drop.y, windowX: drop.windowX, windowY: drop.windowY), drop)
            },
            targeted: isTargeted)
        let own = await connection.utilityWindow
        try await connection.registerDropTarget(on: window, delegate: delegate)
        return window ?? own
    }

    /// The action a drop is taken with: the one the user asked for, but a copy for `XdndActionAsk` (there is
    /// no menu to ask with) and for actions this side does not know.
    static func action(for asked: SelectionTarget) -> SelectionTarget {
        // (XDS's own action is kept: the source that asked for it saves the file itself.)
        switch asked {
        case .xdndActionCopy, .xdndActionMove, .xdndActionLink, DirectSave.action: asked
        default: .xdndActionCopy
        }
    }
}
