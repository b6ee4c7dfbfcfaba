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
        let id = nextID()
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
            releaseClaim(claim)
            deleteDragProperties()
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
            flushDragMotion()
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

    // MARK: Events

    /// A pointer event while dragging: motion is kept for the end of the loop turn (`flushDragMotion`); a
    /// press arms the drop of a drag started without a button, a release of button 1–3 drops.
    /// False when no drag is in progress (the event is someone else's).
    func dragPointerEvent(_ event: X11Event.PointerEvent) -> Bool {
        guard let session = dragSource.session else { return false }
        session.lastTime = event.time
        switch event.kind {
        case .motion:
            session.pendingMotion = (event.rootX, event.rootY, event.modifiers, event.time)
        case .press(let button):
            session.pendingMotion = (event.rootX, event.rootY, event.modifiers, event.time)
            flushDragMotion()
            if (1...3).contains(button) { session.awaitingPress = false }
        case .release(let button):
            session.pendingMotion = (event.rootX, event.rootY, event.modifiers, event.time)
            flushDragMotion()
            // Wheel "buttons" click without dropping; a release of a button held before the drag's next click
            // (with `awaitingPress`) is not that click's.
            guard (1...3).contains(button), !session.awaitingPress else { return true }
            logger.trace("drag: button \(button) released at \(event.time)")
            session.targetAtRelease = session.machine.currentTarget?.window
            carryOutDrag(session.machine.buttonReleased(time: event.time), session)
        }
        return true
    }

    /// A key pressed while dragging: Escape cancels. False when no drag is in progress.
    func dragKeyPress(keycode: UInt8, time: X11Timestamp) -> Bool {
        guard let session = dragSource.session else { return false }
        session.lastTime = time
        if keycode == session.escapeKeycode && keycode != 0 {
            flushDragMotion()
            carryOutDrag(session.machine.cancel(), session)
        }
        return true
    }

    /// XdndStatus or XdndFinished sent to our window.
    func dragMessageReceived(_ message: XdndMessage) {
        guard let session = dragSource.session else { return }
        flushDragMotion()
        carryOutDrag(session.machine.received(message), session)
    }

    /// The newest motion of this loop turn: the window under the pointer is looked up and the source told.
    func flushDragMotion() {
        guard let session = dragSource.session, let motion = session.pendingMotion else { return }
        session.pendingMotion = nil
        let action = XdndActionChoice.action(allowed: session.allowedActions, modifiers: motion.modifiers)
        let target = dropTarget(atRootX: motion.x, y: motion.y)
        carryOutDrag(
            session.machine.pointerMoved(
                over: target, x: motion.x, y: motion.y, time: motion.time, action: session.actionAtoms[action] ?? .none),
            session)
    }

    /// The watchdog's deadline for the drag passed.
    func dragWatchdogFired(_ id: UInt64) {
        guard let session = dragSource.session, session.id == id else { return }
        carryOutDrag(session.machine.deadlinePassed(), session)
    }

    /// Escape by other means: the drag's time limit, or its task's cancellation.
    func cancelDrag(_ id: UInt64, reason: String) {
        guard let session = dragSource.session, session.id == id else { return }
        logger.debug("drag cancelled: \(reason)")
        carryOutDrag(session.machine.cancel(), session)
        xdisplay?.flush()
    }

    /// A window was destroyed: when it is the drag's target (or its proxy), the drag goes on without it.
    func dragTargetVanished(_ vanished: X11Window) {
        guard let session = dragSource.session, session.watched.contains(vanished) else { return }
        session.watched.remove(vanished)
        carryOutDrag(session.machine.targetVanished(vanished), session)
    }

    // MARK: Carrying out

    private func carryOutDrag(_ steps: [XdndSource.Step], _ session: DragSession) {
        guard let display = xdisplay, let xdnd = xdndNames else { return }
        var askedForAnswer = false
        for step in steps {
            switch step {
            case .send(let message, let target):
                guard let type = xdnd.atomsByKind[message.kind] else { continue }
                switch message {
                case .enter: watchDragTarget(target, session)
                case .leave: unwatchDragTargets(session)
                case .position, .drop: askedForAnswer = true
                case .status, .finished: break
                }
                display.sendClientMessage(to: target.messageWindow, about: target.window, type: type, values: message.words)
                logger.trace("sent to \(target.window): \(message)")
            case .finish(let outcome):
                endDrag(session, outcome)
                return
            case .restartWatchdog:
                askedForAnswer = true
            }
        }
        if let wait = session.machine.awaitedAnswer {
            // Armed when a message that wants an answer went out, so a pointer moving while a status is awaited
            // does not push the deadline away.
            if askedForAnswer { deadlines.arm(.dragSource(.watchdog(session.id)), at: .now + wait) }
        } else {
            deadlines.cancel(.dragSource(.watchdog(session.id)))
        }
        let accepts = session.machine.targetAccepts
        if accepts != session.showsAccept {
            session.showsAccept = accepts
            display.changeGrabCursor(accepts ? session.acceptCursor : session.refuseCursor, time: session.lastTime)
        }
    }

    private func watchDragTarget(_ target: XdndSource.Target, _ session: DragSession) {
        for window in Set([target.window, target.messageWindow]) where window != self.window {
            if session.watched.insert(window).inserted { watchWindow(window, as: .owner) }
        }
    }

    private func unwatchDragTargets(_ session: DragSession) {
        for window in session.watched { unwatchWindow(window, as: .owner) }
        session.watched.removeAll()
    }

    private func endDrag(_ session: DragSession, _ internalOutcome: XdndSource.Outcome) {
        let outcome: XdndDragOutcome
        switch internalOutcome {
        case .dropped(let target, true, let action):
            outcome = .dropped(target: target, action: session.actionNames[action] ?? .xdndActionCopy)
        case .dropped(let target, false, _):
            outcome = .refused(target: target)
        case .refused:
            outcome = .refused(target: session.targetAtRelease)
        case .cancelled:
            outcome = .cancelled
        case .abandoned(let target, let reason):
            outcome = .abandoned(target: target, reason: reason)
        }
        dragSource.session = nil
        deadlines.cancel(.dragSource(.watchdog(session.id)))
        deadlines.cancel(.dragSource(.limit(session.id)))
        unwatchDragTargets(session)
        if let display = xdisplay {
            display.ungrabPointer(time: session.lastTime)
            if session.keyboardGrabbed { display.ungrabKeyboard(time: session.lastTime) }
            display.freeCursor(session.acceptCursor)
            display.freeCursor(session.refuseCursor)
        }
        deleteDragProperties()
        if let claim = owner.claimsBySelection[session.selectionAtom], claim.time == session.claimTime {
            releaseClaim(claim)
        }
        xdisplay?.flush()
        logger.debug("drag ended: \(outcome)")
        if let continuation = session.continuation {
            session.continuation = nil
            continuation.resume(returning: outcome)
        } else {
            session.outcome = outcome
        }
    }

    private func deleteDragProperties() {
        guard let display = xdisplay, let xdnd = xdndNames else { return }
        for property in [xdnd.typeList, xdnd.actionList, xdnd.actionDescription] {
            display.deleteProperty(window, property)
        }
    }

    // MARK: The window under the pointer

    /// The window that takes drops at the root point (`x`, `y`), found along the path of windows there
    /// (`XdndTargetSearch`); nil when none does.
    func dropTarget(atRootX x: Int, y: Int) -> XdndSource.Target? {
        guard let display = xdisplay, let xdnd = xdndNames else { return nil }
        var path: [XdndTargetSearch.Window] = []
        var parent = display.root
        // A window tree deeper than 32 is not one an application builds; the bound keeps a hostile one finite.
        for _ in 0..<32 {
            guard let child = display.child(of: parent, containingRootX: x, y: y) else { break }
            let described = describeForDrop(child, xdnd)
            path.append(described)
            if XdndTargetSearch.endsSearch(described) { break }
            parent = child
        }
        return XdndTargetSearch.target(along: path, ignoring: [window])
    }

    /// What `window` says of itself to a drag: WM_STATE, XdndAware, XdndProxy (and whether the proxy names
    /// itself). A window that vanished says nothing (its BadWindow errors are a vanished peer's).
    private func describeForDrop(_ window: X11Window, _ xdnd: XdndAtoms) -> XdndTargetSearch.Window {
        guard let display = xdisplay else { return XdndTargetSearch.Window(id: window) }
        func firstWord(_ of: X11Window, _ property: X11Atom) -> UInt? {
            guard let value = display.getProperty(of, property, delete: false, offset: 0, length: 4), value.format == 32
            else { return nil }
            return Format32.values(value.bytes).first
        }
        let hasWMState = display.getProperty(window, xdnd.wmState, delete: false, offset: 0, length: 4)
            .map { $0.type != .none } ?? false
        var proxy: X11Window?
        var proxyIsValid = false
        if let named = firstWord(window, xdnd.proxy), named != 0 {
            proxy = X11Window(rawValue: named)
            proxyIsValid = firstWord(X11Window(rawValue: named), xdnd.proxy) == named
        }
        // XdndAware is the window's; GTK's sources also take it from a valid proxy (gdkdrag-x11.c,
        // xdnd_check_dest), as some targets put it only there.
        var aware = firstWord(window, xdnd.aware)
        if aware == nil, proxyIsValid, let proxy { aware = firstWord(proxy, xdnd.aware) }
        return XdndTargetSearch.Window(
            id: window, hasWMState: hasWMState, awareVersion: aware.map { Int(min($0, 255)) }, proxy: proxy, proxyIsValid: proxyIsValid)
    }
}
