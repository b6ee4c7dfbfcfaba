import FoundationEssentials
import Logging

/// The drag source's events, isolated to the connection: pointer and keys while dragging, the target's
/// XdndStatus and XdndFinished, the drag's deadlines and a vanished target; `XdndSource` decides, these carry
/// its steps out, and find the window under the pointer (`XdndTargetSearch`).
extension DragSource {
    // MARK: Events

    /// A pointer event while dragging: motion is kept for the end of the loop turn (`flushMotion`); a
    /// press arms the drop of a drag started without a button, a release of button 1–3 drops.
    /// False when no drag is in progress (the event is someone else's).
    func pointerEvent(_ event: X11Event.PointerEvent, on connection: isolated X11Connection) -> Bool {
        guard let session = self.session else { return false }
        session.lastTime = event.time
        switch event.kind {
        case .motion:
            session.pendingMotion = (event.rootX, event.rootY, event.modifiers, event.time)
        case .press(let button):
            session.pendingMotion = (event.rootX, event.rootY, event.modifiers, event.time)
            flushMotion(on: connection)
            if (1...3).contains(button) { session.awaitingPress = false }
        case .release(let button):
            session.pendingMotion = (event.rootX, event.rootY, event.modifiers, event.time)
            flushMotion(on: connection)
            // Wheel "buttons" click without dropping; a release of a button held before the drag's next click
            // (with `awaitingPress`) is not that click's.
            guard (1...3).contains(button), !session.awaitingPress else { return true }
            connection.logger.trace("drag: button \(button) released at \(event.time)")
            session.targetAtRelease = session.machine.currentTarget?.window
            carryOut(session.machine.buttonReleased(time: event.time), session, on: connection)
        }
        return true
    }

    /// A key pressed while dragging: Escape cancels. False when no drag is in progress.
    func keyPress(keycode: UInt8, time: X11Timestamp, on connection: isolated X11Connection) -> Bool {
        guard let session = self.session else { return false }
        session.lastTime = time
        if keycode == session.escapeKeycode && keycode != 0 {
            flushMotion(on: connection)
            carryOut(session.machine.cancel(), session, on: connection)
        }
        return true
    }

    /// XdndStatus or XdndFinished sent to our window.
    func messageReceived(_ message: XdndMessage, on connection: isolated X11Connection) {
        guard let session = self.session else { return }
        flushMotion(on: connection)
        carryOut(session.machine.received(message), session, on: connection)
    }

    /// The newest motion of this loop turn: the window under the pointer is looked up and the source told.
    func flushMotion(on connection: isolated X11Connection) {
        guard let session = self.session, let motion = session.pendingMotion else { return }
        session.pendingMotion = nil
        let action = XdndActionChoice.action(allowed: session.allowedActions, modifiers: motion.modifiers)
        let target = dropTarget(atRootX: motion.x, y: motion.y, on: connection)
        carryOut(
            session.machine.pointerMoved(
                over: target, x: motion.x, y: motion.y, time: motion.time, action: session.actionAtoms[action] ?? .none),
            session, on: connection)
    }

    /// The watchdog's deadline for the drag passed.
    func watchdogFired(_ id: UInt64, on connection: isolated X11Connection) {
        guard let session = self.session, session.id == id else { return }
        carryOut(session.machine.deadlinePassed(), session, on: connection)
    }

    /// Escape by other means: the drag's time limit, or its task's cancellation.
    func cancel(_ id: UInt64, reason: String, on connection: isolated X11Connection) {
        guard let session = self.session, session.id == id else { return }
        connection.logger.debug("drag cancelled: \(reason)")
        carryOut(session.machine.cancel(), session, on: connection)
        connection.xdisplay?.flush()
    }

    /// A window was destroyed: when it is the drag's target (or its proxy), the drag goes on without it.
    func targetVanished(_ vanished: X11Window, on connection: isolated X11Connection) {
        guard let session = self.session, session.watched.contains(vanished) else { return }
        session.watched.remove(vanished)
        carryOut(session.machine.targetVanished(vanished), session, on: connection)
    }

    // MARK: Carrying out

    private func carryOut(
        _ steps: [XdndSource.Step], _ session: DragSession, on connection: isolated X11Connection
    ) {
        guard let display = connection.xdisplay, let xdnd = connection.xdndNames else { return }
        var askedForAnswer = false
        for step in steps {
            switch step {
            case .send(let message, let target):
                guard let type = xdnd.atomsByKind[message.kind] else { continue }
                switch message {
                case .enter: watchTarget(target, session, on: connection)
                case .leave: unwatchTargets(session, on: connection)
                case .position, .drop: askedForAnswer = true
                case .status, .finished: break
                }
                display.sendClientMessage(to: target.messageWindow, about: target.window, type: type, values: message.words)
                connection.logger.trace("sent to \(target.window): \(message)")
            case .finish(let outcome):
                end(session, outcome, on: connection)
                return
            case .restartWatchdog:
                askedForAnswer = true
            }
        }
        if let wait = session.machine.awaitedAnswer {
            // Armed when a message that wants an answer went out, so a pointer moving while a status is awaited
            // does not push the deadline away.
            if askedForAnswer { connection.deadlines.arm(.dragSource(.watchdog(session.id)), at: .now + wait) }
        } else {
            connection.deadlines.cancel(.dragSource(.watchdog(session.id)))
        }
        let accepts = session.machine.targetAccepts
        if accepts != session.showsAccept {
            session.showsAccept = accepts
            display.changeGrabCursor(accepts ? session.acceptCursor : session.refuseCursor, time: session.lastTime)
        }
    }

    private func watchTarget(
        _ target: XdndSource.Target, _ session: DragSession, on connection: isolated X11Connection
    ) {
        for window in Set([target.window, target.messageWindow]) where window != connection.window {
            if session.watched.insert(window).inserted { connection.watchWindow(window, as: .owner) }
        }
    }

    private func unwatchTargets(_ session: DragSession, on connection: isolated X11Connection) {
        for window in session.watched { connection.unwatchWindow(window, as: .owner) }
        session.watched.removeAll()
    }

    private func end(
        _ session: DragSession, _ internalOutcome: XdndSource.Outcome, on connection: isolated X11Connection
    ) {
        let outcome: XdndDragOutcome
        switch internalOutcome {
        case .dropped(let target, let action, let targetAccepted):
            outcome = .dropped(target: target, action: session.actionNames[action] ?? .xdndActionCopy,
                               targetAccepted: targetAccepted)
        case .refused:
            outcome = .refused(target: session.targetAtRelease)
        case .cancelled:
            outcome = .cancelled
        case .abandoned(let target, let reason):
            outcome = .abandoned(target: target, reason: reason)
        }
        self.session = nil
        connection.deadlines.cancel(.dragSource(.watchdog(session.id)))
        connection.deadlines.cancel(.dragSource(.limit(session.id)))
        unwatchTargets(session, on: connection)
        if let display = connection.xdisplay {
            display.ungrabPointer(time: session.lastTime)
            if session.keyboardGrabbed { display.ungrabKeyboard(time: session.lastTime) }
            display.freeCursor(session.acceptCursor)
            display.freeCursor(session.refuseCursor)
        }
        deleteDragProperties(on: connection)
        if let claim = connection.owner.claimsBySelection[session.selectionAtom], claim.time == session.claimTime {
            connection.owner.releaseClaim(claim, on: connection)
        }
        connection.xdisplay?.flush()
        connection.logger.debug("drag ended: \(outcome)")
        if let continuation = session.continuation {
            session.continuation = nil
            continuation.resume(returning: outcome)
        } else {
            session.outcome = outcome
        }
    }

    func deleteDragProperties(on connection: isolated X11Connection) {
        guard let display = connection.xdisplay, let xdnd = connection.xdndNames else { return }
        for property in [xdnd.typeList, xdnd.actionList, xdnd.actionDescription] {
            display.deleteProperty(connection.window, property)
        }
    }

    // MARK: The window under the pointer

    /// The window that takes drops at the root point (`x`, `y`), found along the path of windows there
    /// (`XdndTargetSearch`); nil when none does.
    func dropTarget(atRootX x: Int, y: Int, on connection: isolated X11Connection) -> XdndSource.Target? {
        guard let display = connection.xdisplay, let xdnd = connection.xdndNames else { return nil }
        var path: [XdndTargetSearch.Window] = []
        var parent = display.root
        // A window tree deeper than 32 is not one an application builds; the bound keeps a hostile one finite.
        for _ in 0..<32 {
            guard let child = display.child(of: parent, containingRootX: x, y: y) else { break }
            let described = describeForDrop(child, xdnd, on: connection)
            path.append(described)
            if XdndTargetSearch.endsSearch(described) { break }
            parent = child
        }
        return XdndTargetSearch.target(along: path, ignoring: [connection.window])
    }

    /// What `window` says of itself to a drag: WM_STATE, XdndAware, XdndProxy (and whether the proxy names
    /// itself). A window that vanished says nothing (its BadWindow errors are a vanished peer's).
    private func describeForDrop(
        _ window: X11Window, _ xdnd: XdndAtoms, on connection: isolated X11Connection
    ) -> XdndTargetSearch.Window {
        guard let display = connection.xdisplay else { return XdndTargetSearch.Window(id: window) }
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
