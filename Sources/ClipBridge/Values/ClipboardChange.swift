// SPDX-License-Identifier: Apache-2.0
// ClipBridge — one owner change, as watchers see it

import X11Selection

/// One change of a selection's owner, with what the new owner offers. Only TARGETS is read, never content,
/// so watching costs the owner one tiny request per change and a password manager's secret stays unread.
///
/// The engine's `OwnerChange` (who, why, when) plus what the bridge learned from the owner: its types and
/// whether it marked the content sensitive.
public struct ClipboardChange: Sendable, Equatable {
    /// The engine's report of the change.
    public var ownerChange: OwnerChange
    /// The offered types, richest first, converted ones after (empty when nobody owns it, or when the owner
    /// did not answer TARGETS in time).
    public var types: [ClipboardType]
    /// True when the owner offers `x-kde-passwordManagerHint` — the convention password managers (KeePassXC,
    /// Bitwarden, 1Password, QtPass) and `clipbridge copy --sensitive` use to say "do not keep this".
    /// Only the target's presence is checked, so the flag errs on the side of privacy.
    public var isSensitive: Bool
    /// The raw TARGETS list (meta targets included), for consumers that need more than ``types``.
    public var targets: [SelectionTarget]

    /// The selection that changed.
    public var selection: SelectionName { ownerChange.selection }
    /// Why: a new owner, or the owner's window or client went away.
    public var reason: OwnerChange.Reason { ownerChange.reason }
    /// The new owner's window; nil when nobody owns the selection now.
    public var owner: X11Window? { ownerChange.owner }
    /// When the change happened (server time).
    public var timestamp: X11Timestamp { ownerChange.timestamp }
    /// When the owner acquired the selection (server time).
    public var selectionTimestamp: X11Timestamp { ownerChange.selectionTimestamp }
    /// True when the new owner is this process.
    public var isOwnedByThisProcess: Bool { ownerChange.isOwnedByThisProcess }

    /// Creates a change from the engine's report and what the owner offers.
    public init(_ ownerChange: OwnerChange, types: [ClipboardType], isSensitive: Bool, targets: [SelectionTarget]) {
        self.ownerChange = ownerChange
        self.types = types
        self.isSensitive = isSensitive
        self.targets = targets
    }

    /// Creates a change field by field.
    public init(
        selection: SelectionName, reason: OwnerChange.Reason, owner: X11Window?, timestamp: X11Timestamp,
        selectionTimestamp: X11Timestamp, isOwnedByThisProcess: Bool, types: [ClipboardType], isSensitive: Bool,
        targets: [SelectionTarget]
    ) {
        self.init(
            OwnerChange(
                selection: selection, reason: reason, owner: owner, timestamp: timestamp,
                selectionTimestamp: selectionTimestamp, isOwnedByThisProcess: isOwnedByThisProcess),
            types: types, isSensitive: isSensitive, targets: targets)
    }
}
