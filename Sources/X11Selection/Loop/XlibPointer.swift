internal import CX11

/// The pointer and keyboard as a drag source needs them: active grabs that route every pointer event and the
/// Escape key to this client, the pointer's position, and the window under it. Part of the Xlib layer
/// (`XDisplay`): Swift values in and out.
extension XDisplay {
    /// Where the pointer is and what is held.
    struct PointerState: Sendable, Equatable {
        var rootX: Int
        var rootY: Int
        /// A button 1, 2 or 3 is held (4 to 7 are wheel clicks, never held).
        var buttonHeld: Bool
        var modifiers: DragModifiers
    }

    /// Why a grab failed (XGrabPointer / XGrabKeyboard's status), or `.success`.
    enum GrabStatus: Sendable, Equatable {
        case success
        /// Another client holds an active grab (a button pressed in its window holds one too).
        case alreadyGrabbed
        case invalidTime
        case notViewable
        case frozen
        case failed

        init(_ status: Int32) {
            switch status {
            case GrabSuccess: self = .success
            case AlreadyGrabbed: self = .alreadyGrabbed
            case GrabInvalidTime: self = .invalidTime
            case GrabNotViewable: self = .notViewable
            case GrabFrozen: self = .frozen
            default: self = .failed
            }
        }
    }

    /// Grabs the pointer on the root window (always viewable), so motion, presses and releases anywhere come
    /// to this client reported in root coordinates, with `cursor` shown.
    func grabPointer(cursor: UInt, time: X11Timestamp) -> GrabStatus {
        guard !isDead else { return .failed }
        let mask = UInt32(ButtonPressMask | ButtonReleaseMask | PointerMotionMask)
        return GrabStatus(XGrabPointer(
            display, Window(root.rawValue), 0, mask, GrabModeAsync, GrabModeAsync, Window(None), Cursor(cursor),
            Time(time.rawValue)))
    }

    /// Shows `cursor` for the active pointer grab (a drag's accept / refuse feedback).
    func changeGrabCursor(_ cursor: UInt, time: X11Timestamp) {
        guard !isDead else { return }
        let mask = UInt32(ButtonPressMask | ButtonReleaseMask | PointerMotionMask)
        XChangeActivePointerGrab(display, mask, Cursor(cursor), Time(time.rawValue))
    }

    func ungrabPointer(time: X11Timestamp) {
        guard !isDead else { return }
        XUngrabPointer(display, Time(time.rawValue))
    }

    /// Grabs the keyboard on the root window (for Escape during a drag).
    func grabKeyboard(time: X11Timestamp) -> GrabStatus {
        guard !isDead else { return .failed }
        return GrabStatus(XGrabKeyboard(
            display, Window(root.rawValue), 0, GrabModeAsync, GrabModeAsync, Time(time.rawValue)))
    }

    func ungrabKeyboard(time: X11Timestamp) {
        guard !isDead else { return }
        XUngrabKeyboard(display, Time(time.rawValue))
    }

    /// A cursor from the X cursor font (`X11/cursorfont.h` shape numbers); 0 when it cannot be made.
    func fontCursor(_ shape: UInt32) -> UInt {
        guard !isDead else { return 0 }
        return UInt(XCreateFontCursor(display, shape))
    }

    func freeCursor(_ cursor: UInt) {
        guard !isDead, cursor != 0 else { return }
        XFreeCursor(display, Cursor(cursor))
    }

    /// The keycode that produces `keysym` (0 when no key does), e.g. Escape's 0xFF1B.
    package func keycode(forKeysym keysym: UInt) -> UInt8 {
        guard !isDead else { return 0 }
        return UInt8(XKeysymToKeycode(display, KeySym(keysym)))
    }

    /// The pointer's position and state (XQueryPointer); nil when the server could not be asked.
    func queryPointer() -> PointerState? {
        guard !isDead else { return nil }
        var rootReturn: Window = 0, childReturn: Window = 0
        var rootX: Int32 = 0, rootY: Int32 = 0, windowX: Int32 = 0, windowY: Int32 = 0
        var mask: UInt32 = 0
        guard XQueryPointer(
            display, Window(root.rawValue), &rootReturn, &childReturn, &rootX, &rootY, &windowX, &windowY, &mask) != 0
        else { return nil }
        let buttons = UInt32(Button1Mask | Button2Mask | Button3Mask)
        return PointerState(
            rootX: Int(rootX), rootY: Int(rootY), buttonHeld: mask & buttons != 0,
            modifiers: DragModifiers(state: mask))
    }

    /// The root point (`x`, `y`) in `window`'s coordinates (nil when `window` is gone).
    func translate(rootX x: Int, y: Int, to window: X11Window) -> (x: Int, y: Int)? {
        guard !isDead else { return nil }
        var windowX: Int32 = 0, windowY: Int32 = 0
        var child: Window = 0
        guard XTranslateCoordinates(
            display, Window(root.rawValue), Window(window.rawValue), Int32(clamping: x), Int32(clamping: y), &windowX,
            &windowY, &child) != 0
        else { return nil }
        return (Int(windowX), Int(windowY))
    }

    /// The mapped child of `window` that contains the root point (`x`, `y`), or nil (XTranslateCoordinates:
    /// one round trip; nil too when `window` is gone).
    func child(of window: X11Window, containingRootX x: Int, y: Int) -> X11Window? {
        guard !isDead else { return nil }
        var windowX: Int32 = 0, windowY: Int32 = 0
        var child: Window = 0
        guard XTranslateCoordinates(
            display, Window(root.rawValue), Window(window.rawValue), Int32(clamping: x), Int32(clamping: y), &windowX,
            &windowY, &child) != 0, child != 0
        else { return nil }
        return X11Window(rawValue: UInt(child))
    }
}

extension DragModifiers {
    /// From an event's or XQueryPointer's state mask.
    init(state: UInt32) {
        var modifiers: DragModifiers = []
        if state & UInt32(ShiftMask) != 0 { modifiers.insert(.shift) }
        if state & UInt32(ControlMask) != 0 { modifiers.insert(.control) }
        self = modifiers
    }
}
