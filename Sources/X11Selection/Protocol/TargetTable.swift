/// What an owner answers for each target, derived from a `SelectionOffer`.
///
/// Every advertised target is servable: content targets come from the offer in its order, followed by
/// the meta targets the engine answers itself. SAVE_TARGETS is left out for sensitive offers (a
/// clipboard manager must not keep them; arboard does the same).
///
/// A manager selection (ICCCM 2.8) has no content: its table answers TARGETS, TIMESTAMP and SAVE_TARGETS,
/// which asks the manager to save CLIPBOARD (freedesktop clipboard-manager spec) — and refuses DELETE, so a
/// client cannot unseat the manager by converting it.
struct TargetTable: Sendable {
    /// What the claim is for.
    enum Role: Sendable, Equatable {
        /// Content an owner serves.
        case content
        /// A manager selection (`CLIPBOARD_MANAGER`): SAVE_TARGETS is a request to its manager.
        case manager
    }

    /// How to answer one target.
    enum Answer: Sendable, Equatable {
        case targets
        case timestamp
        case multiple
        /// SAVE_TARGETS asked of the owner: a side-effect target with nothing to do; reply NULL.
        case saveTargets
        /// SAVE_TARGETS asked of a manager: hand the request to it; it answers once CLIPBOARD is saved.
        case saveTargetsRequest
        /// DELETE (ICCCM 2.6.3.1): drop the value (release ownership), reply NULL.
        case delete
        case targetSizes
        /// Content: index into `SelectionOffer.representations`.
        case content(Int)
        case refuse
    }

    let contentTargets: [SelectionTarget]
    let isSensitive: Bool
    let role: Role
    private let indexByTarget: [SelectionTarget: Int]

    init(offer: SelectionOffer, role: Role = .content) {
        isSensitive = offer.isSensitive
        self.role = role
        // Each target once, the first representation wins, meta targets are answered by the engine: an
        // offer whose `representations` were edited after `SelectionOffer.init` may break those rules.
        var targets: [SelectionTarget] = []
        var index: [SelectionTarget: Int] = [:]
        for (position, target) in offer.representations.map(\.target).enumerated()
        where index[target] == nil && !target.isMetaTarget {
            index[target] = position
            targets.append(target)
        }
        contentTargets = targets
        indexByTarget = index
    }

    /// The meta targets this owner answers.
    var metaTargets: [SelectionTarget] {
        if role == .manager { return [.targets, .timestamp, .saveTargets] }
        var meta: [SelectionTarget] = [.targets, .multiple, .timestamp]
        if !isSensitive { meta.append(.saveTargets) }
        meta += [.delete, .targetSizes]
        return meta
    }

    /// The TARGETS reply: exactly the servable targets, in order, then the meta targets.
    var advertisedTargets: [SelectionTarget] { contentTargets + metaTargets }

    /// How to answer `target`. `insideMultiple` refuses a nested MULTIPLE (ICCCM 2.6.2).
    func answer(for target: SelectionTarget, insideMultiple: Bool = false) -> Answer {
        if let index = indexByTarget[target] { return .content(index) }
        if role == .manager {
            switch target {
            case .targets: return .targets
            case .timestamp: return .timestamp
            case .saveTargets: return insideMultiple ? .refuse : .saveTargetsRequest
            default: return .refuse
            }
        }
        switch target {
        case .targets: return .targets
        case .timestamp: return .timestamp
        case .multiple: return insideMultiple ? .refuse : .multiple
        case .saveTargets: return isSensitive ? .refuse : .saveTargets
        case .delete: return .delete
        case .targetSizes: return .targetSizes
        default: return .refuse
        }
    }

    /// TARGET_SIZES items: (target atom, size) pairs, size −1 (as 0xFFFFFFFF) when unknown until produced.
    static func targetSizeItems(_ sizes: [(atom: X11Atom, size: Int?)]) -> [UInt] {
        var items: [UInt] = []
        for entry in sizes {
            items.append(entry.atom.rawValue)
            if let size = entry.size {
                items.append(UInt(min(size, Int(Int32.max))))
            } else {
                items.append(UInt(UInt32.max))
            }
        }
        return items
    }
}
