// SPDX-License-Identifier: Apache-2.0
// ClipBridge — what every drop destination does on the wire, whatever it hands over

import FoundationEssentials
import X11Selection

/// The part `DropDestination` and `ItemDropDestination` share: an XDND drop target that makes the destination's
/// plan once per drag, from the types it entered with, answers every position from that plan, and reads the
/// drop through a clipboard of the drop — the types the drag announced (Qt 5's sources refuse TARGETS) and the
/// XdndDrop's time, which every read of that clipboard carries.
enum DropRegistration {
    /// Makes `window` (the connection's own when nil) take drops; returns the window that does.
    ///
    /// - Parameters:
    ///   - plan: The destination's plan for a drag offering these types, or nil to refuse it (runs on the
    ///     connection's thread: decide from the types, read nothing).
    ///   - accepts: Whether a drag with this plan is taken at this point (the window's part it is over).
    ///   - take: Carries the plan out: reads the drop through its clipboard (or the drop itself: a direct save)
    ///     and returns whether it was taken.
    static func register<Plan: Sendable>(
        on window: X11Window?, connection: X11Connection, configuration: ClipboardConfiguration,
        plan: @escaping @Sendable ([SelectionTarget]) -> Plan?,
        accepts: @escaping @Sendable (Plan, XdndProposal) -> Bool = { _, _ in true },
        take: @escaping @Sendable (Plan, Clipboard, DropLocation, XdndDrop) async -> Bool,
        isTargeted: @escaping @Sendable (Bool) -> Void
    ) async throws -> X11Window {
        let delegate = XdndDropDelegate(
            plan: plan,
            proposal: { plan, proposal in accepts(plan, proposal) ? action(for: proposal.action) : nil },
            drop: { plan, drop in
                let clipboard = Clipboard(drop: drop, connection: connection, configuration: configuration)
                let location = DropLocation(x: drop.x, y: drop.y, windowX: drop.windowX, windowY: drop.windowY)
                return await take(plan, clipboard, location, drop)
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
