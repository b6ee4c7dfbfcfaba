import FoundationEssentials
import Logging

/// The drag source's side of XDND on the wire: `XdndSelection` owned with the drag's offer, the pointer and the
/// keyboard grabbed, the window under the pointer found through the window tree (`XdndTargetSearch`), and
/// `XdndSource`'s messages sent. Every protocol rule is `XdndSource`'s; this carries its steps out.
extension X11Connection {
    /// Drags `offer` from where the pointer is, until it is dropped, refused or cancelled.
    ///
    /// The drag owns `XdndSelection` with the offer (served as a claim is: TARGETS in the offer's order, INCR for
    /// big data, DELETE for a move), grabs the pointer and the keyboard, and speaks XDND version 5 (down to 3)
    /// with the window under the pointer: the first window with `XdndAware` on the pointer's path from the root
    /// (inside a window manager's frame; through its `XdndProxy` when that proxy is not stale).
    ///
    /// - How it starts: when a pointer button is held — pressed in a window of this process, whose implicit
    ///   grab the drag takes over — the drop comes with its release. With no button held, the drag follows the
    ///   pointer at once and drops at the release of the next click (a drag started from a key binding or a
    ///   terminal, without a window). A button pressed in *another* client's window is that client's grab: the
    ///   drag cannot start (`.pointerUnavailable`).
    /// - Actions: each position asks for the first of `actions`, or the one the keys held pick where allowed
    ///   (Ctrl copy, Shift move, Ctrl+Shift link); `XdndActionList` and `XdndActionDescription` name them all.
    /// - Ends: Escape or task cancellation cancel; `timeout` bounds the whole drag (a person's time); a target
    ///   that does not answer a position within 2 s counts as refusing, and one that does not finish a drop
    ///   within 30 s, or goes away during it, is abandoned (`XdndSource.statusTimeout`, `finishTimeout`).
    ///   `XdndSelection` is given up once the drag ended.
    ///
    /// - Throws: `.dragInProgress` when this connection is dragging already; `.pointerUnavailable` when another
    ///   client holds the pointer for over a second; the errors of ``claim(_:offering:)``.
    public func drag(
        _ offer: SelectionOffer, actions: [SelectionTarget] = [.xdndActionCopy], timeout: Duration = .seconds(120)
    ) async throws -> XdndDragOutcome {
        guard dragSource.session == nil, dragSource.starting == nil else {
            throw SelectionError(.dragInProgress, "this connection is dragging already")
        }
        let xdnd = try xdndAtoms()
        // Each action once (the list is the caller's, e.g. a command line's repeated option), in its order.
        var seenActions = Set<SelectionTarget>()
        let unique = actions.filter { seenActions.insert($0).inserted }
        let allowed = unique.isEmpty ? [.xdndActionCopy] : unique
        let actionNames: [SelectionTarget] = [
            .xdndActionCopy, .xdndActionMove, .xdndActionLink, .xdndActionAsk, .xdndActionPrivate,
        ]
        let actionList = allowed + actionNames.filter { !allowed.contains($0) }
        let actionAtoms = Dictionary(uniqueKeysWithValues: zip(actionList, try atoms(for: actionList.map(\.rawValue))))
        // A placeholder until the grab: a second `drag` arriving during the claim's round trips is refused.
        let id = dragSource.ids.next()
        dragSource.starting = id
        defer { if dragSource.starting == id { dragSource.starting = nil } }

        let lease = try await claim(.xdndSelection, offering: offer)
        guard let claim = owner.claimsBySelection[xdnd.selection], claim.time == lease.timestamp else {
            throw SelectionError(.ownershipLost, "XdndSelection was taken before the drag began")
        }
        let display = try requireDisplay()
        // The types the offer's targets were interned as, richest first: XdndEnter carries three, the
        // XdndTypeList property all of them.
        let types = claim.contentAtoms
        if types.count > 3 {
            display.changeProperty32(window, xdnd.typeList, type: wellKnown.atom, values: types.map(\.rawValue))
        }
        display.changeProperty32(
            window, xdnd.actionList, type: wellKnown.atom, values: allowed.compactMap { actionAtoms[$0]?.rawValue })
        // XDND: "a list of strings, each terminated by a null", one per action in XdndActionList.
        var descriptions = Data()
        for action in allowed {
            descriptions.append(contentsOf: Array(Self.actionDescription(action).utf8) + [0])
        }
        descriptions.withUnsafeBytes {
            display.changeProperty(window, xdnd.actionDescription, type: wellKnown.string, format: 8, bytes: $0)
        }

        let acceptCursor = display.fontCursor(60)  // XC_hand2
        let refuseCursor = display.fontCursor(24)  // XC_circle
        do {
            try await grabPointer(cursor: refuseCursor, time: lease.timestamp)
        } catch {
            display.freeCursor(acceptCursor)
            display.freeCursor(refuseCursor)
            owner.releaseClaim(claim, on: self)
            dragSource.deleteDragProperties(on: self)
            throw error
        }
        let pointer = display.queryPointer()
        let session = DragSession(
            id: id, machine: XdndSource(
                source: window, types: types, statusWait: configuration.dragStatusTimeout,
                finishWait: configuration.dragFinishTimeout), allowedActions: allowed,
            actionAtoms: actionAtoms, selectionAtom: xdnd.selection, claimTime: lease.timestamp,
            awaitingPress: !(pointer?.buttonHeld ?? false), escapeKeycode: display.keycode(forKeysym: 0xFF1B),
            acceptCursor: acceptCursor, refuseCursor: refuseCursor)
        session.keyboardGrabbed = display.grabKeyboard(time: lease.timestamp) == .success
        dragSource.session = session
        dragSource.starting = nil
        deadlines.arm(.dragSource(.limit(id)), at: .now + timeout)
        if let pointer {
            session.pendingMotion = (pointer.rootX, pointer.rootY, pointer.modifiers, lease.timestamp)
            dragSource.flushMotion(on: self)
        }
        display.flush()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let outcome = session.outcome {
                    continuation.resume(returning: outcome)
                } else {
                    session.continuation = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelDrag(id, reason: "the drag's task was cancelled") }
        }
    }

    /// Whether a drag started with ``drag(_:actions:timeout:)`` holds the pointer now.
    public var isDragging: Bool { dragSource.session != nil }

    /// What `XdndActionDescription` says of an action: what a target's "ask" menu shows.
    static func actionDescription(_ action: SelectionTarget) -> String {
        switch action {
        case .xdndActionCopy: "Copy"
        case .xdndActionMove: "Move"
        case .xdndActionLink: "Link"
        case .xdndActionAsk: "Ask"
        default: action.rawValue
        }
    }

    /// Grabs the pointer for a drag, trying for a second while another client holds it (a key binding's
    /// program may still hold it as the drag starts).
    private func grabPointer(cursor: UInt, time: X11Timestamp) async throws {
        let deadline = ContinuousClock.now + .seconds(1)
        while true {
            let display = try requireDisplay()
            let status = display.grabPointer(cursor: cursor, time: time)
            if status == .success { return }
            guard status == .alreadyGrabbed || status == .frozen, ContinuousClock.now < deadline else {
                throw SelectionError(
                    .pointerUnavailable,
                    "the pointer cannot be grabbed (\(status)): another client holds it — start a drag from a button "
                        + "pressed in a window of this process, or with no button held")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Cancels the drag `id` (its task was cancelled): back on the loop.
    func cancelDrag(_ id: UInt64, reason: String) {
        dragSource.cancel(id, reason: reason, on: self)
    }
}
