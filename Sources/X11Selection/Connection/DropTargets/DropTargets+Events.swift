import Logging
import FoundationEssentials

/// The drop targets' side of XDND on the wire: client messages in, XdndStatus and XdndFinished out, the drop's
/// data read from `XdndSelection` with the drop's time. Every rule is `XdndTarget`'s; this carries its steps out,
/// isolated to the connection.
extension DropTargets {
    /// An XDND message about `window` from a drag's source (`X11Connection.routeClientMessage`).
    func dropMessageReceived(_ message: XdndMessage, about window: X11Window, on connection: isolated X11Connection) {
        guard let state = targets[window] else { return }
        if case .position(_, let x, let y, _, _) = message { state.lastPosition = (x, y) }
        connection.deadlines.arm(.dropTargets(.idle(window)), at: .now + XdndTarget.idleTimeout)
        carryOut(state.machine.received(message), on: window, state, on: connection)
    }

    /// The source of a drag over `window` went silent for `XdndTarget.idleTimeout`.
    func idlePassed(_ window: X11Window, on connection: isolated X11Connection) {
        guard let state = targets[window] else { return }
        carryOut(state.machine.sourceGone(), on: window, state, on: connection)
    }

    /// A watched window was destroyed: a drag from it is over.
    func sourceVanished(_ vanished: X11Window, on connection: isolated X11Connection) {
        for (window, state) in targets where state.machine.source == vanished {
            state.watchedSource = nil
            carryOut(state.machine.sourceGone(), on: window, state, on: connection)
        }
    }

    private func carryOut(
        _ steps: [XdndTarget.Step], on window: X11Window, _ state: DropTargetState,
        on connection: isolated X11Connection
    ) {
        guard let display = connection.xdisplay, let xdnd = connection.xdndNames else { return }
        for step in steps {
            switch step {
            case .readTypeList(let source):
                // At most 4096 types are read: the list is the source's choice.
                let value = display.getProperty(source, xdnd.typeList, delete: false, offset: 0, length: 4096 * 4)
                let list = value.flatMap { $0.format == 32 ? Format32.values($0.bytes).map(X11Atom.init(rawValue:)) : nil }
                carryOut(state.machine.typesRead(list), on: window, state, on: connection)
            case .entered(let source, let types):
                state.types = ((try? connection.names(for: types)) ?? [])
                    .compactMap { $0.map(SelectionTarget.init(rawValue:)) }
                // The one decision about this drag's types: every position and the drop reuse it.
                state.session = state.delegate.enter(state.types)
                if state.watchedSource != source {
                    stopWatchingSource(of: state, on: connection)
                    // Its destruction ends the drag (`sourceVanished`).
                    connection.watchWindow(source, as: .owner)
                    state.watchedSource = source
                }
                state.delegate.targeted(true)
            case .ask(let x, let y, let action, _):
                let actionName = ((try? connection.names(for: [action]))?.first ?? nil)
                    .map(SelectionTarget.init(rawValue:))
                // The window's own coordinates, asked now: the window may have moved since the last position.
                let local = display.translate(rootX: x, y: y, to: window) ?? (x, y)
                state.lastWindowPosition = local
                let proposal = XdndProposal(
                    types: state.types, x: x, y: y, action: actionName ?? .xdndActionCopy, windowX: local.x,
                    windowY: local.y)
                let answer = state.session?.answer(proposal)
                let answerAtom = answer.flatMap { try? connection.atom(for: $0.rawValue) } ?? .none
                var area = XdndRectangle.empty
                if state.delegate.answerHoldsForWholeWindow, let frame = display.geometry(of: window) {
                    area = XdndRectangle(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
                }
                carryOut(
                    state.machine.decide(accepts: answer != nil, action: answerAtom, rectangle: area), on: window,
                    state, on: connection)
            case .send(let message, let destination):
                guard let type = xdnd.atomsByKind[message.kind] else { continue }
                display.sendClientMessage(to: destination, about: destination, type: type, values: message.words)
            case .left:
                connection.deadlines.cancel(.dropTargets(.idle(window)))
                stopWatchingSource(of: state, on: connection)
                state.session = nil
                state.delegate.targeted(false)
            case .takeDrop(let time, let action):
                connection.deadlines.cancel(.dropTargets(.idle(window)))
                let actionName = ((try? connection.names(for: [action]))?.first ?? nil)
                    .map(SelectionTarget.init(rawValue:))
                let drop = XdndDrop(
                    types: state.types, x: state.lastPosition.x, y: state.lastPosition.y,
                    windowX: state.lastWindowPosition.x, windowY: state.lastWindowPosition.y,
                    action: actionName ?? .xdndActionCopy, time: time, source: state.machine.source ?? X11Window(rawValue: 0),
                    connection: connection)
                // The drop's reads carry its time themselves (`XdndDrop.time`); a session exists, as the last
                // status accepted.
                let session = state.session
                Task.detached {
                    let taken = await session?.take(drop) ?? false
                    await connection.dropTaken(on: window, accepted: taken, action: action)
                }
            }
        }
        display.flush()
    }

    func dropHandled(_ window: X11Window, accepted: Bool, action: X11Atom, on connection: isolated X11Connection) {
        guard let state = targets[window] else { return }
        let steps = state.machine.dropHandled(accepted: accepted, action: action)
        // No steps: the drag was over already (its source vanished during the drop), and said so.
        guard !steps.isEmpty else { return }
        carryOut(steps, on: window, state, on: connection)
        stopWatchingSource(of: state, on: connection)
        state.session = nil
        state.delegate.targeted(false)
    }

    func stopWatchingSource(of state: DropTargetState, on connection: isolated X11Connection) {
        guard let source = state.watchedSource else { return }
        connection.unwatchWindow(source, as: .owner)
        state.watchedSource = nil
    }
}
