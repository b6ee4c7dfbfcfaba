import Logging
import FoundationEssentials

/// The drop target's side of XDND on the wire: XdndAware and XdndProxy on the target window, client messages in,
/// XdndStatus and XdndFinished out, the drop's data read from `XdndSelection` with the drop's time. Every rule is
/// `XdndTarget`'s; this carries its steps out.
extension X11Connection {
    /// Makes `window` (a toplevel of this process or of another client; this connection's own window when nil)
    /// a drop target: drags over it are put to `delegate`, which makes its plan for each drag once, when it enters.
    ///
    /// A window of another client (a GTK, Qt, SDL or raw Xlib app's XID) gets `XdndAware` (version 5) and an
    /// `XdndProxy` naming this connection's window, which names itself too (the spec's check that a proxy is
    /// not stale): sources then send their messages here, still naming `window` as the target.
    public func registerDropTarget(on window: X11Window? = nil, delegate: XdndDropDelegate) throws {
        let display = try requireDisplay()
        let xdnd = try xdndAtoms()
        let target = window ?? self.window
        display.changeProperty32(target, xdnd.aware, type: wellKnown.atom, values: [UInt(XdndMessage.version)])
        if target != self.window && !added.windows.contains(target) {
            display.changeProperty32(target, xdnd.proxy, type: xdnd.window, values: [self.window.rawValue])
            display.changeProperty32(self.window, xdnd.proxy, type: xdnd.window, values: [self.window.rawValue])
            // GTK's sources read XdndAware from the proxy rather than the window (gdkdrag-x11.c, xdnd_check_dest).
            display.changeProperty32(self.window, xdnd.aware, type: wellKnown.atom, values: [UInt(XdndMessage.version)])
        }
        dropTargets.targets[target] = DropTargetState(window: target, delegate: delegate)
        display.flush()
    }

    /// Stops taking drops on `window` (this connection's own window when nil): its XdndAware and XdndProxy go.
    public func unregisterDropTarget(on window: X11Window? = nil) {
        let target = window ?? self.window
        guard let state = dropTargets.targets.removeValue(forKey: target), let display = xdisplay, let xdnd = try? xdndAtoms()
        else { return }
        display.deleteProperty(target, xdnd.aware)
        if target != self.window && !added.windows.contains(target) { display.deleteProperty(target, xdnd.proxy) }
        stopWatchingSource(of: state)
        if state.machine.isTargeted { state.delegate.targeted(false) }
    }

    /// An XDND message about `window` from a drag's source (`X11Connection.routeClientMessage`).
    func dropMessageReceived(_ message: XdndMessage, about window: X11Window) {
        guard let state = dropTargets.targets[window] else { return }
        if case .position(_, let x, let y, _, _) = message { state.lastPosition = (x, y) }
        deadlines.arm(.dropTargets(.idle(window)), at: .now + XdndTarget.idleTimeout)
        carryOut(state.machine.received(message), on: window, state)
    }

    /// The source of a drag over `window` went silent for `XdndTarget.idleTimeout`.
    func dropIdleDeadlinePassed(_ window: X11Window) {
        guard let state = dropTargets.targets[window] else { return }
        carryOut(state.machine.sourceGone(), on: window, state)
    }

    /// A watched window was destroyed: a drag from it is over.
    func dragSourceVanished(_ vanished: X11Window) {
        for (window, state) in dropTargets.targets where state.machine.source == vanished {
            state.watchedSource = nil
            carryOut(state.machine.sourceGone(), on: window, state)
        }
    }

    private func carryOut(_ steps: [XdndTarget.Step], on window: X11Window, _ state: DropTargetState) {
        guard let display = xdisplay, let xdnd = xdndNames else { return }
        for step in steps {
            switch step {
            case .readTypeList(let source):
                // At most 4096 types are read: the list is the source's choice.
                let value = display.getProperty(source, xdnd.typeList, delete: false, offset: 0, length: 4096 * 4)
                let list = value.flatMap { $0.format == 32 ? Format32.values($0.bytes).map(X11Atom.init(rawValue:)) : nil }
                carryOut(state.machine.typesRead(list), on: window, state)
            case .entered(let source, let types):
                state.types = ((try? names(for: types)) ?? []).compactMap { $0.map(SelectionTarget.init(rawValue:)) }
                // The one decision about this drag's types: every position and the drop reuse it.
                state.session = state.delegate.enter(state.types)
                if state.watchedSource != source {
                    stopWatchingSource(of: state)
                    // Its destruction ends the drag (`dragSourceVanished`).
                    watchWindow(source, as: .owner)
                    state.watchedSource = source
                }
                state.delegate.targeted(true)
            case .ask(let x, let y, let action, _):
                let actionName = ((try? names(for: [action]))?.first ?? nil).map(SelectionTarget.init(rawValue:))
                // The window's own coordinates, asked now: the window may have moved since the last position.
                let local = display.translate(rootX: x, y: y, to: window) ?? (x, y)
                state.lastWindowPosition = local
                let proposal = XdndProposal(
                    types: state.types, x: x, y: y, action: actionName ?? .xdndActionCopy, windowX: local.x,
                    windowY: local.y)
                let answer = state.session?.answer(proposal)
                let answerAtom = answer.flatMap { try? atom(for: $0.rawValue) } ?? .none
                var area = XdndRectangle.empty
                if state.delegate.answerHoldsForWholeWindow, let frame = display.geometry(of: window) {
                    area = XdndRectangle(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
                }
                carryOut(state.machine.decide(accepts: answer != nil, action: answerAtom, rectangle: area), on: window, state)
            case .send(let message, let destination):
                guard let type = xdnd.atomsByKind[message.kind] else { continue }
                display.sendClientMessage(to: destination, about: destination, type: type, values: message.words)
            case .left:
                deadlines.cancel(.dropTargets(.idle(window)))
                stopWatchingSource(of: state)
                state.session = nil
                state.delegate.targeted(false)
            case .takeDrop(let time, let action):
                deadlines.cancel(.dropTargets(.idle(window)))
                let actionName = ((try? names(for: [action]))?.first ?? nil).map(SelectionTarget.init(rawValue:))
                let drop = XdndDrop(
                    types: state.types, x: state.lastPosition.x, y: state.lastPosition.y,
                    windowX: state.lastWindowPosition.x, windowY: state.lastWindowPosition.y,
                    action: actionName ?? .xdndActionCopy, time: time, source: state.machine.source ?? X11Window(rawValue: 0),
                    connection: self)
                // The drop's reads carry its time themselves (`XdndDrop.time`); a session exists, as the last
                // status accepted.
                let session = state.session
                Task.detached {
                    let taken = await session?.take(drop) ?? false
                    await self.dropTaken(on: window, accepted: taken, action: action)
                }
            }
        }
        display.flush()
    }

    private func dropTaken(on window: X11Window, accepted: Bool, action: X11Atom) {
        guard let state = dropTargets.targets[window] else { return }
        let steps = state.machine.dropHandled(accepted: accepted, action: action)
        // No steps: the drag was over already (its source vanished during the drop), and said so.
        guard !steps.isEmpty else { return }
        carryOut(steps, on: window, state)
        stopWatchingSource(of: state)
        state.session = nil
        state.delegate.targeted(false)
    }

    private func stopWatchingSource(of state: DropTargetState) {
        guard let source = state.watchedSource else { return }
        unwatchWindow(source, as: .owner)
        state.watchedSource = nil
    }
}
