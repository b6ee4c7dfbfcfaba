internal import CX11
import CX11Shims
import FoundationEssentials
import Glibc
import Synchronization

/// The connection layer's only door to Xlib (and to the XCB connection under it, for property reads): thin
/// wrappers over the raw calls, taking and returning Swift values (the `Syscalls.swift` of swift-system).
/// Every method must be called by the thread in the loop's role — the loop thread that opened the Display,
/// or a caller on loan (`X11EventLoop.lend`); `X11Connection` (an actor pinned to that loop) is the only user.
package final class XDisplay {
    /// The Xlib `Display *` (used only by the methods of this type, here and in the other Xlib*.swift files).
    let display: OpaquePointer
    let root: X11Window
    let fileDescriptor: Int32
    private(set) var isClosed = false

    /// Opens `name`; nil when the server cannot be reached.
    ///
    /// - Parameter withoutKeyboardExtension: skip Xlib's XKB set-up (QueryExtension and XkbUseExtension, two
    ///   round trips), which a selection client never uses. For the single-threaded pieces of short-lived
    ///   processes; the switch is process-wide in Xlib, so it is turned off again right after the open.
    static func open(_ name: String, withoutKeyboardExtension: Bool = false) -> XDisplay? {
        CX11Shims_installHandlers()
        if withoutKeyboardExtension { _ = XkbIgnoreExtension(1) }
        let opened = XOpenDisplay(name)
        if withoutKeyboardExtension { _ = XkbIgnoreExtension(0) }
        guard let display = opened else { return nil }
        guard CX11Shims_adoptDisplay(display) == 0 else {
            XCloseDisplay(display)
            return nil
        }
        return XDisplay(display)
    }

    private init(_ display: OpaquePointer) {
        self.display = display
        root = X11Window(rawValue: XDefaultRootWindow(display))
        fileDescriptor = XConnectionNumber(display)
    }

    /// Identifies the X server behind this connection however its name was spelled (`:1`, `:1.0` and
    /// `unix:1` reach the same socket): the peer address of the connection's socket, as hex bytes (the
    /// abstract or file socket path for local servers, address and port for TCP). Nil if the socket has
    /// no peer address.
    var serverAddress: String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fileDescriptor, $0, &length) }
        }
        guard rc == 0, length > 0 else { return nil }
        return withUnsafeBytes(of: &storage) { raw in
            raw.prefix(Int(length)).map { byte in
                let digits = String(byte, radix: 16)
                return byte < 16 ? "0" + digits : digits
            }.joined()
        }
    }

    /// True once the connection broke (the IO error handler ran).
    ///
    /// Every method below that makes a request checks it first and does nothing on a dead connection: once
    /// Xlib has seen an IO error, building a request returns a null request buffer that some of its calls
    /// (`XDeleteProperty` in libX11 1.8.4) write through — a crash, seen when the X server was killed under
    /// reads, as a read that failed then deleted its property.
    var isDead: Bool { isClosed || CX11Shims_isDisplayDead(display) != 0 }

    /// Closes the connection (also fine on a dead one) and forgets it in the error trampolines.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        XCloseDisplay(display)
        CX11Shims_releaseDisplay(display)
    }

    /// The largest request the server accepts, in bytes (BIG-REQUESTS when available).
    var maximumRequestBytes: Int {
        let extended = XExtendedMaxRequestSize(display)
        let units = extended > 0 ? extended : XMaxRequestSize(display)
        return Int(units) * 4
    }

    // MARK: Requests and events

    /// The serial number the next request will get (for attributing asynchronous errors).
    var nextRequestSerial: UInt { UInt(XNextRequest(display)) }

    /// `nextRequestSerial` at the last flush.
    private var flushedSerial: UInt = 0

    package func flush() {
        guard !isDead else { return }
        XFlush(display)
        flushedSerial = nextRequestSerial
    }

    /// Flushes only when a request was made since the last flush. `XFlush` always ends with a non-blocking
    /// read of the socket (`_XFlush` calls `_XEventsQueued(QueuedAfterReading)`: one or two `recvmsg` that
    /// find nothing on most loop turns). Without a request there is nothing to send and nothing Xlib could
    /// have set aside (a round trip is a request too), and new input is reported by the loop's `poll`.
    func flushIfNeeded() {
        if nextRequestSerial != flushedSerial { flush() }
    }

    /// One round trip: every error caused by earlier requests has been reported afterwards.
    func sync() {
        guard !isDead else { return }
        XSync(display, 0)
    }

    /// Blocks in poll(2) until the connection's socket has input or `deadline` passes (for the
    /// single-threaded pieces, which have no event loop). False when the socket reports an error or hang-up
    /// without input: the connection is gone.
    func waitForInput(until deadline: ContinuousClock.Instant) -> Bool {
        let milliseconds = deadline.pollTimeoutFromNow
        guard milliseconds > 0 else { return true }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&descriptor, 1, milliseconds)
        if ready < 0 { return errno == EINTR }
        return ready == 0 || descriptor.revents & Int16(POLLIN) != 0
            || descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) == 0
    }

    /// Events already in Xlib's queue, without reading the socket (none once closed: libX11 1.8 locks the
    /// Display for this, and a closed one has no lock left to take).
    var queuedEvents: Int { isClosed ? 0 : Int(XEventsQueued(display, QueuedAlready)) }

    /// Events in the queue after a non-blocking read of whatever the socket holds.
    func readAvailableEvents() -> Int { isDead ? 0 : Int(XEventsQueued(display, QueuedAfterReading)) }

    /// The next queued event, decoded; only call when `queuedEvents > 0` (XNextEvent would block).
    func nextEvent(fixesEventBase: Int32?) -> X11Event {
        var event = XEvent()
        XNextEvent(display, &event)
        return X11Event(decoding: &event, fixesEventBase: fixesEventBase)
    }

    /// Protocol errors reported since the last call, oldest first.
    func takeErrors() -> [X11Error] {
        var errors: [X11Error] = []
        var raw = CX11Shims_Error()
        while CX11Shims_takeError(display, &raw) != 0 {
            errors.append(X11Error(raw))
        }
        return errors
    }

    // MARK: Atoms

    /// Interns one name (a round trip: Xlib flushes the output buffer and waits for the reply).
    func internAtom(_ name: String) -> X11Atom {
        guard !isDead else { return .none }
        return X11Atom(rawValue: UInt(XInternAtom(display, name, 0)))
    }

    func internAtoms(_ names: [String]) -> [X11Atom] {
        guard !isDead else { return names.map { _ in .none } }
        guard !names.isEmpty else { return [] }
        var cStrings = names.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var atoms = [Atom](repeating: 0, count: names.count)
        _ = cStrings.withUnsafeMutableBufferPointer { strings in
            XInternAtoms(display, strings.baseAddress, Int32(names.count), 0, &atoms)
        }
        return atoms.map { X11Atom(rawValue: UInt($0)) }
    }

    /// The names of `atoms`, nil for each atom the server does not know.
    ///
    /// One GetAtomName request per atom through XCB, all sent before the first reply is read (one round trip
    /// in all), each reply or error matched to its own request. Not `XGetAtomNames`: its reply handler
    /// does not advance past an atom that failed (BadAtom), so every later name lands one slot early — a
    /// TARGETS list with an unknown atom in it would name the wrong targets (libX11 1.8, GetAtomNm.c).
    func atomNames(_ atoms: [X11Atom]) -> [String?] {
        guard !isDead else { return atoms.map { _ in nil } }
        guard !atoms.isEmpty else { return [] }
        // Xlib's buffered requests go first, so the two streams stay in order.
        XFlush(display)
        let connection = XGetXCBConnection(display)
        let cookies = atoms.map { xcb_get_atom_name(connection, xcb_atom_t(truncatingIfNeeded: $0.rawValue)) }
        var names: [String?] = []
        names.reserveCapacity(atoms.count)
        for cookie in cookies {
            var error: UnsafeMutablePointer<xcb_generic_error_t>?
            let reply = xcb_get_atom_name_reply(connection, cookie, &error)
            if let error { free(error) }
            guard let reply else {
                names.append(nil)
                continue
            }
            let length = Int(xcb_get_atom_name_name_length(reply))
            let name = xcb_get_atom_name_name(reply).map { pointer in
                String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
            }
            names.append(name)
            free(reply)
        }
        if xcb_connection_has_error(connection) != 0 {
            // As in `getProperty`: make Xlib notice the broken connection.
            XSync(display, 0)
            return atoms.map { _ in nil }
        }
        // Events XCB read while waiting move into Xlib's queue (see `getProperty`).
        flush()
        return names
    }

    // MARK: Windows

    /// An unmapped InputOnly window that receives PropertyNotify (our requestor and owner identity).
    func createUtilityWindow() -> X11Window {
        var attributes = XSetWindowAttributes()
        attributes.event_mask = PropertyChangeMask
        let window = XCreateWindow(
            display, Window(root.rawValue), -10, -10, 1, 1, 0, 0, UInt32(InputOnly), nil,
            UInt(CWEventMask), &attributes)
        return X11Window(rawValue: UInt(window))
    }

    package func destroyWindow(_ window: X11Window) {
        guard !isDead else { return }
        XDestroyWindow(display, Window(window.rawValue))
    }

    /// Which events of `window` this client receives (replaces this client's previous mask).
    func selectInput(_ window: X11Window, propertyChanges: Bool, structureChanges: Bool) {
        guard !isDead else { return }
        var mask = NoEventMask
        if propertyChanges { mask |= PropertyChangeMask }
        if structureChanges { mask |= StructureNotifyMask }
        XSelectInput(display, Window(window.rawValue), mask)
    }

    // MARK: Properties

    /// Writes format-8 or format-16 data (16: native-endian 2-byte items in `bytes`).
    func changeProperty(
        _ window: X11Window, _ property: X11Atom, type: X11Atom, format: Int, append: Bool = false,
        bytes: UnsafeRawBufferPointer
    ) {
        guard !isDead else { return }
        let itemSize = format / 8
        let count = bytes.count / max(itemSize, 1)
        let mode = append ? PropModeAppend : PropModeReplace
        if count == 0 {
            var empty: UInt8 = 0
            XChangeProperty(
                display, Window(window.rawValue), Atom(property.rawValue), Atom(type.rawValue), Int32(format),
                mode, &empty, 0)
            return
        }
        XChangeProperty(
            display, Window(window.rawValue), Atom(property.rawValue), Atom(type.rawValue), Int32(format), mode,
            bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(count))
    }

    /// Writes format-32 data given as values (Xlib wants one C long per item).
    func changeProperty32(
        _ window: X11Window, _ property: X11Atom, type: X11Atom, values: [UInt], append: Bool = false
    ) {
        guard !isDead else { return }
        var longs = values.map { Int(bitPattern: $0) }
        let mode = append ? PropModeAppend : PropModeReplace
        if longs.isEmpty { longs = [0] }
        _ = longs.withUnsafeMutableBytes { raw in
            XChangeProperty(
                display, Window(window.rawValue), Atom(property.rawValue), Atom(type.rawValue), 32, mode,
                raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(values.count))
        }
    }

    /// Reads a whole property (optionally deleting it in the same request). nil when the request failed
    /// (bad window, dead connection). With `pool`, format-8/16 data of the sizes it takes is copied into one
    /// of its buffers and the reply is freed at once (see `ChunkBufferPool`).
    ///
    /// The request goes through the XCB connection under Xlib rather than `XGetWindowProperty`: XCB reads the
    /// reply into one buffer, which Xlib would then copy into another of its own — for a 128 KiB INCR chunk a
    /// second pass over the bytes, the only one a C client does not make once the data is needed in memory
    /// anyway. Mixing the two is what Xlib is built for (`XGetXCBConnection`); events XCB read while it waited
    /// for the reply stay in XCB's queue, where Xlib's `QueuedAlready` count cannot see them and the drained
    /// socket wakes nobody, so they are moved into Xlib's queue right after: `XFlush` ends with
    /// `_XEventsQueued(QueuedAfterReading)`, which takes XCB's queued events whatever Xlib's queue holds
    /// (`XEventsQueued` itself returns early when Xlib's queue is not empty).
    ///
    /// `offset` and `length` (bytes, multiples of 4) read a slice: the server deletes the property (`delete`)
    /// only when the slice reaches its end, and `bytesAfter` tells what is left (GetProperty's
    /// long-offset/long-length, X11 protocol §GetProperty).
    func getProperty(
        _ window: X11Window, _ property: X11Atom, delete: Bool, offset: Int = 0, length: Int = 0x7FFF_FFFC,
        pool: ChunkBufferPool? = nil
    ) -> PropertyValue? {
        guard !isDead else { return nil }
        let connection = XGetXCBConnection(display)
        let cookie = xcb_get_property(
            connection, delete ? 1 : 0, xcb_window_t(truncatingIfNeeded: window.rawValue),
            xcb_atom_t(truncatingIfNeeded: property.rawValue), xcb_atom_t(XCB_GET_PROPERTY_TYPE_ANY.rawValue),
            UInt32(truncatingIfNeeded: max(0, offset) / 4), UInt32(truncatingIfNeeded: max(1, length / 4)))
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        let reply = xcb_get_property_reply(connection, cookie, &error)
        if let error { free(error) }
        if reply == nil, xcb_connection_has_error(connection) != 0 {
            // The connection broke while XCB waited, and Xlib has not noticed yet: a round trip makes it notice
            // on the path it handles when a reply never comes (`_XReply` → `_XIOError` → the shims' handlers
            // mark the Display dead and return), so `isDead` holds and every later request is skipped.
            XSync(display, 0)
            return nil
        }
        flush()
        guard let reply else { return nil }
        // Every field is read before the reply may be freed: `Data(bytesNoCopy:)` copies a small value inline
        // and runs its deallocator at once.
        let format = Int(reply.pointee.format)
        let size = Int(xcb_get_property_value_length(reply))
        let itemCount = Int(reply.pointee.value_len)
        let type = X11Atom(rawValue: UInt(reply.pointee.type))
        let bytesAfter = Int(reply.pointee.bytes_after)
        var bytes = Data()
        if size > 0, let value = xcb_get_property_value(reply), format == 8 || format == 16 || format == 32 {
            if format == 32 {
                // Host-order 32-bit items on the wire side of XCB; the engine's form is little-endian.
                bytes = Data(count: itemCount * 4)
                bytes.withUnsafeMutableBytes { out in
                    let items = UnsafeRawPointer(value)
                    for index in 0..<itemCount {
                        let item = items.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
                        out.storeBytes(of: item.littleEndian, toByteOffset: index * 4, as: UInt32.self)
                    }
                }
            } else if let pooled = pool?.copy(UnsafeRawBufferPointer(start: value, count: size)) {
                bytes = pooled
            } else {
                // The bytes stay in the reply, which is freed with the `Data`.
                let replyAddress = UnsafeMutableRawPointer(reply)
                return PropertyValue(
                    type: type, format: format,
                    bytes: Data(bytesNoCopy: value, count: size, deallocator: .custom { _, _ in free(replyAddress) }),
                    bytesAfter: bytesAfter, itemCount: itemCount)
            }
        }
        free(reply)
        return PropertyValue(type: type, format: format, bytes: bytes, bytesAfter: bytesAfter, itemCount: itemCount)
    }

    func deleteProperty(_ window: X11Window, _ property: X11Atom) {
        guard !isDead else { return }
        XDeleteProperty(display, Window(window.rawValue), Atom(property.rawValue))
    }
}
