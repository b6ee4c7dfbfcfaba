internal import CX11

/// Plain toplevel windows that show lines of text in the server's `fixed` font: what a drag needs to start
/// from and a drop needs to land on (`TextWindow`). Part of the Xlib layer (`XDisplay`): Swift values in and out.
extension XDisplay {
    /// The font metrics lines are laid out with.
    struct LineMetrics: Sendable, Equatable {
        var ascent: Int
        var lineHeight: Int
    }

    /// A mapped InputOutput toplevel (white, black text) that reports exposure, pointer buttons and motion with
    /// a button held, keys, and structure changes. `title` goes to `_NET_WM_NAME` (UTF-8) and `WM_NAME` (Latin-1),
    /// `WM_CLASS` is `clipbridge`/`ClipBridge`, and `WM_PROTOCOLS` names `WM_DELETE_WINDOW` so a window manager's
    /// close button asks instead of killing the connection. `keepAbove` asks the window manager
    /// (`_NET_WM_STATE_ABOVE`) to keep it over other windows, as dragon's `--on-top` does.
    func createTextWindow(
        position: (x: Int, y: Int)?, width: Int, height: Int, title: String, keepAbove: Bool,
        atoms: (wmProtocols: X11Atom, deleteWindow: X11Atom, netWMName: X11Atom, utf8String: X11Atom,
                netWMState: X11Atom, stateAbove: X11Atom)
    ) -> X11Window {
        guard !isDead else { return X11Window(rawValue: 0) }
        let screen = XDefaultScreen(display)
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = XWhitePixel(display, screen)
        attributes.event_mask = ExposureMask | ButtonPressMask | ButtonReleaseMask | ButtonMotionMask | KeyPressMask
            | StructureNotifyMask
        let created = XCreateWindow(
            display, Window(root.rawValue), Int32(clamping: position?.x ?? 0), Int32(clamping: position?.y ?? 0),
            UInt32(max(1, width)), UInt32(max(1, height)), 0, Int32(CopyFromParent), UInt32(InputOutput), nil,
            UInt(CWBackPixel | CWEventMask),
            &attributes)
        let window = X11Window(rawValue: UInt(created))
        var latin1 = Array(title.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") })
        latin1.withUnsafeMutableBytes {
            changeProperty(window, .wmName, type: X11Atom(rawValue: UInt(XA_STRING)), format: 8, bytes: UnsafeRawBufferPointer($0))
        }
        Array(title.utf8).withUnsafeBytes {
            changeProperty(window, atoms.netWMName, type: atoms.utf8String, format: 8, bytes: $0)
        }
        Array("clipbridge\0ClipBridge\0".utf8).withUnsafeBytes {
            changeProperty(window, X11Atom(rawValue: UInt(XA_WM_CLASS)), type: X11Atom(rawValue: UInt(XA_STRING)), format: 8, bytes: $0)
        }
        changeProperty32(
            window, atoms.wmProtocols, type: X11Atom(rawValue: UInt(XA_ATOM)), values: [atoms.deleteWindow.rawValue])
        if keepAbove {
            changeProperty32(
                window, atoms.netWMState, type: X11Atom(rawValue: UInt(XA_ATOM)), values: [atoms.stateAbove.rawValue])
        }
        // Placed where asked (WM_NORMAL_HINTS' USPosition, ICCCM 4.1.2.3), else where the window manager likes.
        var hints = XSizeHints()
        hints.flags = position == nil ? PSize : USPosition | USSize
        hints.x = Int32(clamping: position?.x ?? 0)
        hints.y = Int32(clamping: position?.y ?? 0)
        hints.width = Int32(clamping: width)
        hints.height = Int32(clamping: height)
        XSetWMNormalHints(display, created, &hints)
        XMapRaised(display, created)
        return window
    }

    /// The default font's ascent and line height (the `fixed` font every X server has).
    func lineMetrics() -> LineMetrics {
        guard !isDead else { return LineMetrics(ascent: 11, lineHeight: 15) }
        let gc = XDefaultGC(display, XDefaultScreen(display))
        guard let font = XQueryFont(display, XID(XGContextFromGC(gc))) else { return LineMetrics(ascent: 11, lineHeight: 15) }
        defer { XFreeFontInfo(nil, font, 0) }
        let ascent = Int(font.pointee.ascent)
        return LineMetrics(ascent: ascent, lineHeight: ascent + Int(font.pointee.descent) + 4)
    }

    /// Clears `window` and draws `lines` from the top with a margin; `highlighted` lines get a frame. Text is
    /// drawn in Latin-1 (the core font's encoding): other characters show as `?`.
    func drawLines(_ lines: [String], in window: X11Window, highlighted: Set<Int>, metrics: LineMetrics, width: Int) {
        guard !isDead else { return }
        let screen = XDefaultScreen(display)
        let gc = XDefaultGC(display, screen)
        XSetForeground(display, gc, XBlackPixel(display, screen))
        XClearWindow(display, Window(window.rawValue))
        for (index, line) in lines.enumerated() {
            let top = 6 + index * metrics.lineHeight
            var bytes = line.unicodeScalars.prefix(512).map { $0.value < 256 && $0.value >= 32 ? CChar(bitPattern: UInt8($0.value)) : CChar(63) }
            bytes.withUnsafeMutableBufferPointer { buffer in
                _ = XDrawString(
                    display, Window(window.rawValue), gc, 8, Int32(top + metrics.ascent + 2), buffer.baseAddress,
                    Int32(buffer.count))
            }
            if highlighted.contains(index) {
                XDrawRectangle(
                    display, Window(window.rawValue), gc, 3, Int32(top), UInt32(max(8, width - 7)),
                    UInt32(metrics.lineHeight))
            }
        }
    }

    /// Where `window`'s top-left corner is on the root window, and its size (nil when it is gone).
    func geometry(of window: X11Window) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard !isDead else { return nil }
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, Window(window.rawValue), &attributes) != 0 else { return nil }
        var rootX: Int32 = 0, rootY: Int32 = 0
        var child: Window = 0
        guard XTranslateCoordinates(
            display, Window(window.rawValue), Window(root.rawValue), 0, 0, &rootX, &rootY, &child) != 0
        else { return nil }
        return (Int(rootX), Int(rootY), Int(attributes.width), Int(attributes.height))
    }
}
