import Logging
import FoundationEssentials
import Glibc

/// Claims, isolated to the connection: taking a selection with a real server time and verifying it, giving it
/// up, losing it (a SelectionClear, ICCCM 2.2), and the events of each claim's lease. The public API is
/// `X11Connection+Owning.swift`'s.
extension Owner {
    /// `claim(_:offering:)` for a content offer, or for a manager selection (`claimManager`).
    func claim(
        _ selection: SelectionName, offering offer: SelectionOffer, role: TargetTable.Role, at givenTime: X11Timestamp? = nil,
        on connection: isolated X11Connection
    ) async throws -> SelectionLease {
        let display = try connection.requireDisplay()
        let selectionAtom = try connection.atom(for: selection.rawValue)
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
                    let value = encodeWithoutXlib(text, encoding, on: connection) ?? display.encodeText(
                        text, compoundTextOnly: encoding == .compoundText)
                else {
                    connection.logger.info(
                        "\(selection):\(representation.target): Xlib cannot convert the text; not offered")
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
        let advertised = try connection.atoms(for: table.advertisedTargets.map(\.rawValue))
        let contentAtoms = Array(advertised.prefix(representations.count))
        var typeAtoms = try connection.atoms(for: typeNames)
        for (index, value) in converted { typeAtoms[index] = value.type }

        let time: X11Timestamp
        if let adopted = adoptedSelections.removeValue(forKey: selectionAtom) {
            // A PreparedClaim already owns it for us, since `adopted`.
            time = adopted
        } else if lostAdoptions.remove(selectionAtom) != nil {
            refuseDeferredRequests(for: selectionAtom, on: connection)
            throw SelectionError(
                .ownershipLost, "\(selection): another client took the selection before the offer was ready")
        } else {
            if let givenTime { time = givenTime } else { time = try await serverTime(on: connection) }
            let liveDisplay = try connection.requireDisplay()
            liveDisplay.setSelectionOwner(selectionAtom, connection.window, time: time)
            guard liveDisplay.selectionOwner(selectionAtom) == connection.window else {
                throw SelectionError(
                    .ownershipRefused, "\(selection): the server did not make this client the owner (time \(time))")
            }
        }
        if let previous = claimsBySelection[selectionAtom] {
            lose(previous, time: time, on: connection)
        }
        // A long-lived owner may serve pastes nobody iterates the lease for: keep the newest events
        // only (`.lost`, always the last, is never the one dropped).
        let channel = LeaseEventChannel(limit: SelectionLeaseEvents.bufferLimit)
        let claim = Claim(
            id: ids.next(), selection: selection, selectionAtom: selectionAtom, offer: prepared, role: role,
            time: time, events: channel, advertisedAtoms: advertised, contentAtoms: contentAtoms,
            typeAtoms: typeAtoms)
        for (index, representation) in representations.enumerated() {
            if let value = converted[index] {
                claim.produced[index] = value.bytes
            } else if case .bytes(let data) = representation.source {
                claim.produced[index] = data
            }
        }
        claims[claim.id] = claim
        claimsBySelection[selectionAtom] = claim
        connection.logger.debug("\(selection): claimed at \(time) offering \(table.contentTargets)")
        // Requests that came while a PreparedClaim held the selection without an offer, in order.
        let held = deferredRequests.filter { $0.selection == selectionAtom }
        deferredRequests.removeAll { $0.selection == selectionAtom }
        for request in held { handleSelectionRequest(request, on: connection) }
        return SelectionLease(
            selection: selection, timestamp: time, owner: connection.window,
            events: SelectionLeaseEvents(channel: channel))
    }

    /// TEXT and COMPOUND_TEXT as Xlib would encode them, for the texts where that needs no Xlib: TEXT is
    /// STRING when every character is Latin-1 (XStdICCTextStyle), COMPOUND_TEXT is the Latin-1 bytes for
    /// printable Latin-1 text (see `TextEncodings.compoundTextWithoutXlib`). Nil: ask Xlib.
    private func encodeWithoutXlib(
        _ text: String, _ encoding: SelectionOffer.TextEncoding, on connection: isolated X11Connection
    ) -> PropertyValue? {
        let bytes: Data?
        let type: X11Atom
        switch encoding {
        case .compoundText:
            bytes = TextEncodings.compoundTextWithoutXlib(text)
            type = connection.wellKnown.compoundText
        case .text:
            bytes = TextEncodings.latin1(text)
            type = connection.wellKnown.string
        }
        guard let bytes else { return nil }
        return PropertyValue(type: type, format: 8, bytes: bytes, bytesAfter: 0, itemCount: bytes.count)
    }

    /// Gives up `selection` if this connection owns it (transfers in flight still finish, ICCCM 2.2).
    func release(_ selection: SelectionName, on connection: isolated X11Connection) {
        guard let display = connection.xdisplay, connection.closedError == nil,
            let selectionAtom = try? connection.atom(for: selection.rawValue)
        else { return }
        if let adopted = adoptedSelections.removeValue(forKey: selectionAtom) {
            display.setSelectionOwner(selectionAtom, nil, time: adopted)
            refuseDeferredRequests(for: selectionAtom, on: connection)
        }
        guard let claim = claimsBySelection[selectionAtom] else { return }
        releaseClaim(claim, on: connection)
    }

    /// Gives up the selection `claim` owns.
    func releaseClaim(_ claim: Claim, on connection: isolated X11Connection) {
        // With the claim's own time, so a newer owner (whose claim we have not heard of yet) is untouched.
        connection.xdisplay?.setSelectionOwner(claim.selectionAtom, nil, time: claim.time)
        lose(claim, time: nil, on: connection)
    }

    /// Ownership of `claim` ended: report it; the lease finishes once its transfers in flight end.
    func lose(_ claim: Claim, time: X11Timestamp?, on connection: isolated X11Connection) {
        guard claim.isOwner else { return }
        claim.isOwner = false
        if claimsBySelection[claim.selectionAtom] === claim {
            claimsBySelection[claim.selectionAtom] = nil
        }
        report(.lost(time), to: claim, on: connection)
        retireIfDone(claim)
    }

    /// Reports `event` on `claim`'s lease; a `.served` is batched (`Claim.servedWindow`).
    func report(_ event: SelectionLeaseEvent, to claim: Claim, on connection: isolated X11Connection) {
        if claim.report(event) {
            connection.deadlines.arm(.owner(.leaseEvents(claimID: claim.id)), at: .now + claim.servedWindow)
        }
    }

    func retireIfDone(_ claim: Claim) {
        claim.finishIfDone()
        if !claim.isOwner && claim.transfersInFlight == 0 {
            claims[claim.id] = nil
        }
    }

    func handleSelectionClear(selection: X11Atom, time: X11Timestamp, on connection: isolated X11Connection) {
        if let adopted = adoptedSelections[selection],
            SelectionClearRule.endsAdoption(clearedAt: time, adoptedAt: adopted)
        {
            adoptedSelections[selection] = nil
            lostAdoptions.insert(selection)
            refuseDeferredRequests(for: selection, on: connection)
        }
        guard let claim = claimsBySelection[selection] else { return }
        switch SelectionClearRule.verdict(clearedAt: time, claimedAt: claim.time) {
        case .ignore:
            return
        case .askServer:
            if let display = connection.xdisplay, display.selectionOwner(selection) == connection.window {
                connection.logger.debug(
                    "\(claim.selection): a clear at \(time) for an earlier claim, ignored (still the owner)")
                return
            }
        case .lost:
            break
        }
        connection.logger.debug("\(claim.selection): lost at \(time)")
        lose(claim, time: time, on: connection)
    }
}
