import CX11
import Foundation
import Glibc

/// A deliberately plain Xlib client for tests: a peer that can misbehave in ways no real tool does on
/// command (stop reading mid-INCR, destroy its window mid-transfer, own a selection through a window it
/// does not own) and a tiny clipboard manager. Blocking calls only; run it with `onThread`.
///
/// Not Sendable by design: create, use and close it inside one `onThread` block, or hand it between
/// blocks that never overlap (Xlib without XInitThreads tolerates different threads, not concurrent ones).
final class RawXClient: @unchecked Sendable {
    let display: OpaquePointer
    let window: Window

    init(_ name: String) throws {
        guard let display = XOpenDisplay(name) else { throw RawXError("cannot open \(name)") }
        self.display = display
        var attributes = XSetWindowAttributes()
        attributes.event_mask = PropertyChangeMask
        window = XCreateWindow(
            display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, UInt32(InputOnly), nil, UInt(CWEventMask),
            &attributes)
        XFlush(display)
    }

    func close() { XCloseDisplay(display) }

    func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    func atomName(_ atom: Atom) -> String {
        guard let name = XGetAtomName(display, atom) else { return "" }
        defer { XFree(name) }
        return String(cString: name)
    }

    /// The next event matching `predicate`, or nil after `timeout` (polls; Xlib has no timed wait).
    func waitForEvent(timeout: Duration, _ predicate: (inout XEvent) -> Bool) -> XEvent? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                if predicate(&event) { return event }
            }
            usleep(1000)
        }
        return nil
    }

    /// Reads (and optionally deletes) a property: type atom and bytes (format 32 items as C longs).
    func property(_ window: Window, _ property: Atom, delete: Bool) -> (type: Atom, format: Int32, bytes: Data) {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XGetWindowProperty(
            display, window, property, 0, 0x1FFF_FFFF, delete ? 1 : 0, Atom(AnyPropertyType), &type, &format,
            &count, &after, &data)
        defer { if let data { XFree(data) } }
        let size = format == 32 ? Int(count) * MemoryLayout<Int>.size : Int(count) * Int(format) / 8
        return (type, format, data.map { Data(bytes: $0, count: size) } ?? Data())
    }

    /// Longs of a format-32 property.
    func longs(_ bytes: Data) -> [UInt] {
        bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt.self)) }
    }

    /// Asks for `target` and follows an INCR reply for `chunks` chunks, then returns how many bytes
    /// arrived and whether the reply was INCR at all. The property is NOT deleted after the last chunk
    /// read, so the owner waits for us from then on (a stuck requestor).
    func startIncrementalRead(selection: String, target: String, chunks: Int, timeout: Duration = .seconds(10))
        throws -> (incremental: Bool, bytes: Int)
    {
        let property = atom("RAW_PEER_DATA")
        XConvertSelection(display, atom(selection), atom(target), property, window, UInt(CurrentTime))
        XFlush(display)
        guard waitForEvent(timeout: timeout, { $0.type == SelectionNotify }) != nil else {
            throw RawXError("no SelectionNotify")
        }
        let header = self.property(window, property, delete: true)
        guard header.type == atom("INCR") else { return (false, header.bytes.count) }
        XFlush(display)
        var received = 0
        for index in 0..<chunks {
            guard waitForEvent(timeout: timeout, { event in
                event.type == PropertyNotify && event.xproperty.atom == property && event.xproperty.state == PropertyNewValue
            }) != nil else { throw RawXError("no chunk \(index)") }
            // The last chunk we take is read without deleting: from here on we never acknowledge.
            let chunk = self.property(window, property, delete: index < chunks - 1)
            received += chunk.bytes.count
            XFlush(display)
        }
        return (true, received)
    }

    /// Reads `target` of `selection` in full, following INCR (a plain, correct requestor). nil when refused.
    func readSelection(_ selection: String, target: String, timeout: Duration = .seconds(10)) throws -> Data? {
        let property = atom("RAW_PEER_READ")
        XConvertSelection(display, atom(selection), atom(target), property, window, UInt(CurrentTime))
        XFlush(display)
        guard let notify = waitForEvent(timeout: timeout, { $0.type == SelectionNotify }) else {
            throw RawXError("no SelectionNotify for \(target)")
        }
        guard notify.xselection.property != 0 else { return nil }
        let reply = self.property(window, property, delete: true)
        XFlush(display)
        guard reply.type == atom("INCR") else { return reply.bytes }
        var data = Data()
        while true {
            guard waitForEvent(timeout: timeout, { event in
                event.type == PropertyNotify && event.xproperty.atom == property
                    && event.xproperty.state == PropertyNewValue
            }) != nil else { throw RawXError("INCR stalled for \(target) after \(data.count) bytes") }
            let chunk = self.property(window, property, delete: true)
            XFlush(display)
            if chunk.bytes.isEmpty { return data }
            data.append(chunk.bytes)
        }
    }

    func destroyWindow() {
        XDestroyWindow(display, window)
        XSync(display, 0)
    }

    /// Makes a window this client does not own (the root window) the owner of `selection`: when this client
    /// disconnects, XFixes reports "client closed" rather than "window destroyed".
    func claimWithRootWindow(_ selection: String) {
        XSetSelectionOwner(display, atom(selection), XDefaultRootWindow(display), UInt(CurrentTime))
        XSync(display, 0)
    }

    func claim(_ selection: String) -> Bool {
        XSetSelectionOwner(display, atom(selection), window, UInt(CurrentTime))
        return XGetSelectionOwner(display, atom(selection)) == window
    }

    /// Sends the SelectionNotify answering a request.
    /// Sends `window` a SelectionClear for `selection` stamped `time`, as the server sends when another client
    /// takes a selection (a synthetic one: the engine must judge it by its time and the real owner).
    func sendSelectionClear(to window: Window, selection: String, time: Time) {
        var event = XEvent()
        event.xselectionclear.type = SelectionClear
        event.xselectionclear.display = display
        event.xselectionclear.window = window
        event.xselectionclear.selection = atom(selection)
        event.xselectionclear.time = time
        XSendEvent(display, window, 0, NoEventMask, &event)
        XSync(display, 0)
    }

    func notify(requestor: Window, selection: Atom, target: Atom, property: Atom, time: Time) {
        var event = XEvent()
        event.xselection.type = SelectionNotify
        event.xselection.requestor = requestor
        event.xselection.selection = selection
        event.xselection.target = target
        event.xselection.property = property
        event.xselection.time = time
        XSendEvent(display, requestor, 0, 0, &event)
        XFlush(display)
    }
}

struct RawXError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs blocking code on a dedicated thread (never on the cooperative pool, which has few threads here).
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.start()
    }
}
