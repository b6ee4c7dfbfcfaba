import Logging
import FoundationEssentials

/// Being a manager (ICCCM 2.8): acquiring a manager selection such as `CLIPBOARD_MANAGER`, announcing it,
/// and the SAVE_TARGETS requests its clients send (freedesktop clipboard-manager spec). The rules are
/// `ManagerSelection`'s.
extension X11Connection {
    /// Becomes the manager of `selection` (ICCCM 2.8): claims it with a real timestamp and announces it
    /// with a MANAGER client message on the root window, which GTK, Qt and other managers listen for.
    ///
    /// When another client already manages it, this throws `.managerRunning` unless `replacing` is true;
    /// then it takes the selection, and waits — at most `timeout` — for the previous manager's window to be
    /// destroyed before announcing, as ICCCM 2.8 asks, so two managers never act at once.
    ///
    /// The lease's events are `.saveTargetsRequested` for each SAVE_TARGETS request (answer each with
    /// ``answer(_:saved:)``), and `.lost` when another client replaces this manager: a manager then steps
    /// down. The selection's TARGETS answers TARGETS, TIMESTAMP and SAVE_TARGETS; anything else, DELETE
    /// included, is refused.
    /// - Parameters:
    ///   - selection: the manager selection, `CLIPBOARD_MANAGER` by default.
    ///   - replacing: take the selection from a running manager.
    ///   - timeout: how long to wait for a replaced manager's window to go.
    /// - Throws: `.managerRunning`; `.ownershipRefused`; `.timedOut` (no server time); `.connectionLost`;
    ///   `.shutDown`.
    public func claimManager(
        _ selection: SelectionName = .clipboardManager, replacing: Bool = false, timeout: Duration = .seconds(3)
    ) async throws -> SelectionLease {
        let display = try requireDisplay()
        let selectionAtom = try atom(for: selection.rawValue)
        var predecessor: X11Window?
        switch ManagerSelection.acquisition(owner: display.selectionOwner(selectionAtom), ours: window, replacing: replacing) {
        case .take:
            break
        case .refuse(let owner):
            throw SelectionError(
                .managerRunning, "\(selection) is held by another manager (window \(owner)); replacing it was not asked for")
        case .replace(let owner):
            // Watched before the claim, so its DestroyNotify cannot be missed (or a BadWindow says it is gone).
            predecessor = owner
            watchWindow(owner, as: .owner)
        }
        let lease: SelectionLease
        do {
            lease = try await owner.claim(selection, offering: SelectionOffer([]), role: .manager, on: self)
        } catch {
            if let predecessor { unwatchWindow(predecessor, as: .owner) }
            throw error
        }
        if let predecessor {
            let gone = await windowGone(predecessor, within: timeout)
            unwatchWindow(predecessor, as: .owner)
            if !gone {
                logger.notice("\(selection): the replaced manager's window \(predecessor) is still there after \(timeout)")
            }
        }
        // Flushed by the loop at the end of this turn, like every reply (see `replied`).
        try requireDisplay().sendRootClientMessage(
            type: wellKnown.manager, window: window,
            values: ManagerSelection.announcement(time: lease.timestamp, selection: selectionAtom, owner: window))
        logger.debug("\(selection): managing since \(lease.timestamp)")
        return lease
    }

    /// Answers a SAVE_TARGETS request: `saved` sends the SelectionNotify that tells the client its content is
    /// safe (it then exits), otherwise a refusal (property None). Answer once the saved content is served
    /// (the client's transfers to us must be complete: it may not serve INCR after the answer). A request
    /// already answered is ignored.
    public func answer(_ request: SaveTargetsRequest, saved: Bool) {
        guard let route = managing.pendingSaves.removeValue(forKey: request.id) else { return }
        owner.replied(route, success: saved, on: self)
    }

    /// The most SAVE_TARGETS requests left unanswered at once; more are refused (each asks the manager to read
    /// an owner's whole offer, and the requests cost a client nothing).
    static let maximumPendingSaves = 16

    /// A SAVE_TARGETS request reached a manager claim: read its target list and hand it to the manager.
    func requestSave(claim: Claim, route: ReplyRoute) {
        guard case .direct(let request, let property) = route, let display = xdisplay,
            managing.pendingSaves.count < Self.maximumPendingSaves
        else {
            logger.info("\(claim.selection): refusing SAVE_TARGETS (\(managing.pendingSaves.count) unanswered)")
            owner.replied(route, success: false, on: self)
            return
        }
        // An obsolete requestor's None names no property, so no list: everything is saved.
        let value = request.property.isNone ? nil : display.getProperty(
            request.requestor, property, delete: false, offset: 0,
            length: (ManagerSelection.maximumSaveTargets + 1) * 4)
        let targets: [SelectionTarget]?
        switch ManagerSelection.saveTargets(value, atomType: wellKnown.atom) {
        case .all:
            targets = nil
        case .malformed:
            logger.info("\(claim.selection): refusing SAVE_TARGETS from \(request.requestor): its list is not an ATOM list")
            owner.replied(route, success: false, on: self)
            return
        case .listed(let atoms):
            guard let names = try? names(for: atoms) else {
                owner.replied(route, success: false, on: self)
                return
            }
            targets = names.compactMap { $0.map(SelectionTarget.init(rawValue:)) }
        }
        let save = SaveTargetsRequest(id: managing.ids.next(), requestor: request.requestor, targets: targets, time: request.time)
        managing.pendingSaves[save.id] = route
        owner.report(.saveTargetsRequested(save), to: claim, on: self)
    }

    /// Waits until `watched` (selected for StructureNotify) is destroyed, at most `timeout`; false on timeout.
    private func windowGone(_ watched: X11Window, within timeout: Duration) async -> Bool {
        guard windowInterests.contains(watched) else { return true }
        let id = managing.ids.next()
        deadlines.arm(.managing(.windowGone(id)), at: .now + timeout)
        return await withCheckedContinuation { continuation in
            managing.goneWaiters.append((id: id, window: watched, continuation: continuation))
        }
    }
}
