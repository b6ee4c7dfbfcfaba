/// The owner side of one SelectionRequest (ICCCM 2.2, 2.6), as a pure decision: what the owner does with a
/// request, from what it holds. The connection carries the decision out (writes the property, sends the
/// notify, starts an INCR transfer, whose own steps `IncrementalSender` decides).
///
/// request → held (a prepared claim without its offer yet) | refused (with the reason) | answered
/// (TARGETS, TIMESTAMP, MULTIPLE, a side-effect target, or content → served whole, or INCR, whose
/// `IncrementalSender` ends it completed or dropped with its `DropCause`).
enum SelectionRequestPolicy {
    /// Why a request is refused (property None in the notify).
    enum Refusal: Sendable, Equatable, CustomStringConvertible {
        /// This connection does not own the selection (any more).
        case notOwner
        /// The request is stamped before our claim (ICCCM 2.2; CurrentTime is always accepted).
        case beforeClaim
        /// The target atom has no name on the server: it was never interned, so nothing can mean it.
        case unknownTarget
        /// MULTIPLE needs a property holding its pairs (ICCCM 2.6.2); an obsolete requestor's None cannot.
        case multipleWithoutProperty
        /// The table has no answer for the target (not offered; nested MULTIPLE; SAVE_TARGETS of a secret).
        case notOffered

        var description: String {
            switch self {
            case .notOwner: "not the owner"
            case .beforeClaim: "stamped before our claim"
            case .unknownTarget: "the target atom has no name"
            case .multipleWithoutProperty: "MULTIPLE without a property"
            case .notOffered: "not offered"
            }
        }
    }

    enum Decision: Sendable, Equatable {
        /// Keep the request until the offer of a prepared claim arrives.
        case hold
        /// Answer property None.
        case refuse(Refusal)
        /// Answer with `answer` into `property`.
        case answer(TargetTable.Answer, property: X11Atom)
    }

    /// What the owner holds for the requested selection.
    enum Holding: Sendable {
        /// Nothing: another client owns it, or nobody.
        case nothing
        /// A prepared claim whose offer is not there yet.
        case adoptedWithoutOffer
        /// A claim made at `time`, serving `table`.
        case claim(time: X11Timestamp, table: TargetTable)
    }

    /// The property a reply goes into: the request's, or — for obsolete requestors that send None — the target
    /// atom itself (ICCCM 2.2).
    static func replyProperty(target: X11Atom, property: X11Atom) -> X11Atom {
        property.isNone ? target : property
    }

    /// Decides a request for `selection` held as `holding`; `targetName` is the target atom's name (nil when
    /// the server has none).
    static func decide(
        target: X11Atom, property: X11Atom, time: X11Timestamp, targetName: SelectionTarget?, holding: Holding
    ) -> Decision {
        let table: TargetTable
        switch holding {
        case .nothing:
            return .refuse(.notOwner)
        case .adoptedWithoutOffer:
            return .hold
        case .claim(let claimTime, let claimTable):
            if time != .currentTime && time < claimTime { return .refuse(.beforeClaim) }
            table = claimTable
        }
        guard let targetName else { return .refuse(.unknownTarget) }
        if targetName == .multiple && property.isNone { return .refuse(.multipleWithoutProperty) }
        let answer = table.answer(for: targetName)
        if answer == .refuse { return .refuse(.notOffered) }
        return .answer(answer, property: replyProperty(target: target, property: property))
    }
}
