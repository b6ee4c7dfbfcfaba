import FoundationEssentials

/// Reading every flavour of an offer: what a clipboard manager keeps (see `SnapshotPolicy` for which).
extension X11Connection {
    /// Reads every flavour `selection`'s owner offers, as it wrote them, for serving again once the owner is
    /// gone (`SelectionSnapshot.offer`).
    ///
    /// The targets are read one after another in the owner's TARGETS order, each streamed (INCR included)
    /// into memory or, past `SnapshotLimits.inMemoryBytes`, a private file; a flavour passing its limit is
    /// omitted the moment it does. A target the owner refuses, answers wrongly or leaves unanswered for
    /// `timeout` is omitted with its reason, and the others are still kept. Nothing is read of an offer
    /// marked sensitive. When the owner answers TARGET_SIZES, a flavour it announces over the limits is
    /// omitted without being read (an owner that announces less than it sends is still cut off at the limit).
    ///
    /// Runs on the caller's executor, like `read(_:target:timeout:)`.
    /// - Parameters:
    ///   - selection: the selection whose owner's offer is kept.
    ///   - requested: the targets to keep, in this order (a SAVE_TARGETS list); nil keeps every target the
    ///     owner lists, in its order. Meta, side-effect and resource targets are never kept.
    ///   - limits: how much is kept, and where large flavours go.
    ///   - timeout: the deadline of each read (the TARGETS read included); nil uses
    ///     `Configuration.readTimeout`.
    ///   - inOneRequest: read the targets in one MULTIPLE request (ICCCM 2.6.2) when the owner offers it, as
    ///     a handover does (the owner waits, and toolkits that hand over implement MULTIPLE): each reply
    ///     up to `SnapshotLimits.inMemoryBytes`, all of them up to 16 MiB; a larger one is abandoned and
    ///     read alone, streamed. An owner that refuses MULTIPLE or answers it wrongly is read target by
    ///     target; one that advertises it and never answers (xsel 1.2) costs `timeout` first, which is why
    ///     it is not the default.
    /// At most `SnapshotLimits.maximumFlavours` targets are read; from 16 of them on (and for a handover), an
    /// owner offering MULTIPLE is read in batches of MULTIPLE requests of 64. When
    /// the owner goes away after at least one flavour was read whole, the snapshot keeps those
    /// (`SelectionSnapshot.ownerLeft`) and lists the others among its omissions.
    /// - Throws: `.noOwner`, `.ownerGone` (the owner went away before any flavour was read: nothing is kept, no
    ///   file is left),
    ///   `.storageFailed`, `.connectionLost`, `.shutDown`; cancellation.
    public nonisolated(nonsending) func snapshot(
        _ selection: SelectionName, targets requested: [SelectionTarget]? = nil,
        limits: SnapshotLimits = SnapshotLimits(), timeout: Duration? = nil, inOneRequest: Bool = false
    ) async throws -> SelectionSnapshot {
        let offered: [SelectionTarget]
        do {
            offered = try await targets(of: selection, timeout: timeout)
        } catch let error as SelectionError where requested != nil && Self.omitsFlavour(error) {
            // A requested list stands on its own: the owner's TARGETS only serves to spot a sensitive offer.
            offered = []
        }
        var snapshot = SelectionSnapshot(selection: selection, flavours: [], omissions: [], isSensitive: false)
        guard case .keep(let targets) = SnapshotPolicy.plan(for: offered, requested: requested) else {
            snapshot.isSensitive = true
            return snapshot
        }
        let announced = offered.contains(.targetSizes) ? await announcedSizes(of: selection, timeout: timeout) : [:]
        let steps = SnapshotPolicy.steps(
            for: targets, keeps: limits.keepsTarget, maximumFlavours: limits.maximumFlavours)
        var batches = SnapshotBatching.batches(
            steps, ownerOffersMultiple: offered.contains(.multiple), handover: inOneRequest, announced: announced,
            inMemoryBytes: limits.inMemoryBytes)[...]
        var batched: [SelectionTarget: Result<SelectionData, SelectionError>] = [:]
        do {
            reading: for (index, step) in steps.enumerated() {
                let target: SelectionTarget
                switch step {
                case .omit(let omitted, let reason):
                    snapshot.omissions.append(.init(target: omitted, reason: reason))
                    continue
                case .read(let read):
                    target = read
                }
                let budget = SnapshotPolicy.flavourBudget(
                    flavourLimit: limits.maximumFlavourBytes, remaining: limits.maximumTotalBytes - snapshot.byteCount)
                if let size = announced[target], size > budget {
                    snapshot.omissions.append(.init(target: target, reason: "announced \(size) bytes, over the limit of \(budget)"))
                    continue
                }
                do {
                    if batched[target] == nil, let batch = batches.first, batch.contains(target) {
                        batches.removeFirst()
                        if let results = try await readMultiple(
                            selection, targets: batch, timeout: timeout,
                            perTarget: min(limits.inMemoryBytes, limits.maximumFlavourBytes),
                            total: min(limits.maximumTotalBytes, SnapshotBatching.batchBytes))
                        {
                            batched.merge(results) { first, _ in first }
                        } else {
                            batches = []  // MULTIPLE unusable: the rest target by target.
                        }
                    }
                    switch batched.removeValue(forKey: target) {
                    case .success(let data) where data.bytes.count <= budget:
                        snapshot.flavours.append(SelectionSnapshot.Flavour(
                            target: target, type: data.type, format: data.format, content: .bytes(data.bytes),
                            byteCount: data.bytes.count))
                        continue
                    case .success(let data):
                        snapshot.omissions.append(.init(target: target, reason: "\(data.bytes.count) bytes, over the limit of \(budget)"))
                        continue
                    case .failure(let error) where Self.omitsFlavour(error):
                        snapshot.omissions.append(.init(target: target, reason: error.description))
                        continue
                    case .failure(let error) where error.code != .tooLarge:
                        throw error
                    case .failure, nil:
                        break  // Not in a batch, or too large for it: read alone, streamed.
                    }
                    let spool = FlavourSpool(limit: budget, inMemoryLimit: limits.inMemoryBytes, directory: limits.spoolDirectory)
                    do {
                        let summary = try await read(selection, target: target, timeout: timeout) { try spool.append($0) }
                        snapshot.flavours.append(SelectionSnapshot.Flavour(
                            target: target, type: summary.type, format: summary.format, content: try spool.finish(),
                            byteCount: summary.byteCount))
                    } catch let tooLarge as FlavourSpool.TooLarge {
                        spool.discard()
                        snapshot.omissions.append(.init(target: target, reason: tooLarge.description))
                    } catch let error as SelectionError where Self.omitsFlavour(error) {
                        spool.discard()
                        snapshot.omissions.append(.init(target: target, reason: error.description))
                    } catch let failure as FlavourSpool.StorageFailure {
                        spool.discard()
                        throw SelectionError(.storageFailed, failure.description)
                    } catch {
                        spool.discard()
                        throw error
                    }
                } catch let error as SelectionError where Self.ownerLeft(error) && !snapshot.flavours.isEmpty {
                    // Keep what was read whole rather than nothing, whichever read found the owner gone: an owner
                    // that lists many targets, or is slow, may quit before the last one is read (seen: 1,807 of
                    // 3,002 read, then nothing kept).
                    snapshot.keepRead(omittingFrom: steps[index...])
                    break reading
                }
            }
        } catch {
            snapshot.removeFiles()
            throw error
        }
        snapshot.completeFileList(sideEffectPlaces: steps)
        return snapshot
    }

    /// The sizes the owner announces in its TARGET_SIZES reply, by target; empty when it gives none (or a
    /// broken one: the limits still hold while reading).
    private nonisolated(nonsending) func announcedSizes(of selection: SelectionName, timeout: Duration?) async
        -> [SelectionTarget: Int]
    {
        let sizes = try? await readWhole(selection, target: .targetSizes, timeout: timeout) { connection, data in
            guard data.format == 32 else { return [SelectionTarget: Int]() }
            let pairs = SnapshotBatching.announcedSizes(Format32.values(data.bytes))
            let names = try connection.names(for: pairs.map(\.atom))
            var sizes: [SelectionTarget: Int] = [:]
            for (pair, name) in zip(pairs, names) {
                if let name { sizes[SelectionTarget(rawValue: name)] = pair.size }
            }
            return sizes
        }
        return sizes ?? [:]
    }

    /// Failures that mean the owner is gone: what was read of it before is kept.
    private static func ownerLeft(_ error: SelectionError) -> Bool {
        error.code == .ownerGone || error.code == .noOwner
    }

    /// Failures that cost one flavour, not the snapshot: the owner is still there and answered the others.
    private static func omitsFlavour(_ error: SelectionError) -> Bool {
        error.code == .targetUnavailable || error.code == .invalidReply || error.code == .timedOut
    }
}
