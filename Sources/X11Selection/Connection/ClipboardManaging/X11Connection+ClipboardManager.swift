extension X11Connection {
    /// Asks the clipboard manager (the owner of `CLIPBOARD_MANAGER`) to take over the content of the
    /// CLIPBOARD we own, as the freedesktop clipboard-manager spec describes: we name the targets to save
    /// in a property and convert `CLIPBOARD_MANAGER` to `SAVE_TARGETS`; the manager then reads them from
    /// us (INCR included) and answers. Returns once the manager answered *and* every transfer it started
    /// has been served.
    ///
    /// Call it before exiting when the clipboard content should outlive the process.
    ///
    /// - Returns: `.saved`; `.noManager` when no manager runs; `.skippedSensitive` for an offer marked
    ///   sensitive (not handed over; release it yourself); `.notOwner` when we do not own CLIPBOARD.
    /// - Throws: `.clipboardManagerUnavailable` when the manager refused; `.timedOut` after `timeout`;
    ///   `.connectionLost`; `.shutDown`.
    public func handOverToClipboardManager(timeout: Duration = .seconds(5)) async throws -> ClipboardManagerHandover {
        let display = try requireDisplay()
        guard let claim = owner.claimsBySelection[wellKnown.clipboard], claim.isOwner else { return .notOwner }
        if claim.offer.isSensitive { return .skippedSensitive }
        guard display.selectionOwner(wellKnown.clipboardManager) != nil else { return .noManager }
        guard managing.handover == nil else {
            throw SelectionError(.clipboardManagerUnavailable, "a handover is already in progress")
        }
        // The spec: "the named property specifies a list of targets to convert the CLIPBOARD selection to".
        display.changeProperty32(
            window, wellKnown.saveTargetsProperty, type: wellKnown.atom, values: claim.contentAtoms.map(\.rawValue))
        display.convertSelection(
            wellKnown.clipboardManager, target: wellKnown.saveTargets, property: wellKnown.saveTargetsProperty,
            requestor: window, time: claim.time)
        deadlines.arm(.managing(.handover), at: .now + timeout)
        var machine = ManagerHandover()
        for _ in 0..<claim.transfersInFlight { machine.transferStarted() }
        let outcome = try await withCheckedThrowingContinuation { continuation in
            managing.handover = PendingHandover(claimID: claim.id, machine: machine, continuation: continuation)
        }
        switch outcome {
        case .saved:
            return .saved
        case .refused:
            throw SelectionError(.clipboardManagerUnavailable, "the clipboard manager refused SAVE_TARGETS")
        case .timedOut:
            throw SelectionError(.timedOut, "the clipboard manager did not finish saving within \(timeout)")
        }
    }
}
