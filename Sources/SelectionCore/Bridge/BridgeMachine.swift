/// Every decision of a selection bridge (X11's `SelectionBridge`, the X ↔ Wayland bridge), as a pure state machine:
/// events in, actions out. The bridge's one task connects displays, reads TARGETS, claims and releases when told, and
/// feeds the outcomes back one at a time; relays ask ``isCurrent(_:generation:)`` whether the content they were offered
/// is still the source's.
///
/// Per selection, one display's owner is the *source*; each owner change handled is a generation, and a
/// TARGETS read overtaken by a newer change is dropped rather than applied late. A change dropped that way is
/// taken up again if the newer one turns out to bring no new content (another bridge's claim, or ours): two
/// bridges each dropping the app's copy for the other's claim would otherwise leave every display without it.
package struct BridgeMachine: Sendable {
    /// The display whose owner of a selection is offered on the others.
    package struct Source: Sendable, Equatable {
        package var display: Int
        package var generation: UInt64
        /// What the other displays are offered, in the owner's order; nil when the owner is not bridged
        /// (sensitive, unreadable, nothing that can cross).
        package var targets: [SelectionTarget]?
        /// The content is marked sensitive and bridged anyway (the offer carries the hint again).
        package var isSensitive = false
        /// The source display's owner changed: this offer's content is gone, and its relays refuse.
        package var isStale = false
    }

    package enum Event: Sendable {
        /// Display `display` is connected; these selections have an owner there.
        case connected(display: Int, owned: Set<SelectionName>)
        /// Display `display` went away.
        case disconnected(display: Int, reason: String)
        /// An owner change on `display`: our own claim (the bridge serving it) is never bridged back, so nothing
        /// echoes; an app's new owner makes its display the source; with nobody owning it, a source display's
        /// content is withdrawn from the others (a paste would only fail, or worse, show content that no
        /// longer exists).
        case ownerChanged(SelectionName, OwnerChangeMeaning, display: Int)
        /// The TARGETS read of `generation` on `display` ended.
        case targetsRead(SelectionName, display: Int, generation: UInt64, Result<[SelectionTarget], TargetsFailure>)
        /// The claims asked for `selection`'s source of `generation` ended: made on these displays. Only a new
        /// source's claims (`announces`) are reported as bridged.
        case claimsEnded(SelectionName, generation: UInt64, claimed: [Int], announces: Bool)
    }

    /// Why TARGETS could not be read, and whether the bridge's own claim is the owner there now.
    package struct TargetsFailure: Error, Sendable, Equatable {
        package var reason: String
        package var ownClaimIsOwner: Bool

        package init(reason: String, ownClaimIsOwner: Bool) {
            self.reason = reason
            self.ownClaimIsOwner = ownClaimIsOwner
        }
    }

    package enum Action: Sendable, Equatable {
        /// Read the TARGETS of `selection`'s owner on `display`; feed them back.
        case readTargets(SelectionName, display: Int, generation: UInt64)
        /// Claim `selection` on `displays` with the source's offer; feed back on which it worked, at once.
        /// `announces`: the claims are a new source's (reported as bridged) rather than a display joining.
        case claim(SelectionName, displays: [Int], source: Source, announces: Bool)
        /// Give up `selection` on `displays`, where the bridge may hold it.
        case release(SelectionName, displays: [Int])
        /// Tell the bridge's user.
        case report(BridgeReport)
    }

    /// The displays as named, for reports.
    package let names: [String]
    package let selections: [SelectionName]
    package let includeSensitive: Bool
    private(set) var connected: Set<Int> = []
    private var sources: [SelectionName: Source] = [:]
    private var generation: UInt64 = 0
    /// The generation of the newest owner change being handled, per selection.
    private var latestChange: [SelectionName: UInt64] = [:]
    /// A display whose owner change was dropped for a newer one, per selection (see the type's discussion).
    private var supersededChange: [SelectionName: Int] = [:]
    /// Selections whose newest change's TARGETS are being read.
    private var reading: Set<SelectionName> = []

    package init(displays names: [String], selections: [SelectionName], includeSensitive: Bool) {
        self.names = names
        self.selections = selections
        self.includeSensitive = includeSensitive
    }

    /// Whether no owner's TARGETS are being read: every display's content known at this point has been offered.
    package var isSettled: Bool { reading.isEmpty }

    /// Whether `generation` is still the source of `selection` (a paste relays only the content it was offered).
    package func isCurrent(_ selection: SelectionName, generation: UInt64) -> Bool {
        guard let source = sources[selection] else { return false }
        return source.generation == generation && !source.isStale && source.targets != nil
    }

    package mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .connected(let display, let owned):
            guard connected.insert(display).inserted else { return [] }
            var actions: [Action] = [.report(.connected(display: names[display]))]
            for selection in selections {
                if let source = sources[selection] {
                    // The current content reaches the display that joined.
                    if source.display != display, source.targets != nil {
                        actions.append(.claim(selection, displays: [display], source: source, announces: false))
                    }
                } else if owned.contains(selection), !reading.contains(selection) {
                    // Adopted only when no display's owner is on its way to be the source: at start, the first
                    // display named with an owner is the source.
                    actions += newSource(selection, on: display)
                }
            }
            return actions
        case .disconnected(let display, let reason):
            guard connected.remove(display) != nil else { return [] }
            var actions: [Action] = [.report(.disconnected(display: names[display], reason: reason))]
            // What it was the source of is withdrawn from the others.
            for selection in selections where sources[selection]?.display == display {
                sources[selection] = nil
                actions.append(withdraw(selection, keeping: display))
            }
            return actions
        case .ownerChanged(let selection, let meaning, let display):
            switch meaning {
            case .ours:
                return []
            case .newOwner:
                return newSource(selection, on: display)
            case .cleared, .ownerGone:
                guard sources[selection]?.display == display else { return [] }
                sources[selection] = nil
                return [withdraw(selection, keeping: display), .report(.withdrawn(selection, from: names[display]))]
            }
        case .targetsRead(let selection, let display, let generation, let result):
            return targetsRead(selection, on: display, generation: generation, result)
        case .claimsEnded(let selection, let generation, let claimed, let announces):
            guard announces, let source = sources[selection], source.generation == generation, let targets = source.targets
            else { return [] }
            return [.report(.bridged(selection, from: names[source.display], to: claimed.map { names[$0] }, targets: targets))]
        }
    }

    /// Display `display`'s owner of `selection` becomes the source once its TARGETS are read. Until then the
    /// previous source stands, except on its own display: a new owner there means the old offer's content is
    /// gone, so its relays refuse from now on.
    private mutating func newSource(_ selection: SelectionName, on display: Int) -> [Action] {
        guard connected.contains(display) else { return [] }
        generation += 1
        latestChange[selection] = generation
        reading.insert(selection)
        if sources[selection]?.display == display { sources[selection]?.isStale = true }
        return [.readTargets(selection, display: display, generation: generation)]
    }

    private mutating func targetsRead(
        _ selection: SelectionName, on display: Int, generation current: UInt64, _ result: Result<[SelectionTarget], TargetsFailure>
    ) -> [Action] {
        guard latestChange[selection] == current else {
            supersededChange[selection] = display
            return []
        }
        reading.remove(selection)
        let targets: [SelectionTarget]
        switch result {
        case .success(let read):
            targets = read
        case .failure(let failure) where failure.ownClaimIsOwner:
            // Overtaken by our own claim there (another bridge's claim, then ours, under load): what we offer on
            // that display is current, and refusing would make its relays refuse.
            return [.report(.notBridged(selection, from: names[display], reason: "our own claim replaced it before its TARGETS were read"))]
                + takeUpSupersededChange(selection, after: current, on: display)
        case .failure(let failure):
            supersededChange[selection] = nil
            return refuse(selection, on: display, generation: current, reason: "its TARGETS could not be read: \(failure.reason)")
        }
        let plan = BridgePolicy.plan(for: targets, includeSensitive: includeSensitive)
        if case .skipBridged = plan {} else { supersededChange[selection] = nil }
        switch plan {
        case .skipBridged:
            // Another bridge's claim: left alone, as our own are. Only if it replaced our source's owner is the
            // content we offer gone.
            var actions: [Action] = [.report(.notBridged(selection, from: names[display], reason: "another bridge owns it (\(BridgePolicy.marker))"))]
            if sources[selection]?.display == display {
                sources[selection] = nil
                actions.append(withdraw(selection, keeping: display))
            }
            return actions + takeUpSupersededChange(selection, after: current, on: display)
        case .skipSensitive:
            return refuse(selection, on: display, generation: current, reason: "the content is marked sensitive (x-kde-passwordManagerHint)")
        case .offer(let bridged, let isSensitive):
            guard !bridged.isEmpty else {
                return refuse(selection, on: display, generation: current, reason: "it offers nothing that can cross displays")
            }
            let source = Source(display: display, generation: current, targets: bridged, isSensitive: isSensitive)
            sources[selection] = source
            return [.claim(selection, displays: connected.sorted().filter { $0 != display }, source: source, announces: true)]
        }
    }

    /// A change on another display that was dropped for this one, which brought no new content: that display's
    /// owner is looked at again (it may be the app's copy both bridges dropped for each other's claim).
    private mutating func takeUpSupersededChange(_ selection: SelectionName, after current: UInt64, on display: Int) -> [Action] {
        guard latestChange[selection] == current, let pending = supersededChange.removeValue(forKey: selection),
            pending != display
        else { return [] }
        return newSource(selection, on: pending)
    }

    /// The new owner is not bridged: it is the source of nothing, and the other displays stop offering the
    /// previous content.
    private mutating func refuse(_ selection: SelectionName, on display: Int, generation: UInt64, reason: String) -> [Action] {
        sources[selection] = Source(display: display, generation: generation, targets: nil)
        return [withdraw(selection, keeping: display), .report(.notBridged(selection, from: names[display], reason: reason))]
    }

    private func withdraw(_ selection: SelectionName, keeping display: Int) -> Action {
        .release(selection, displays: connected.sorted().filter { $0 != display })
    }
}
