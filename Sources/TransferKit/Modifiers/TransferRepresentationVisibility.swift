// SPDX-License-Identifier: Apache-2.0

/// Which processes may see a representation while it is in transit.
///
/// The four values mirror Apple's (and Foundation's `NSItemProviderRepresentationVisibility`). Linux has
/// no development teams or app groups, so TransferKit gives them a conservative meaning: a
/// representation marked `.team` or `.group` is never offered to arbitrary processes (such as other X11
/// clients on the clipboard); it is offered only when the requesting audience is that same team or
/// group, or the own process.
///
/// The resolution layer speaks of an *audience*: ``Transferable/resolvedExporters(visibility:)`` keeps a
/// representation when its visibility admits the audience — `.all` admits everyone, `.team` admits the
/// team and the own process, `.group` admits the group and the own process, `.ownProcess` admits only the
/// own process. Nested `visibility(_:)` modifiers only ever narrow (an inner `.ownProcess` is not undone
/// by an outer `.all`).
public struct TransferRepresentationVisibility: Hashable, Sendable, CustomStringConvertible {
    private enum Scope: Hashable, Sendable { case all, team, group, ownProcess }

    private let scope: Scope
    private init(_ scope: Scope) { self.scope = scope }

    /// Every process may see the representation (the default).
    public static let all = TransferRepresentationVisibility(.all)
    /// Only processes of the same development team (Apple: iOS, tvOS, watchOS, visionOS; on Linux see
    /// the type's discussion).
    public static let team = TransferRepresentationVisibility(.team)
    /// Only processes of the same app group (Apple: macOS; on Linux see the type's discussion).
    public static let group = TransferRepresentationVisibility(.group)
    /// Only the originating process.
    public static let ownProcess = TransferRepresentationVisibility(.ownProcess)

    /// `all`, `team`, `group` or `ownProcess`.
    public var description: String {
        switch scope {
        case .all: "all"
        case .team: "team"
        case .group: "group"
        case .ownProcess: "ownProcess"
        }
    }

    /// Whether a representation with this visibility may be shown to `audience`.
    func isVisible(to audience: TransferRepresentationVisibility) -> Bool {
        scope == .all || scope == audience.scope || audience.scope == .ownProcess
    }

    /// The narrower of two visibilities; `team` and `group` are unrelated, so together they narrow to
    /// `ownProcess`.
    func narrowed(by other: TransferRepresentationVisibility) -> TransferRepresentationVisibility {
        if scope == other.scope || other.scope == .all { return self }
        if scope == .all { return other }
        return .ownProcess
    }
}
