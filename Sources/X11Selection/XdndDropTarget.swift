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

    /// The drag's data as `target`, streamed into `sink` as it arrives, converted with the drop's timestamp.
    public nonisolated(nonsending) func read(
        _ target: SelectionTarget, timeout: Duration? = nil,
        into sink: nonisolated(nonsending) @Sendable (Data) async throws -> Void
    ) async throws -> SelectionStreamSummary {
        try await connection.read(.xdndSelection, target: target, at: time, timeout: timeout, into: sink)
    }
}

/// How a drop target answers drags, one drag at a time, deciding once per drag: when a drag enters, the
/// delegate's `plan` is made from the types it offers (XdndEnter, XdndTypeList: they do not change during a
/// drag) — what the target would read, or nil to refuse the drag wherever it goes. Every XdndPosition is then
/// answered from that plan (`proposal`: only where the pointer is and the action asked for are new), and the
/// drop carries it out.
///
/// `plan` and `proposal` run on the connection's thread, between its X events: keep them quick (decide from
/// the types; read nothing). `drop` runs off it.
public struct XdndDropDelegate: Sendable {
    /// Makes a drag's session (its plan, bound to the answers that use it) from its types; nil refuses it.
    let enter: @Sendable ([SelectionTarget]) -> XdndDropSession?
    /// A drag entered (true) or left, was dropped or forgotten (false): the `isTargeted` of SwiftUI's drop
    /// destinations.
    public var targeted: @Sendable (Bool) -> Void
    /// The answer does not depend on where in the window the pointer is: each XdndStatus then tells the source
    /// it may stop sending positions while the pointer stays in the window (XDND's rectangle hint), which spares
    /// both sides a message per motion. The drop's position is then where the drag entered, not where it
    /// was dropped.
    public var answerHoldsForWholeWindow: Bool

    /// Creates a delegate that plans each drag once.
    ///
    /// - Parameters:
    ///   - plan: A drag entered offering these types (in the source's order): the plan for the whole drag, or
    ///     nil to refuse it.
    ///   - proposal: The action taken for the drag at this point (one the proposal's action may be replaced by,
    ///     e.g. copy for ask), or nil to refuse it here; asked only for a drag that has a plan.
    ///   - drop: Carries out the plan — reads what it names (``XdndDrop/read(_:timeout:)``: with the drop's
    ///     time) — and returns whether the drop was taken. Its time is the source's to bound: a source gives
    ///     up on a target that does not finish (see `XdndSource`).
    ///   - targeted: See ``targeted``.
    ///   - answerHoldsForWholeWindow: See ``answerHoldsForWholeWindow``.
    public init<Plan: Sendable>(
        plan: @escaping @Sendable ([SelectionTarget]) -> Plan?,
        proposal: @escaping @Sendable (Plan, XdndProposal) -> SelectionTarget?,
        drop: @escaping @Sendable (Plan, XdndDrop) async -> Bool,
        targeted: @escaping @Sendable (Bool) -> Void = { _ in },
        answerHoldsForWholeWindow: Bool = false
    ) {
        enter = { types in
            guard let plan = plan(types) else { return nil }
            return XdndDropSession(answer: { proposal(plan, $0) }, take: { await drop(plan, $0) })
        }
        self.targeted = targeted
        self.answerHoldsForWholeWindow = answerHoldsForWholeWindow
    }

    /// Creates a delegate that decides from the proposal's and the drop's types themselves.
    public init(
        proposal: @escaping @Sendable (XdndProposal) -> SelectionTarget?,
        drop: @escaping @Sendable (XdndDrop) async -> Bool,
        targeted: @escaping @Sendable (Bool) -> Void = { _ in },
        answerHoldsForWholeWindow: Bool = false
    ) {
        self.init(
            plan: { $0 }, proposal: { proposal($1) }, drop: { await drop($1) }, targeted: targeted,
            answerHoldsForWholeWindow: answerHoldsForWholeWindow)
    }
}

/// One drag's plan, bound to the delegate's answers: what the connection keeps per drag (whatever the plan's
/// type), from XdndEnter to the drop or the leave.
struct XdndDropSession: Sendable {
    /// The answer to one XdndPosition.
    let answer: @Sendable (XdndProposal) -> SelectionTarget?
    /// Takes the drop.
    let take: @Sendable (XdndDrop) async -> Bool
}

extension SelectionName {
    /// The selection XDND's drag sources own for the drag's data.
    public static let xdndSelection: SelectionName = "XdndSelection"
}
