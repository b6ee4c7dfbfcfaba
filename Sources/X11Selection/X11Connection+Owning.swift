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
        let table = TargetTable(offer: prepared)
        let typeNames = representations.map { ($0.type ?? $0.target).rawValue }
        let advertised = try atoms(for: table.advertisedTargets.map(\.rawValue))
        let contentAtoms = Array(advertised.prefix(representations.count))
        var typeAtoms = try atoms(for: typeNames)
        for (index, value) in converted { typeAtoms[index] = value.type }

        let time: X11Timestamp
        if let adopted = adoptedSelections.removeValue(forKey: selectionAtom) {
            // A PreparedClaim already owns it for us, since `adopted`.
            time = adopted
        } else if lostAdoptions.remove(selectionAtom) != nil {
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
        if let previous = claimsBySelection[selectionAtom] {
            lose(previous, time: time)
        }
        // A long-lived owner may serve pastes nobody iterates the lease for: keep the newest events
        // only (`.lost`, always the last, is never the one dropped).
        let channel = LeaseEventChannel(limit: SelectionLeaseEvents.bufferLimit)
        let claim = Claim(
            id: nextID(), selection: selection, selectionAtom: selectionAtom, offer: prepared, time: time,
            events: channel, advertisedAtoms: advertised, contentAtoms: contentAtoms,
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
        logger.debug("\(selection): claimed at \(time) offering \(table.contentTargets)")
        // Requests that came while a PreparedClaim held the selection without an offer, in order.
        let held = deferredRequests.filter { $0.selection == selectionAtom }
        deferredRequests.removeAll { $0.selection == selectionAtom }
        for request in held { handleSelectionRequest(request) }
        return SelectionLease(selection: selection, timestamp: time, events: SelectionLeaseEvents(channel: channel))
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
        if let adopted = adoptedSelections.removeValue(forKey: selectionAtom) {
            display.setSelectionOwner(selectionAtom, nil, time: adopted)
            refuseDeferredRequests(for: selectionAtom)
        }
        guard let claim = claimsBySelection[selectionAtom] else { return }
        // With the claim's own time, so a newer owner (whose claim we have not heard of yet) is untouched.
        display.setSelectionOwner(selectionAtom, nil, time: claim.time)
        lose(claim, time: nil)
    }

    /// Ownership of `claim` ended: report it; the lease finishes once its transfers in flight end.
    func lose(_ claim: Claim, time: X11Timestamp?) {
        guard claim.isOwner else { return }
        claim.isOwner = false
        if claimsBySelection[claim.selectionAtom] === claim {
            claimsBySelection[claim.selectionAtom] = nil
        }
        report(.lost(time), on: claim)
        retireIfDone(claim)
    }

    /// Reports `event` on `claim`'s lease; a `.served` is batched (`Claim.servedWindow`).
    func report(_ event: SelectionLeaseEvent, on claim: Claim) {
        if claim.report(event) {
            deadlines.arm(.leaseEvents(claimID: claim.id), at: .now + claim.servedWindow)
        }
    }

    private func retireIfDone(_ claim: Claim) {
        claim.finishIfDone()
        if !claim.isOwner && claim.transfersInFlight == 0 {
            claims[claim.id] = nil
        }
    }

    func handleSelectionClear(selection: X11Atom, time: X11Timestamp) {
        if let adopted = adoptedSelections[selection], time == .currentTime || time >= adopted {
            adoptedSelections[selection] = nil
            lostAdoptions.insert(selection)
            refuseDeferredRequests(for: selection)
        }
        guard let claim = claimsBySelection[selection] else { return }
        // A clear older than our claim belongs to an earlier claim of ours (GTK ignores those too).
        if time != .currentTime && time < claim.time { return }
        logger.debug("\(claim.selection): lost at \(time)")
        lose(claim, time: time)
    }

    // MARK: Requests

    func handleSelectionRequest(_ request: X11Event.SelectionRequest) {
        // ICCCM 2.2: obsolete requestors send property None; then the target name is the property.
        let property = request.property.isNone ? request.target : request.property
        let route = ReplyRoute.direct(request, property: property)
        if claimsBySelection[request.selection] == nil, adoptedSelections[request.selection] != nil {
            // Owned through a PreparedClaim whose offer `claim` has not supplied yet: hold it.
            deferredRequests.append(request)
            return
        }
        guard let claim = claimsBySelection[request.selection], claim.isOwner else {
            replied(route, success: false)
            return
        }
        // ICCCM 2.2: refuse requests whose time predates our ownership (CurrentTime is always accepted).
        if request.time != .currentTime && request.time < claim.time {
            logger.debug("\(claim.selection): refusing a request from before our claim (\(request.time))")
            replied(route, success: false)
            return
        }
        // The cache answers every request after the first for a target, without building arrays.
        guard let name = atoms.cachedName(request.target) ?? (try? names(for: [request.target]))?.first ?? nil else {
            replied(route, success: false)
            return
        }
        let target = SelectionTarget(rawValue: name)
        if target == .multiple && request.property.isNone {
            replied(route, success: false)
            return
        }
        answer(target, claim: claim, route: route, insideMultiple: false, time: request.time)
    }

    /// Refuses the held requests for `selection` (its adoption ended without an offer).
    func refuseDeferredRequests(for selection: X11Atom) {
        let held = deferredRequests.filter { $0.selection == selection }
        deferredRequests.removeAll { $0.selection == selection }
        for request in held {
            let property = request.property.isNone ? request.target : request.property
            replied(.direct(request, property: property), success: false)
        }
    }

    private func answer(
        _ target: SelectionTarget, claim: Claim, route: ReplyRoute, insideMultiple: Bool, time: X11Timestamp
    ) {
        guard let display = xdisplay else { return }
        let requestor = route.requestor
        let property = route.property
        switch claim.table.answer(for: target, insideMultiple: insideMultiple) {
        case .targets:
            display.changeProperty32(
                requestor, property, type: wellKnown.atom, values: claim.advertisedAtoms.map(\.rawValue))
            replied(route, success: true)
        case .timestamp:
            display.changeProperty32(requestor, property, type: wellKnown.integer, values: [claim.time.rawValue])
            replied(route, success: true)
        case .multiple:
            serveMultiple(claim: claim, route: route, time: time)
        case .saveTargets:
            // A side-effect target with nothing to do on the owner side (ICCCM 2.6.3: reply NULL).
            writeNull(requestor, property)
            replied(route, success: true)
        case .delete:
            writeNull(requestor, property)
            replied(route, success: true)
            // ICCCM 2.6.3.1: the owner deletes the selection's value; for us that is giving it up.
            display.setSelectionOwner(claim.selectionAtom, nil, time: claim.time)
            lose(claim, time: time == .currentTime ? nil : time)
        case .targetSizes:
            var sizes: [(atom: X11Atom, size: Int?)] = []
            for (index, representation) in claim.offer.representations.enumerated() {
                sizes.append((claim.contentAtoms[index], knownSize(of: representation, index: index, claim: claim)))
            }
            display.changeProperty32(
                requestor, property, type: wellKnown.integer, values: TargetTable.targetSizeItems(sizes))
            replied(route, success: true)
        case .content(let index):
            serveContent(claim: claim, index: index, route: route)
        case .refuse:
            replied(route, success: false)
        }
    }

    private func writeNull(_ requestor: X11Window, _ property: X11Atom) {
        xdisplay?.changeProperty(
            requestor, property, type: wellKnown.null, format: 8, bytes: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    private func knownSize(of representation: SelectionOffer.Representation, index: Int, claim: Claim) -> Int? {
        if let data = claim.produced[index] { return data.count }
        if case .file(let url) = representation.source {
            var info = stat()
            if stat(url.path, &info) == 0 { return Int(info.st_size) }
        }
        return nil
    }

    /// The conversion for `route` is written (or refused): notify, or count it towards its MULTIPLE.
    func replied(_ route: ReplyRoute, success: Bool) {
        switch route {
        case .direct(let request, let property):
            xdisplay?.sendSelectionNotify(
                requestor: request.requestor, selection: request.selection, target: request.target,
                property: success ? property : .none, time: request.time)
            // Not flushed here: the loop flushes once at the end of its turn, as the last thing before it
            // sleeps. Writing to the X server wakes it with a "sync" wake-up (unix sockets), which puts it on
            // this CPU expecting the writer to sleep at once; work done after the write (lease bookkeeping,
            // deadlines) then delays the server on its way to the requestor, or gets this thread preempted
            // mid-turn. Measured with syscall tracepoints on a 2-CPU VM: the C owner sleeps 2 µs after its
            // write, this loop used to take a median 49 µs.
        case .multiple(let id, let index, _, _):
            // Mutated in place: copying the request out and back would copy its pairs once per pair, quadratic
            // in a peer-chosen count.
            guard multiples[id]?.request.complete(index, success: success) == true else { return }
            finishMultiple(id)
        }
    }

    // MARK: MULTIPLE (ICCCM 2.6.2)

    private func serveMultiple(claim: Claim, route: ReplyRoute, time: X11Timestamp) {
        guard case .direct(let request, let property) = route, let display = xdisplay else {
            replied(route, success: false)
            return
        }
        // At most `MultipleRequest.maximumPairs` pairs are read: the parameter property's size is the
        // requestor's choice, and a larger request is refused before any of it is converted.
        guard let parameters = display.getProperty(
            request.requestor, property, delete: false, offset: 0, length: MultipleRequest.maximumPairs * 8),
            parameters.exists, parameters.format == 32, parameters.bytesAfter == 0
        else {
            logger.debug("\(claim.selection): refusing a MULTIPLE request that is missing, malformed or too large")
            replied(route, success: false)
            return
        }
        var multiple = MultipleRequest(items: Format32.values(parameters.bytes))
        let rejected = Set(multiple.rejectInvalid(multipleAtom: wellKnown.multiple))
        let id = nextID()
        multiples[id] = PendingMultiple(
            request: multiple, claimID: claim.id, requestor: request.requestor, property: property,
            selection: request.selection, time: request.time)
        if multiple.isComplete {
            finishMultiple(id)
            return
        }
        let targetNames = (try? names(for: multiple.pairs.map(\.target))) ?? []
        for (index, pair) in multiple.pairs.enumerated() where !rejected.contains(index) {
            let pairRoute = ReplyRoute.multiple(id: id, index: index, requestor: request.requestor, property: pair.property)
            guard index < targetNames.count, let name = targetNames[index] else {
                replied(pairRoute, success: false)
                continue
            }
            answer(SelectionTarget(rawValue: name), claim: claim, route: pairRoute, insideMultiple: true, time: time)
        }
    }

    private func finishMultiple(_ id: UInt64) {
        guard let pending = multiples.removeValue(forKey: id), let display = xdisplay else { return }
        display.changeProperty32(
            pending.requestor, pending.property, type: wellKnown.atomPair, values: pending.request.writeBackItems)
        display.sendSelectionNotify(
            requestor: pending.requestor, selection: pending.selection, target: wellKnown.multiple,
            property: pending.property, time: pending.time)
        display.flush()
        // INCR pairs could not start before this notify: their idle clocks start now, not when their
        // headers were written (a slow provider for another pair must not time them out).
        for pair in pending.request.pairs {
            let key = TransferKey(requestor: pending.requestor, property: pair.property)
            if outgoing[key] != nil {
                deadlines.arm(.outgoing(key), at: .now + configuration.incrementalIdleTimeout)
            }
        }
    }

    // MARK: Content

    private func serveContent(claim: Claim, index: Int, route: ReplyRoute) {
        let representation = claim.offer.representations[index]
        if let data = claim.produced[index] {
            deliver(.bytes(data), claim: claim, index: index, route: route)
            return
        }
        switch representation.source {
        case .bytes(let data):
            deliver(.bytes(data), claim: claim, index: index, route: route)
        case .file(let url):
            switch openPayload(url) {
            case .success(let payload):
                deliver(payload, claim: claim, index: index, route: route)
            case .failure(let error):
                report(.failed(target: representation.target, requestor: route.requestor, reason: error.message), on: claim)
                replied(route, success: false)
            }
        case .provider(let provider):
            if claim.producing[index] != nil {
                claim.producing[index]!.append(route)
                return
            }
            claim.producing[index] = [route]
            // Counted as in flight so the claim (and its lease) outlives a loss while the provider runs:
            // requests made while we owned the selection are still answered (ICCCM 2.2).
            claim.transfersInFlight += 1
            let claimID = claim.id
            let context = "\(claim.selection):\(representation.target)"
            Task {
                let result: Result<Data, SelectionError>
                do {
                    result = .success(try await provider())
                } catch {
                    result = .failure(SelectionError(.invalidReply, "\(context): the data provider failed: \(error)"))
                }
                self.produced(claimID: claimID, index: index, result: result)
            }
        }
    }

    private func produced(claimID: UInt64, index: Int, result: Result<Data, SelectionError>) {
        guard let claim = claims[claimID] else { return }
        if case .success(let data) = result { claim.produced[index] = data }
        let routes = claim.producing.removeValue(forKey: index) ?? []
        claim.transfersInFlight -= 1
        defer { retireIfDone(claim) }
        guard closedError == nil else { return }
        let target = claim.offer.representations[index].target
        for route in routes {
            switch result {
            case .success(let data):
                deliver(.bytes(data), claim: claim, index: index, route: route)
            case .failure(let error):
                report(.failed(target: target, requestor: route.requestor, reason: error.message), on: claim)
                replied(route, success: false)
            }
        }
    }

    /// Opens a file source: small files are read whole, large ones streamed chunk by chunk with `pread`.
    private func openPayload(_ url: URL) -> Result<Payload, SelectionError> {
        let descriptor = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(SelectionError(.invalidReply, "cannot open \(url.path): errno \(errno)"))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            _ = Glibc.close(descriptor)
            return .failure(SelectionError(.invalidReply, "cannot stat \(url.path): errno \(errno)"))
        }
        let size = Int(info.st_size)
        let payload = Payload.file(descriptor: descriptor, size: size)
        if size > incrementalThreshold { return .success(payload) }
        defer { payload.close() }
        guard let data = payload.slice(offset: 0, length: size) else {
            return .failure(SelectionError(.invalidReply, "cannot read \(url.path)"))
        }
        return .success(.bytes(data))
    }

    /// Writes the payload into the requestor's property: whole when small, INCR above the threshold.
    func deliver(_ payload: Payload, claim: Claim, index: Int, route: ReplyRoute) {
        guard let display = xdisplay, closedError == nil else {
            payload.close()
            return
        }
        let representation = claim.offer.representations[index]
        let type = claim.typeAtoms[index]
        let format = representation.format == 16 || representation.format == 32 ? representation.format : 8
        let requestor = route.requestor
        let property = route.property
        if payload.size <= incrementalThreshold, case .bytes(let data) = payload {
            writeChunk(data, to: requestor, property, type: type, format: format)
            replied(route, success: true)
            report(.served(target: representation.target, requestor: requestor, byteCount: data.count), on: claim)
            return
        }
        let key = TransferKey(requestor: requestor, property: property)
        if let existing = outgoing[key] {
            // ICCCM forbids reusing a property mid-transfer; a requestor that does has given up on the old one.
            endTransfer(existing, served: false, reason: "replaced by a new request for the same property")
        }
        let transfer = OutgoingTransfer(
            key: key, claimID: claim.id, target: representation.target, type: type, format: format,
            payload: payload, chunkSize: configuration.chunkSize,
            maximumChunkSize: min(configuration.maximumChunkSize, incrementalThreshold))
        watchRequestor(requestor)
        display.changeProperty32(requestor, property, type: wellKnown.incr, values: [transfer.sender.announcedSize])
        outgoing[key] = transfer
        claim.transfersInFlight += 1
        handoverTransferStarted(claimID: claim.id)
        if case .multiple = route {
            // The requestor cannot start before the MULTIPLE's notify, which waits for every pair (maybe a
            // slow provider): allow for that here; `finishMultiple` starts the idle clock proper.
            deadlines.arm(
                .outgoing(key), at: .now + configuration.readTimeout + configuration.incrementalIdleTimeout)
        } else {
            deadlines.arm(.outgoing(key), at: .now + configuration.incrementalIdleTimeout)
        }
        replied(route, success: true)
        logger.trace("\(claim.selection):\(representation.target): INCR of \(payload.size) bytes to \(requestor)")
    }

    private func writeChunk(_ data: Data, to requestor: X11Window, _ property: X11Atom, type: X11Atom, format: Int) {
        guard let display = xdisplay else { return }
        if format == 32 {
            display.changeProperty32(requestor, property, type: type, values: Format32.values(data))
        } else {
            data.withUnsafeBytes { display.changeProperty(requestor, property, type: type, format: format, bytes: $0) }
        }
    }

    // MARK: INCR sending (ICCCM 2.7.2)

    /// A requestor deleted a property: if it is one of our INCR transfers, send the next chunk.
    func handleRequestorPropertyDeleted(_ key: TransferKey) {
        guard let transfer = outgoing[key] else { return }
        let now = ContinuousClock.now
        let elapsed = transfer.chunkWrittenAt.map { $0.duration(to: now) }
        switch transfer.sender.propertyDeleted(after: elapsed) {
        case .sendChunk(let offset, let length):
            transfer.chunkWrittenAt = now
            guard let chunk = transfer.payload.slice(offset: offset, length: length) else {
                // The file shrank or failed: end the transfer cleanly with what was sent.
                transfer.sender.truncate()
                writeChunk(Data(), to: key.requestor, key.property, type: transfer.type, format: transfer.format)
                endTransfer(transfer, served: false, reason: "the source file could not be read to its end")
                return
            }
            writeChunk(chunk, to: key.requestor, key.property, type: transfer.type, format: transfer.format)
            deadlines.arm(.outgoing(key), at: .now + configuration.incrementalIdleTimeout)
        case .sendEnd:
            writeChunk(Data(), to: key.requestor, key.property, type: transfer.type, format: transfer.format)
            endTransfer(transfer, served: true, reason: "")
        case .none:
            break
        }
    }

    /// Ends an INCR transfer: frees it, stops watching the requestor, reports it on the lease.
    func endTransfer(_ transfer: OutgoingTransfer, served: Bool, reason: String) {
        guard outgoing[transfer.key] === transfer else { return }
        outgoing[transfer.key] = nil
        deadlines.cancel(.outgoing(transfer.key))
        transfer.payload.close()
        unwatchRequestor(transfer.key.requestor)
        if !served {
            logger.info("\(transfer.target): transfer to \(transfer.key.requestor) dropped: \(reason)")
        }
        if let claim = claims[transfer.claimID] {
            claim.transfersInFlight -= 1
            report(
                served
                    ? .served(target: transfer.target, requestor: transfer.key.requestor, byteCount: transfer.payload.size)
                    : .failed(target: transfer.target, requestor: transfer.key.requestor, reason: reason),
                on: claim)
            retireIfDone(claim)
        }
        handoverTransferEnded(claimID: transfer.claimID, served: served)
    }

    /// Drops every transfer to `requestor` (its window was destroyed or vanished).
    func dropTransfers(to requestor: X11Window, reason: String) {
        let doomed = outgoing.values.filter { $0.key.requestor == requestor }
        guard !doomed.isEmpty else { return }
        // The window is gone: do not try to change its event mask afterwards.
        windowInterests.forget(requestor)
        for transfer in doomed {
            endTransfer(transfer, served: false, reason: reason)
        }
    }

    private func watchRequestor(_ requestor: X11Window) {
        if requestor != window { watchWindow(requestor, as: .requestor) }
    }

    private func unwatchRequestor(_ requestor: X11Window) {
        if requestor != window { unwatchWindow(requestor, as: .requestor) }
    }
}
