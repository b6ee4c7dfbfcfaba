import Logging
import FoundationEssentials
import Glibc

/// The owner answering requests, isolated to the connection: `SelectionRequestPolicy` decides, this carries it
/// out — TARGETS, TIMESTAMP, the side-effect targets, MULTIPLE (ICCCM 2.6.2) and content, whole or as the start
/// of an INCR transfer.
extension Owner {
    // MARK: Requests

    func handleSelectionRequest(_ request: X11Event.SelectionRequest, on connection: isolated X11Connection) {
        let holding: SelectionRequestPolicy.Holding
        let claim = claimsBySelection[request.selection].flatMap { $0.isOwner ? $0 : nil }
        if let claim {
            holding = .claim(time: claim.time, table: claim.table)
        } else if adoptedSelections[request.selection] != nil {
            holding = .adoptedWithoutOffer
        } else {
            holding = .nothing
        }
        // The cache answers every request after the first for a target, without building arrays; the name is
        // only needed when there is a claim to serve.
        var name: String?
        if claim != nil {
            name = connection.atoms.cachedName(request.target)
                ?? (try? connection.names(for: [request.target]))?.first ?? nil
        }
        let decision = SelectionRequestPolicy.decide(
            target: request.target, property: request.property, time: request.time,
            targetName: name.map(SelectionTarget.init(rawValue:)), holding: holding)
        let property = SelectionRequestPolicy.replyProperty(target: request.target, property: request.property)
        switch decision {
        case .hold:
            deferredRequests.append(request)
        case .refuse(let refusal):
            if let claim, refusal != .notOffered {
                connection.logger.debug("\(claim.selection): refusing a request (\(refusal), time \(request.time))")
            }
            replied(.direct(request, property: property), success: false, on: connection)
        case .answer(let answer, let property):
            guard let claim else { return }
            serve(answer, claim: claim, route: .direct(request, property: property), time: request.time, on: connection)
        }
    }

    /// Refuses the held requests for `selection` (its adoption ended without an offer).
    func refuseDeferredRequests(for selection: X11Atom, on connection: isolated X11Connection) {
        let held = deferredRequests.filter { $0.selection == selection }
        deferredRequests.removeAll { $0.selection == selection }
        for request in held {
            let property = request.property.isNone ? request.target : request.property
            replied(.direct(request, property: property), success: false, on: connection)
        }
    }

    /// Carries out the answer to one conversion (a request's, or a pair of a MULTIPLE).
    private func serve(
        _ answer: TargetTable.Answer, claim: Claim, route: ReplyRoute, time: X11Timestamp,
        on connection: isolated X11Connection
    ) {
        guard let display = connection.xdisplay else { return }
        let wellKnown = connection.wellKnown
        let requestor = route.requestor
        let property = route.property
        switch answer {
        case .targets:
            display.changeProperty32(
                requestor, property, type: wellKnown.atom, values: claim.advertisedAtoms.map(\.rawValue))
            replied(route, success: true, on: connection)
        case .timestamp:
            display.changeProperty32(requestor, property, type: wellKnown.integer, values: [claim.time.rawValue])
            replied(route, success: true, on: connection)
        case .multiple:
            serveMultiple(claim: claim, route: route, time: time, on: connection)
        case .saveTargets:
            // A side-effect target with nothing to do on the owner side (ICCCM 2.6.3: reply NULL).
            writeNull(requestor, property, on: connection)
            replied(route, success: true, on: connection)
        case .saveTargetsRequest:
            connection.requestSave(claim: claim, route: route)
        case .delete:
            writeNull(requestor, property, on: connection)
            replied(route, success: true, on: connection)
            // ICCCM 2.6.3.1: the owner deletes the selection's value; for us that is giving it up.
            display.setSelectionOwner(claim.selectionAtom, nil, time: claim.time)
            lose(claim, time: time == .currentTime ? nil : time, on: connection)
        case .targetSizes:
            var sizes: [(atom: X11Atom, size: Int?)] = []
            for (index, representation) in claim.offer.representations.enumerated() {
                sizes.append((claim.contentAtoms[index], knownSize(of: representation, index: index, claim: claim)))
            }
            display.changeProperty32(
                requestor, property, type: wellKnown.integer, values: TargetTable.targetSizeItems(sizes))
            replied(route, success: true, on: connection)
        case .content(let index):
            serveContent(claim: claim, index: index, route: route, on: connection)
        case .refuse:
            replied(route, success: false, on: connection)
        }
    }

    private func writeNull(_ requestor: X11Window, _ property: X11Atom, on connection: isolated X11Connection) {
        connection.xdisplay?.changeProperty(
            requestor, property, type: connection.wellKnown.null, format: 8,
            bytes: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    private func knownSize(of representation: SelectionOffer.Representation, index: Int, claim: Claim) -> Int? {
        if let data = claim.produced[index] { return data.count }
        switch representation.source {
        case .file(let url):
            var info = stat()
            if stat(url.path, &info) == 0 { return Int(info.st_size) }
        case .openedFile(let file):
            return file.size
        default:
            break
        }
        return nil
    }

    /// The conversion for `route` is written (or refused): notify, or count it towards its MULTIPLE.
    func replied(_ route: ReplyRoute, success: Bool, on connection: isolated X11Connection) {
        switch route {
        case .direct(let request, let property):
            connection.xdisplay?.sendSelectionNotify(
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
            finishMultiple(id, on: connection)
        }
    }

    // MARK: MULTIPLE (ICCCM 2.6.2)

    private func serveMultiple(claim: Claim, route: ReplyRoute, time: X11Timestamp, on connection: isolated X11Connection) {
        guard case .direct(let request, let property) = route, let display = connection.xdisplay else {
            replied(route, success: false, on: connection)
            return
        }
        // At most `MultipleRequest.maximumPairs` pairs are read: the parameter property's size is the
        // requestor's choice, and a larger request is refused before any of it is converted.
        guard let parameters = display.getProperty(
            request.requestor, property, delete: false, offset: 0, length: MultipleRequest.maximumPairs * 8),
            parameters.exists, parameters.format == 32, parameters.bytesAfter == 0
        else {
            connection.logger.debug(
                "\(claim.selection): refusing a MULTIPLE request that is missing, malformed or too large")
            replied(route, success: false, on: connection)
            return
        }
        var multiple = MultipleRequest(items: Format32.values(parameters.bytes))
        let rejected = Set(multiple.rejectInvalid(multipleAtom: connection.wellKnown.multiple))
        let id = ids.next()
        multiples[id] = PendingMultiple(
            request: multiple, claimID: claim.id, requestor: request.requestor, property: property,
            selection: request.selection, time: request.time)
        if multiple.isComplete {
            finishMultiple(id, on: connection)
            return
        }
        let targetNames = (try? connection.names(for: multiple.pairs.map(\.target))) ?? []
        for (index, pair) in multiple.pairs.enumerated() where !rejected.contains(index) {
            let pairRoute = ReplyRoute.multiple(id: id, index: index, requestor: request.requestor, property: pair.property)
            guard index < targetNames.count, let name = targetNames[index] else {
                replied(pairRoute, success: false, on: connection)
                continue
            }
            serve(claim.table.answer(for: SelectionTarget(rawValue: name), insideMultiple: true), claim: claim,
                  route: pairRoute, time: time, on: connection)
        }
    }

    private func finishMultiple(_ id: UInt64, on connection: isolated X11Connection) {
        guard let pending = multiples.removeValue(forKey: id), let display = connection.xdisplay else { return }
        let wellKnown = connection.wellKnown
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
                connection.deadlines.arm(
                    .owner(.outgoing(key)), at: .now + connection.configuration.incrementalIdleTimeout)
            } else if let id = relayKeys[key], let relay = relays[id], relay.sender.awaitsRequestor {
                connection.deadlines.arm(.owner(.relay(id)), at: .now + connection.configuration.incrementalIdleTimeout)
            }
        }
    }

    // MARK: Content

    private func serveFile(_ url: URL, claim: Claim, index: Int, route: ReplyRoute, on connection: isolated X11Connection) {
        switch openPayload(url) {
        case .success(let payload):
            deliver(payload, claim: claim, index: index, route: route, on: connection)
        case .failure(let error):
            report(
                .failed(target: claim.offer.representations[index].target, requestor: route.requestor, reason: error.message),
                to: claim, on: connection)
            replied(route, success: false, on: connection)
        }
    }

    private func serveContent(claim: Claim, index: Int, route: ReplyRoute, on connection: isolated X11Connection) {
        let representation = claim.offer.representations[index]
        if let data = claim.produced[index] {
            deliver(.bytes(data), claim: claim, index: index, route: route, on: connection)
            return
        }
        switch representation.source {
        case .bytes(let data):
            deliver(.bytes(data), claim: claim, index: index, route: route, on: connection)
        case .file(let url):
            serveFile(url, claim: claim, index: index, route: route, on: connection)
        case .openedFile(let file):
            serveFile(URL(fileURLWithPath: file.path), claim: claim, index: index, route: route, on: connection)
        case .relay(let produce):
            startRelay(produce, claim: claim, index: index, route: route, on: connection)
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
                    result = .failure(SelectionError(.invalidReply, "\(context): the data provider failed", underlying: error))
                }
                connection.owner.produced(claimID: claimID, index: index, result: result, on: connection)
            }
        }
    }

    private func produced(
        claimID: UInt64, index: Int, result: Result<Data, SelectionError>, on connection: isolated X11Connection
    ) {
        guard let claim = claims[claimID] else { return }
        if case .success(let data) = result { claim.produced[index] = data }
        let routes = claim.producing.removeValue(forKey: index) ?? []
        claim.transfersInFlight -= 1
        defer { retireIfDone(claim) }
        guard connection.closedError == nil else { return }
        let target = claim.offer.representations[index].target
        for route in routes {
            switch result {
            case .success(let data):
                deliver(.bytes(data), claim: claim, index: index, route: route, on: connection)
            case .failure(let error):
                report(.failed(target: target, requestor: route.requestor, reason: error.message), to: claim, on: connection)
                replied(route, success: false, on: connection)
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
    func deliver(_ payload: Payload, claim: Claim, index: Int, route: ReplyRoute, on connection: isolated X11Connection) {
        guard let display = connection.xdisplay, connection.closedError == nil else {
            payload.close()
            return
        }
        let representation = claim.offer.representations[index]
        let type = claim.typeAtoms[index]
        let format = representation.propertyFormat
        let requestor = route.requestor
        let property = route.property
        if payload.size <= incrementalThreshold, case .bytes(let data) = payload {
            writeChunk(data, to: requestor, property, type: type, format: format, on: connection)
            replied(route, success: true, on: connection)
            report(
                .served(target: representation.target, requestor: requestor, byteCount: data.count), to: claim,
                on: connection)
            return
        }
        let key = TransferKey(requestor: requestor, property: property)
        supersedeTransfer(at: key, on: connection)
        let transfer = OutgoingTransfer(
            key: key, claimID: claim.id, target: representation.target, type: type, format: format,
            payload: payload, chunkSize: connection.configuration.chunkSize,
            maximumChunkSize: min(connection.configuration.maximumChunkSize, incrementalThreshold))
        watchRequestor(requestor, on: connection)
        display.changeProperty32(
            requestor, property, type: connection.wellKnown.incr, values: [transfer.sender.announcedSize])
        outgoing[key] = transfer
        claim.transfersInFlight += 1
        connection.managing.handoverTransferStarted(claimID: claim.id, on: connection)
        if case .multiple = route {
            // The requestor cannot start before the MULTIPLE's notify, which waits for every pair (maybe a
            // slow provider): allow for that here; `finishMultiple` starts the idle clock proper.
            connection.deadlines.arm(
                .owner(.outgoing(key)),
                at: .now + connection.configuration.readTimeout + connection.configuration.incrementalIdleTimeout)
        } else {
            connection.deadlines.arm(.owner(.outgoing(key)), at: .now + connection.configuration.incrementalIdleTimeout)
        }
        replied(route, success: true, on: connection)
        connection.logger.trace(
            "\(claim.selection):\(representation.target): INCR of \(payload.size) bytes to \(requestor)")
    }

    func writeChunk(
        _ data: Data, to requestor: X11Window, _ property: X11Atom, type: X11Atom, format: Int,
        on connection: isolated X11Connection
    ) {
        guard let display = connection.xdisplay else { return }
        if format == 32 {
            display.changeProperty32(requestor, property, type: type, values: Format32.values(data))
        } else {
            data.withUnsafeBytes { display.changeProperty(requestor, property, type: type, format: format, bytes: $0) }
        }
    }
}
