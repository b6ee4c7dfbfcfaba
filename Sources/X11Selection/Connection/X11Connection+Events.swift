import Logging
import FoundationEssentials

/// One turn of the connection's loop (ThreadingModel.md): read and dispatch X events, drain protocol errors,
/// fire deadlines, flush. Runs on whichever thread holds the loop token.
extension X11Connection {
    // MARK: The pump (called by the loop between jobs)

    /// Reads and handles X events, fires deadlines, flushes. Runs on the loop thread.
    func pumpOnLoop(socketReadable: Bool) -> PumpResult {
        guard let display = xdisplay, closedError == nil else {
            fireDeadlines()
            return PumpResult(fileDescriptor: nil, deadline: deadlines.nextInstant(), hasMoreWork: false)
        }
        var handled = 0
        var available = socketReadable ? display.readAvailableEvents() : display.queuedEvents
        while available > 0 && handled < 512 && !display.isDead {
            let event = display.nextEvent(fixesEventBase: ownerWatchers.fixesEventBase)
            handle(event)
            handled += 1
            drainErrors()
            // Only what Xlib already holds: new input is found by the next poll, which costs the same
            // syscall as a speculative read and sleeps when there is none.
            available = display.queuedEvents
        }
        drainErrors()
        // The turn's newest pointer motion, once: finding the window under it costs round trips.
        dragSource.flushMotion(on: self)
        fireDeadlines()
        let nextDeadline = deadlines.nextInstant()
        // The turn's one flush comes last, so this thread is in poll right after it: the write wakes the X
        // server on this CPU (see `replied`), and anything done after it only delays the server.
        if !display.isDead { display.flushIfNeeded() }
        if display.isDead {
            tearDown(SelectionError(.connectionLost, "the connection to X display \(displayName) broke"))
            return PumpResult(fileDescriptor: nil, deadline: deadlines.nextInstant(), hasMoreWork: false)
        }
        return PumpResult(
            fileDescriptor: display.fileDescriptor, deadline: nextDeadline,
            hasMoreWork: handled >= 512 || display.queuedEvents > 0)
    }

    private func handle(_ event: X11Event) {
        switch event {
        case .selectionRequest(let request):
            owner.handleSelectionRequest(request, on: self)
        case .selectionNotify(let requestorWindow, let selection, let target, let property, let time):
            guard requestorWindow == window else { return }
            if managing.handover != nil, selection == wellKnown.clipboardManager, target == wellKnown.saveTargets {
                managing.handoverNotified(accepted: !property.isNone, on: self)
                return
            }
            requestor.handleSelectionNotify(selection: selection, target: target, property: property, time: time, on: self)
        case .selectionClear(let clearedWindow, let selection, let time):
            guard clearedWindow == window else { return }
            owner.handleSelectionClear(selection: selection, time: time, on: self)
        case .propertyNotify(let changedWindow, let property, let time, let deleted):
            if changedWindow == window {
                noteServerTime(time)
                handleOwnPropertyChange(property: property, time: time, deleted: deleted)
            }
            if deleted {
                owner.handleRequestorPropertyDeleted(TransferKey(requestor: changedWindow, property: property), on: self)
            } else if changedWindow != window {
                // Another window's new value: a component's to follow (the root's `_NET_ACTIVE_WINDOW`).
                _ = offerToComponents(event)
            }
        case .destroyNotify(let destroyed):
            _ = offerToComponents(event)
            windowVanished(destroyed, .requestorDestroyed)
        case .ownerChange(let change):
            noteServerTime(change.timestamp)
            ownerWatchers.handle(change, on: self)
        case .clientMessage(let window, let type, let format, let words):
            if offerToComponents(event) { return }
            routeClientMessage(window: window, type: type, format: format, words: words)
        case .pointer(let pointer):
            if !dragSource.pointerEvent(pointer, on: self) { _ = offerToComponents(event) }
        case .keyPress(_, let keycode, let time):
            if !dragSource.keyPress(keycode: keycode, time: time, on: self) { _ = offerToComponents(event) }
        case .expose:
            _ = offerToComponents(event)
        case .other:
            break
        }
    }

    /// A ClientMessage no added component took: an XDND message goes to the drag source (answers to our drag,
    /// sent to our window) or to the drop target it is about; anything else (any client may send anything) is
    /// ignored.
    private func routeClientMessage(window: X11Window, type: X11Atom, format: Int, words: [UInt]) {
        guard format == 32, let xdnd = xdndNames, let kind = xdnd.kinds[type],
            let message = XdndMessage.decode(kind, words: words)
        else { return }
        logger.trace("\(kind.rawValue) about \(window): \(message)")
        if kind == .status || kind == .finished {
            if window == self.window { dragSource.messageReceived(message, on: self) }
        } else {
            dropTargets.dropMessageReceived(message, about: window, on: self)
        }
    }

    /// Takes in the server time of an event (`ServerClock`).
    func noteServerTime(_ time: X11Timestamp) {
        clock.note(time)
    }

    private func handleOwnPropertyChange(property: X11Atom, time: X11Timestamp, deleted: Bool) {
        if property == .wmName && !deleted {
            // A fresh server time (`requestServerTime`), asked for by a claim (`serverTime()`) or by reads whose
            // request an owner refused (`.requestTimestamp`); any answer is fresh enough for all of them.
            requestor.serverTimeArrived(time, on: self)
            owner.serverTimeArrived(time, on: self)
            return
        }
        requestor.propertyChanged(property, deleted: deleted, on: self)
    }

    /// Another client's window is gone (DestroyNotify, or BadWindow on a request about it): transfers to it
    /// end, and reads from it end as "owner gone".
    private func windowVanished(_ vanished: X11Window, _ cause: IncrementalSender.DropCause) {
        owner.dropTransfers(to: vanished, cause, on: self)
        windowInterests.forget(vanished)
        managing.resumeGoneWaiters(window: vanished, on: self)
        dropTargets.sourceVanished(vanished, on: self)
        dragSource.targetVanished(vanished, on: self)
        requestor.windowVanished(vanished, on: self)
    }

    // MARK: Errors

    /// Handles queued protocol errors. Errors about a requestor's window are peer failures: the transfers
    /// to it are dropped and logged. Nothing here is fatal.
    func drainErrors() {
        guard let display = xdisplay else { return }
        for error in display.takeErrors() {
            handleProtocolError(error)
        }
    }

    func handleProtocolError(_ error: X11Error) {
        if error.isBadWindow, windowInterests.contains(X11Window(rawValue: error.resourceID)) {
            logger.debug("a watched window vanished: \(error)")
            windowVanished(X11Window(rawValue: error.resourceID), .requestorVanished)
            return
        }
        if error.isBadWindow {
            logger.debug("ignoring X error from a vanished peer: \(error)")
        } else {
            logger.notice("X error: \(error)")
        }
    }

    // MARK: Deadlines

    enum DeadlineKey: Hashable, Sendable {
        case requestor(Requestor.Deadline)
        case owner(Owner.Deadline)
        case dropTargets(DropTargets.Deadline)
        case managing(ClipboardManaging.Deadline)
        case dragSource(DragSource.Deadline)
    }

    private func fireDeadlines() {
        for key in deadlines.popExpired(now: .now) {
            switch key {
            case .requestor(let deadline):
                requestor.deadlinePassed(deadline, on: self)
            case .owner(let deadline):
                owner.deadlinePassed(deadline, on: self)
            case .dropTargets(let deadline):
                dropTargets.deadlinePassed(deadline, on: self)
            case .managing(let deadline):
                managing.deadlinePassed(deadline, on: self)
            case .dragSource(let deadline):
                dragSource.deadlinePassed(deadline, on: self)
            }
        }
    }
}
