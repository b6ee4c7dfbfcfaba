internal import CX11
import Glibc

/// Plain toplevel windows that show lines of text in the server's `fixed` font: what a drag needs to start
/// from and a drop needs to land on (`TextWindow`). Part of the Xlib layer (`XDisplay`): Swift values in and out.
extension XDisplay {
    /// The font metrics lines are laid out with.
    package struct LineMetrics: Sendable, Equatable {
        var ascent: Int
        package var lineHeight: Int
    }

    /// A mapped InputOutput toplevel (white, black text) that reports exposure, pointer buttons and motion with
    /// a button held, keys, and structure changes. `title` goes to `_NET_WM_NAME` (UTF-8) and `WM_NAME` (Latin-1),
    /// `WM_CLASS` is `clipbridge`/`ClipBridge`, and `WM_PROTOCOLS` names `WM_DELETE_WINDOW` so a window manager's
    /// close button asks instead of killing the connection. `keepAbove` asks the window manager
    /// (`_NET_WM_STATE_ABOVE`) to keep it over other windows, as dragon's `--on-top` does.
    package func createTextWindow(
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
    package func lineMetrics() -> LineMetrics {
        guard !isDead else { return LineMetrics(ascent: 11, lineHeight: 15) }
        let gc = XDefaultGC(display, XDefaultScreen(display))
        guard let font = XQueryFont(display, XID(XGContextFromGC(gc))) else { return LineMetrics(ascent: 11, lineHeight: 15) }
        defer { XFreeFontInfo(nil, font, 0) }
        let ascent = Int(font.pointee.ascent)
        return LineMetrics(ascent: ascent, lineHeight: ascent + Int(font.pointee.descent) + 4)
    }

    /// Clears `window` and draws `lines` from the top with a margin, each after its icon when it has one (in a
    /// column `iconSize` wide); `highlighted` lines get a frame. Text is drawn in Latin-1 (the core font's
    /// encoding): other characters show as `?`.
    package func drawLines(
        _ lines: [String], in window: X11Window, highlighted: Set<Int>, icons: [Int: WindowIcon], iconSize: Int,
        metrics: LineMetrics, width: Int
    ) {
        guard !isDead else { return }
        let screen = XDefaultScreen(display)
        let gc = XDefaultGC(display, screen)
        XSetForeground(display, gc, XBlackPixel(display, screen))
        XClearWindow(display, Window(window.rawValue))
        for (index, line) in lines.enumerated() {
            let top = 6 + index * metrics.lineHeight
            var bytes = line.unicodeScalars.prefix(512).map { $0.value < 256 && $0.value >= 32 ? CChar(bitPattern: UInt8($0.value)) : CChar(63) }
            bytes.withUnsafeMutableBufferPointer { buffer in
                let textX = iconSize > 0 ? iconSize + 14 : 8
                let baseline = top + (metrics.lineHeight + metrics.ascent) / 2 - 1
                _ = XDrawString(
                    display, Window(window.rawValue), gc, Int32(textX), Int32(baseline), buffer.baseAddress,
                    Int32(buffer.count))
            }
            if let icon = icons[index] {
                putIcon(icon, in: window, x: 8 + (iconSize - icon.width) / 2, y: top + (metrics.lineHeight - icon.height) / 2)
            }
            if highlighted.contains(index) {
                XDrawRectangle(
                    display, Window(window.rawValue), gc, 3, Int32(top), UInt32(max(8, width - 7)),
                    UInt32(metrics.lineHeight))
            }
        }
    }

    /// Draws `icon` at (`x`, `y`), composited over white, when the screen's default visual is 24-bit TrueColor
    /// with the usual masks (every X server a desktop runs; anything else shows no icon).
    func putIcon(_ icon: WindowIcon, in window: X11Window, x: Int, y: Int) {
        guard !isDead, icon.width > 0, icon.height > 0, icon.rgba.count == icon.width * icon.height * 4 else { return }
        let screen = XDefaultScreen(display)
        guard let visual = XDefaultVisual(display, screen), XDefaultDepth(display, screen) == 24,
            visual.pointee.red_mask == 0xFF0000, visual.pointee.green_mask == 0xFF00, visual.pointee.blue_mask == 0xFF
        else { return }
        let count = icon.width * icon.height
        // XDestroyImage frees the buffer with free(3).
        guard let buffer = malloc(count * 4)?.bindMemory(to: UInt32.self, capacity: count) else { return }
        icon.rgba.withUnsafeBytes { raw in
            let rgba = raw.bindMemory(to: UInt8.self)
            for index in 0..<count {
                let alpha = UInt32(rgba[index * 4 + 3])
                func over(_ value: UInt8) -> UInt32 { (UInt32(value) * alpha + 255 * (255 - alpha)) / 255 }
                buffer[index] = over(rgba[index * 4]) << 16 | over(rgba[index * 4 + 1]) << 8 | over(rgba[index * 4 + 2])
            }
        }
        guard let image = XCreateImage(
            display, visual, 24, ZPixmap, 0, UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: CChar.self),
            UInt32(icon.width), UInt32(icon.height), 32, 0)
        else {
            free(buffer)
            return
        }
        // The buffer holds host-order 32-bit pixels.
        image.pointee.byte_order = 1.littleEndian == 1 ? LSBFirst : MSBFirst
        XPutImage(
            display, Window(window.rawValue), XDefaultGC(display, screen), image, 0, 0, Int32(x), Int32(y),
            UInt32(icon.width), UInt32(icon.height))
        // XDestroyImage is a macro over the image's own destroy function.
        _ = image.pointee.f.destroy_image(image)
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
