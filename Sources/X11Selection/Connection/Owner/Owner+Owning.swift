import Logging
import FoundationEssentials
import Glibc

extension X11Connection {
    // MARK: Public owner API

    /// Claims `selection` with a real server timestamp, verifies the claim, and serves `offer` until
    /// another client takes the selection, `release` or `shutdown`.
    ///
    /// TARGETS answers exactly the servable targets in the offer's order plus the meta targets; TIMESTAMP
    /// answers the claim time; MULTIPLE, SAVE_TARGETS, DELETE and TARGET_SIZES are answered by the engine;
    /// unknown targets are refused. Payloads above the INCR threshold are sent incrementally, to any
    /// number of requestors at once. COMPOUND_TEXT and TEXT representations from `textRepresentations`
    /// are converted by Xlib now, and dropped if Xlib cannot convert them (so TARGETS never lies).
    ///
    /// - Throws: `.ownershipRefused` when the server did not make us the owner; `.timedOut` when the
    ///   server time could not be obtained; `.connectionLost`; `.shutDown`.
    public func claim(_ selection: SelectionName, offering offer: SelectionOffer) async throws -> SelectionLease {
        try await claim(selection, offering: offer, role: .content)
    }

    /// `claim(_:offering:)` for a content offer, or for a manager selection (`claimManager`).
    func claim(
        _ selection: SelectionName, offering offer: SelectionOffer, role: TargetTable.Role
    ) async throws -> SelectionLease {
        let display = try requireDisplay()
        let selectionAtom = try atom(for: selection.rawValue)
        var representations: [SelectionOffer.Representation] = []
        var converted: [Int: PropertyValue] = [:]
        var seen = Set<SelectionTarget>()
        for representation in offer.representations {
            // `representations` is a public var, so `SelectionOffer.init`'s rules may have been bypassed:
            // TARGETS must list each target once (the first wins), and meta targets are the engine's own.
            guard !representation.target.isMetaTarget, seen.insert(representation.target).inserted else {
                continue
            }
            if let encoding = representation.textEncoding, case .bytes(let utf8) = representation.source {
                guard let text = TextEncodings.fromUTF8(utf8),
                    let value = encodeWithoutXlib(text, encoding) ?? display.encodeText(
                        text, compoundTextOnly: encoding == .compoundText)
                else {
                    logger.info("\(selection):\(representation.target): Xlib cannot convert the text; not offered")
                    continue
                }
                converted[representations.count] = value
            }
            representations.append(representation)
        }
        var prepared = offer
        prepared.representations = representations
        let table = TargetTable(offer: prepared, role: role)
        let typeNames = representations.map { ($0.type ?? $0.target).rawValue }
        let advertised = try atoms(for: table.advertisedTargets.map(\.rawValue))
        let contentAtoms = Array(advertised.prefix(representations.count))
        var typeAtoms = try atoms(for: typeNames)
        for (index, value) in converted { typeAtoms[index] = value.type }

        let time: X11Timestamp
        if let adopted = owner.adoptedSelections.removeValue(forKey: selectionAtom) {
            // A PreparedClaim already owns it for us, since `adopted`.
            time = adopted
        } else if owner.lostAdoptions.remove(selectionAtom) != nil {
            refuseDeferredRequests(for: selectionAtom)
            throw SelectionError(
                .ownershipLost, "\(selection): another client took the selection before the offer was ready")
        } else {
            time = try await serverTime()
            let liveDisplay = try requireDisplay()
            liveDisplay.setSelectionOwner(selectionAtom, window, time: time)
            guard liveDisplay.selectionOwner(selectionAtom) == window else {
                throw SelectionError(
                    .ownershipRefused, "\(selection): the server did not make this client the owner (time \(time))")
            }
        }
        if let previous = owner.claimsBySelection[selectionAtom] {
            lose(previous, time: time)
        }
        // A long-lived owner may serve pastes nobody iterates the lease for: keep the newest events
        // only (`.lost`, always the last, is never the one dropped).
        let channel = LeaseEventChannel(limit: SelectionLeaseEvents.bufferLimit)
        let claim = Claim(
            id: nextID(), selection: selection, selectionAtom: selectionAtom, offer: prepared, role: role, time: time,
            events: channel, advertisedAtoms: advertised, contentAtoms: contentAtoms,
            typeAtoms: typeAtoms)
        for (index, representation) in representations.enumerated() {
            if let value = converted[index] {
                claim.produced[index] = value.bytes
            } else if case .bytes(let data) = representation.source {
                claim.produced[index] = data
            }
        }
        owner.claims[claim.id] = claim
        owner.claimsBySelection[selectionAtom] = claim
        logger.debug("\(selection): claimed at \(time) offering \(table.contentTargets)")
        // Requests that came while a PreparedClaim held the selection without an offer, in order.
        let held = owner.deferredRequests.filter { $0.selection == selectionAtom }
        owner.deferredRequests.removeAll { $0.selection == selectionAtom }
        for request in held { handleSelectionRequest(request) }
        return SelectionLease(
            selection: selection, timestamp: time, owner: window, events: SelectionLeaseEvents(channel: channel))
    }

    /// TEXT and COMPOUND_TEXT as Xlib would encode them, for the texts where that needs no Xlib: TEXT is
    /// STRING when every character is Latin-1 (XStdICCTextStyle), COMPOUND_TEXT is the Latin-1 bytes for
    /// printable Latin-1 text (see `TextEncodings.compoundTextWithoutXlib`). Nil: ask Xlib.
    private func encodeWithoutXlib(_ text: String, _ encoding: SelectionOffer.TextEncoding)
        -> PropertyValue?
    {
        let bytes: Data?
        let type: X11Atom
        switch encoding {
        case .compoundText:
            bytes = TextEncodings.compoundTextWithoutXlib(text)
            type = wellKnown.compoundText
        case .text:
            bytes = TextEncodings.latin1(text)
            type = wellKnown.string
        }
        guard let bytes else { return nil }
        return PropertyValue(type: type, format: 8, bytes: bytes, bytesAfter: 0, itemCount: bytes.count)
    }

    /// Gives up `selection` if this connection owns it (transfers in flight still finish, ICCCM 2.2).
    public func release(_ selection: SelectionName) async {
        guard let display = xdisplay, closedError == nil, let selectionAtom = try? atom(for: selection.rawValue)
        else { return }
        if let adopted = owner.adoptedSelections.removeValue(forKey: selectionAtom) {
            display.setSelectionOwner(selectionAtom, nil, time: adopted)
            refuseDeferredRequests(for: selectionAtom)
        }
        guard let claim = owner.claimsBySelection[selectionAtom] else { return }
        releaseClaim(claim)
    }

    /// Gives up the selection `claim` owns.
    func releaseClaim(_ claim: Claim) {
        // With the claim's own time, so a newer owner (whose claim we have not heard of yet) is untouched.
        xdisplay?.setSelectionOwner(claim.selectionAtom, nil, time: claim.time)
        lose(claim, time: nil)
    }

    /// Ownership of `claim` ended: report it; the lease finishes once its transfers in flight end.
    func lose(_ claim: Claim, time: X11Timestamp?) {
        guard claim.isOwner else { return }
        claim.isOwner = false
        if owner.claimsBySelection[claim.selectionAtom] === claim {
            owner.claimsBySelection[claim.selectionAtom] = nil
        }
        report(.lost(time), on: claim)
        retireIfDone(claim)
    }

    /// Reports `event` on `claim`'s lease; a `.served` is batched (`Claim.servedWindow`).
    func report(_ event: SelectionLeaseEvent, on claim: Claim) {
        if claim.report(event) {
            deadlines.arm(.owner(.leaseEvents(claimID: claim.id)), at: .now + claim.servedWindow)
        }
    }

    func retireIfDone(_ claim: Claim) {
        claim.finishIfDone()
        if !claim.isOwner && claim.transfersInFlight == 0 {
            owner.claims[claim.id] = nil
        }
    }

    func handleSelectionClear(selection: X11Atom, time: X11Timestamp) {
        if let adopted = owner.adoptedSelections[selection], SelectionClearRule.endsAdoption(clearedAt: time, adoptedAt: adopted) {
            owner.adoptedSelections[selection] = nil
            owner.lostAdoptions.insert(selection)
            refuseDeferredRequests(for: selection)
        }
        guard let claim = owner.claimsBySelection[selection] else { return }
        switch SelectionClearRule.verdict(clearedAt: time, claimedAt: claim.time) {
        case .ignore:
            return
        case .askServer:
            if let display = xdisplay, display.selectionOwner(selection) == window {
                logger.debug("\(claim.selection): a clear at \(time) for an earlier claim, ignored (still the owner)")
                return
            }
        case .lost:
            break
        }
        logger.debug("\(claim.selection): lost at \(time)")
        lose(claim, time: time)
    }
}
