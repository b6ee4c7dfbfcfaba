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
        dropTargets.stopWatchingSource(of: state, on: self)
        if state.machine.isTargeted { state.delegate.targeted(false) }
    }

    /// A drop's delegate finished taking it (`DropTargets.carryOut`, `.takeDrop`): back on the loop.
    func dropTaken(on window: X11Window, accepted: Bool, action: X11Atom) {
        dropTargets.dropHandled(window, accepted: accepted, action: action, on: self)
    }
}
