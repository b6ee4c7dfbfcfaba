internal import CX11
import CX11Shims

/// The selection side of the Xlib door (`XDisplay`): server time, owners, conversions and their
/// notifications, client messages, XFixes owner-change events, and the look into Xlib's queue for
/// SelectionClear and PropertyNotify that claims and the blocking reader need. Swift values in and out; called
/// only by the thread in the loop's role, like the rest of `XDisplay`.
extension XDisplay {
    // MARK: Server time

    /// Asks the server for its time — the one way every part of the engine does (ICCCM 2.1; GTK's
    /// `gdk_x11_get_server_time` and xsel do the same): a zero-length append to `window`'s WM_NAME, whose
    /// PropertyNotify carries the time. WM_NAME is predefined, so the request needs no InternAtom reply first;
    /// our windows are never mapped and have no other use for it.
    func requestServerTime(on window: X11Window) {
        changeProperty(window, .wmName, type: .string, format: 8, append: true, bytes: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// The time of a `requestServerTime(on:)` answer already queued by Xlib, if one is.
    func takeServerTime(on window: X11Window) -> X11Timestamp? {
        takePropertyNotify(window: window, property: .wmName)
    }

    /// Takes a queued PropertyNotify(NewValue) for `property` on `window` out of Xlib's queue, leaving every
    /// other event queued in order; its time, or nil when none is queued (does not read the socket).
    func takePropertyNotify(window: X11Window, property: X11Atom) -> X11Timestamp? {
        guard !isClosed else { return nil }
        var event = XEvent()
        while XCheckTypedWindowEvent(display, Window(window.rawValue), PropertyNotify, &event) != 0 {
            if event.xproperty.atom == Atom(property.rawValue), event.xproperty.state == PropertyNewValue {
                return X11Timestamp(rawValue: UInt(event.xproperty.time))
            }
        }
        return nil
    }

    /// Whether Xlib's queue holds events and every one of them is a SelectionClear of `selection` on
    /// `window`; removes nothing (does not read the socket).
    func queueHoldsOnlySelectionClear(window: X11Window, selection: X11Atom) -> Bool {
        guard !isClosed, queuedEvents > 0 else { return false }
        // XCheckIfEvent offers every queued event to the predicate, in order; one that never matches
        // looks at the whole queue and leaves it as it was.
        var scan = SelectionClearScan(window: Window(window.rawValue), selection: Atom(selection.rawValue))
        var event = XEvent()
        withUnsafeMutablePointer(to: &scan) { pointer in
            _ = XCheckIfEvent(display, &event, { _, event, argument in
                guard let event, let argument else { return 0 }
                let scan = UnsafeMutableRawPointer(argument).assumingMemoryBound(to: SelectionClearScan.self)
                let isClear = event.pointee.type == SelectionClear
                    && event.pointee.xselectionclear.window == scan.pointee.window
                    && event.pointee.xselectionclear.selection == scan.pointee.selection
                if !isClear { scan.pointee.onlyClears = false }
                return 0
            }, UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: CChar.self))
        }
        return scan.onlyClears
    }

    /// Takes queued SelectionClear events for `window` out of Xlib's queue, leaving every other event
    /// queued in order (does not read the socket).
    func discardSelectionClears(window: X11Window) {
        guard !isClosed else { return }
        var event = XEvent()
        while XCheckTypedWindowEvent(display, Window(window.rawValue), SelectionClear, &event) != 0 {}
    }

    // MARK: Selections

    func setSelectionOwner(_ selection: X11Atom, _ owner: X11Window?, time: X11Timestamp) {
        guard !isDead else { return }
        XSetSelectionOwner(display, Atom(selection.rawValue), Window(owner?.rawValue ?? 0), Time(time.rawValue))
    }

    func selectionOwner(_ selection: X11Atom) -> X11Window? {
        guard !isDead else { return nil }
        let owner = XGetSelectionOwner(display, Atom(selection.rawValue))
        return owner == 0 ? nil : X11Window(rawValue: UInt(owner))
    }

    /// Whether a pointer button (1 to 3) is held down now: a PRIMARY selection is still being dragged out while
    /// one is. Nil when the server could not be asked.
    func pointerButtonHeld() -> Bool? {
        queryPointer()?.buttonHeld
    }

    func convertSelection(
        _ selection: X11Atom, target: X11Atom, property: X11Atom, requestor: X11Window, time: X11Timestamp?
    ) {
        guard !isDead else { return }
        XConvertSelection(
            display, Atom(selection.rawValue), Atom(target.rawValue), Atom(property.rawValue),
            Window(requestor.rawValue), Time(time?.rawValue ?? UInt(CurrentTime)))
    }

    /// Sends the SelectionNotify that answers a SelectionRequest (property `none` = refused).
    func sendSelectionNotify(
        requestor: X11Window, selection: X11Atom, target: X11Atom, property: X11Atom, time: X11Timestamp
    ) {
        guard !isDead else { return }
        var event = XEvent()
        event.xselection.type = SelectionNotify
        event.xselection.send_event = 1
        event.xselection.display = display
        event.xselection.requestor = Window(requestor.rawValue)
        event.xselection.selection = Atom(selection.rawValue)
        event.xselection.target = Atom(target.rawValue)
        event.xselection.property = Atom(property.rawValue)
        event.xselection.time = Time(time.rawValue)
        XSendEvent(display, Window(requestor.rawValue), 0, NoEventMask, &event)
    }

    /// Sends a format-32 client message about `window` to the root window, to the clients that select
    /// StructureNotify on it (ICCCM 2.8's MANAGER announcement).
    func sendRootClientMessage(type: X11Atom, window: X11Window, values: [UInt]) {
        sendClientMessage(to: root, about: root, type: type, values: values, mask: StructureNotifyMask)
    }

    /// Sends a format-32 client message to the client that created `destination` (no event mask), naming
    /// `window` in the event — XDND's messages, where `window` is the target even when a proxy receives them.
    func sendClientMessage(to destination: X11Window, about window: X11Window, type: X11Atom, values: [UInt]) {
        sendClientMessage(to: destination, about: window, type: type, values: values, mask: NoEventMask)
    }

    private func sendClientMessage(to destination: X11Window, about window: X11Window, type: X11Atom, values: [UInt], mask: Int) {
        guard !isDead else { return }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.display = display
        event.xclient.window = Window(window.rawValue)
        event.xclient.message_type = Atom(type.rawValue)
        event.xclient.format = 32
        withUnsafeMutableBytes(of: &event.xclient.data.l) { raw in
            let slots = raw.bindMemory(to: Int.self)
            for (index, value) in values.prefix(slots.count).enumerated() { slots[index] = Int(bitPattern: value) }
        }
        XSendEvent(display, Window(destination.rawValue), 0, mask, &event)
    }

    // MARK: XFixes

    /// The XFixes event base, or nil when the server lacks the extension.
    func queryFixesExtension() -> Int32? {
        guard !isDead else { return nil }
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard XFixesQueryExtension(display, &eventBase, &errorBase) != 0 else { return nil }
        var major: Int32 = 0
        var minor: Int32 = 0
        guard XFixesQueryVersion(display, &major, &minor) != 0, major >= 1 else { return nil }
        return eventBase
    }

    /// Selects all three XFixes selection notifications (new owner, owner window destroyed, client closed).
    func selectOwnerChanges(_ window: X11Window, selection: X11Atom, enabled: Bool) {
        guard !isDead else { return }
        let mask = enabled
            ? UInt(XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask
                | XFixesSelectionClientCloseNotifyMask)
            : 0
        XFixesSelectSelectionInput(display, Window(window.rawValue), Atom(selection.rawValue), mask)
    }
}

/// What `XDisplay.queueHoldsOnlySelectionClear` looks for, and what it found.
private struct SelectionClearScan {
    let window: Window
    let selection: Atom
    var onlyClears = true
}
