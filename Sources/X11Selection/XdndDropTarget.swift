import FoundationEssentials

/// What a drag over a drop target offers at one point (XdndPosition), for the target to accept or refuse.
public struct XdndProposal: Sendable, Equatable {
    /// The types the drag offers, in the source's order (richest first, by convention).
    public var types: [SelectionTarget]
    /// The pointer, in root-window coordinates.
    public var x: Int
    /// The pointer, in root-window coordinates.
    public var y: Int
    /// The action the user asked for: `XdndActionCopy`, `XdndActionMove`, `XdndActionLink`, `XdndActionAsk`
    /// or `XdndActionPrivate`.
    public var action: SelectionTarget
    /// The pointer in the target window's own coordinates (its top-left corner is 0, 0).
    public var windowX: Int
    /// The pointer in the target window's own coordinates.
    public var windowY: Int

    /// Creates a value.
    public init(types: [SelectionTarget], x: Int, y: Int, action: SelectionTarget, windowX: Int? = nil, windowY: Int? = nil) {
        self.types = types
        self.x = x
        self.y = y
        self.action = action
        self.windowX = windowX ?? x
        self.windowY = windowY ?? y
    }
}

/// A drop: where and what, and the means to read its data from the drag source.
public struct XdndDrop: Sendable {
    /// The types offered, in the source's order.
    public let types: [SelectionTarget]
    /// Where it landed, in root-window coordinates.
    public let x: Int
    /// Where it landed, in root-window coordinates.
    public let y: Int
    /// Where it landed, in the target window's own coordinates.
    public let windowX: Int
    /// Where it landed, in the target window's own coordinates.
    public let windowY: Int
    /// The action the target accepted with.
    public let action: SelectionTarget
    /// The XdndDrop's timestamp: `XdndSelection` is converted with it.
    public let time: X11Timestamp
    /// The drag source's window (the XdndEnter's): where a direct save's property lives.
    public let source: X11Window
    let connection: X11Connection

    /// The drag's data as `target`, converted from `XdndSelection` with the drop's timestamp (whole; INCR is
    /// reassembled).
    public func read(_ target: SelectionTarget, timeout: Duration? = nil) async throws -> SelectionData {
        try await connection.read(.xdndSelection, target: target, at: time, timeout: timeout)
    }
}

/// How a drop target answers drags, one drag at a time. `proposal` and `targeted` run on the connection's thread,
/// between its X events: keep them quick (decide from the types; read nothing). `drop` runs off it.
public struct XdndDropDelegate: Sendable {
    /// The action taken for a drag at this point (one the proposal's action may be replaced by, e.g. copy for
    /// ask), or nil to refuse it here.
    public var proposal: @Sendable (XdndProposal) -> SelectionTarget?
    /// The drop: read what is needed (``XdndDrop/read(_:timeout:)``) and return whether it was taken. Its time
    /// is the source's to bound: a source gives up on a target that does not finish (see `XdndSource`).
    public var drop: @Sendable (XdndDrop) async -> Bool
    /// A drag entered (true) or left, was dropped or forgotten (false): the `isTargeted` of SwiftUI's drop
    /// destinations.
    public var targeted: @Sendable (Bool) -> Void
    /// The answer does not depend on where in the window the pointer is: each XdndStatus then tells the source
    /// it may stop sending positions while the pointer stays in the window (XDND's rectangle hint), which spares
    /// both sides a message per motion. The drop's position is then where the drag entered, not where it
    /// was dropped.
    public var answerHoldsForWholeWindow: Bool

    /// Creates a delegate.
    public init(
        proposal: @escaping @Sendable (XdndProposal) -> SelectionTarget?,
        drop: @escaping @Sendable (XdndDrop) async -> Bool,
        targeted: @escaping @Sendable (Bool) -> Void = { _ in },
        answerHoldsForWholeWindow: Bool = false
    ) {
        self.proposal = proposal
        self.drop = drop
        self.targeted = targeted
        self.answerHoldsForWholeWindow = answerHoldsForWholeWindow
    }
}

extension SelectionName {
    /// The selection XDND's drag sources own for the drag's data.
    public static let xdndSelection: SelectionName = "XdndSelection"
}
