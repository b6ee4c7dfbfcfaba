// SPDX-License-Identifier: Apache-2.0
// ClipBridge — one owner change, as watchers see it

import X11Selection

/// One change of a selection's owner, with what the new owner offers. Only TARGETS is read, never content,
/// so watching costs the owner one tiny request per change and a password manager's secret stays unread.
public struct ClipboardChange: Sendable, Equatable {
    /// The selection that changed.
    public var selection: SelectionName
    /// Why: a new owner, or the owner's window or client went away.
    public var reason: OwnerChange.Reason
    /// The new owner's window; nil when nobody owns the selection now.
    public var owner: X11Window?
    /// When the change happened (server time).
    public var timestamp: X11Timestamp
    /// When the owner acquired the selection (server time).
    public var selectionTimestamp: X11Timestamp
    /// True when the new owner is this process.
    public var isOwnedByThisProcess: Bool
    /// The offered types, richest first, converted ones after (empty when nobody owns it, or when the owner
    /// did not answer TARGETS in time).
    public var types: [ClipboardType]
    /// True when the owner offers `x-kde-passwordManagerHint` — the convention password managers (KeePassXC,
    /// Bitwarden, 1Password, QtPass) and `clipbridge copy --sensitive` use to say "do not keep this".
    /// Only the target's presence is checked, so the flag errs on the side of privacy.
    public var isSensitive: Bool
    /// The raw TARGETS list (meta targets included), for consumers that need more than ``types``.
    public var targets: [SelectionTarget]

    /// Creates a change.
    public init(
        selection: SelectionName, reason: OwnerChange.Reason, owner: X11Window?, timestamp: X11Timestamp,
        selectionTimestamp: X11Timestamp, isOwnedByThisProcess: Bool, types: [ClipboardType], isSensitive: Bool,
        targets: [SelectionTarget]
    ) {
        self.selection = selection
        self.reason = reason
        self.owner = owner
        self.timestamp = timestamp
        self.selectionTimestamp = selectionTimestamp
        self.isOwnedByThisProcess = isOwnedByThisProcess
        self.types = types
        self.isSensitive = isSensitive
        self.targets = targets
    }
}
