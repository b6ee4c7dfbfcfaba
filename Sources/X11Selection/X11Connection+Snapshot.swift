import FoundationEssentials

/// Reading every flavour of an offer: what a clipboard manager keeps (see `SnapshotPolicy` for which).
extension X11Connection {
    /// Reads every flavour `selection`'s owner offers, as it wrote them, for serving again once the owner is
    /// gone (``SelectionSnapshot/offer``).
    ///
    /// The targets are read one after another in the owner's TARGETS order, each streamed (INCR included)
    /// into memory or, past ``SnapshotLimits/inMemoryBytes``, a private file; a flavour passing its limit is
    /// omitted the moment it does. A target the owner refuses, answers wrongly or leaves unanswered for
    /// `timeout` is omitted with its reason, and the others are still kept. Nothing is read of an offer
    /// marked sensitive.
    ///
    /// Runs on the caller's executor, like `read(_:target:timeout:)`.
    /// - Parameters:
    ///   - selection: the selection whose owner's offer is kept.
    ///   - limits: how much is kept, and where large flavours go.
    ///   - timeout: the deadline of each read (the TARGETS read included); nil uses
    ///     `Configuration.readTimeout`.
    /// - Throws: `.noOwner`, `.ownerGone` (the owner went away meanwhile: nothing is kept, no file is left),
    ///   `.storageFailed`, `.connectionLost`, `.shutDown`; cancellation.
    public nonisolated(nonsending) func snapshot(
        _ selection: SelectionName, limits: SnapshotLimits = SnapshotLimits(), timeout: Duration? = nil
    ) async throws -> SelectionSnapshot {
        let offered = try await targets(of: selection, timeout: timeout)
        var snapshot = SelectionSnapshot(selection: selection, flavours: [], omissions: [], isSensitive: false)
        guard case .keep(let targets) = SnapshotPolicy.plan(for: offered) else {
            snapshot.isSensitive = true
            return snapshot
        }
        do {
            for target in targets {
                let budget = min(limits.maximumFlavourBytes, limits.maximumTotalBytes - snapshot.byteCount)
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
                } catch {
                    spool.discard()
                    throw error
                }
            }
        } catch {
            snapshot.removeFiles()
            throw error
        }
        return snapshot
    }

    /// Failures that cost one flavour, not the snapshot: the owner is still there and answered the others.
    private static func omitsFlavour(_ error: SelectionError) -> Bool {
        error.code == .targetUnavailable || error.code == .invalidReply || error.code == .timedOut
    }
}
