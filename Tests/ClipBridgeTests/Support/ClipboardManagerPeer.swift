// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — a minimal freedesktop clipboard manager, as an independent peer process

import ClipBridgeTestSupport
import Foundation

/// A small clipboard manager (freedesktop ClipboardManager spec) run by Debian's python3 through ctypes and
/// libX11 — an independent process, like xfce4-clipman or GNOME's manager: it owns `CLIPBOARD_MANAGER`, answers
/// one `SAVE_TARGETS` by reading every listed target from CLIPBOARD, takes CLIPBOARD over, and then serves what it
/// saved until it loses ownership. It prints `READY`, then `SAVED <targets>`.
enum ClipboardManagerPeer {
    static func start(display: String) async throws -> BackgroundPeer {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-manager-\(UUID()).py")
        try source.write(to: script, atomically: true, encoding: .utf8)
        let peer = try startPeer([ToolkitPeer.python, script.path], display: display)
        do {
            try await peer.waitForOutput("READY\n", timeout: .seconds(20))
        } catch {
            _ = await peer.stop()
            throw error
        }
        try? FileManager.default.removeItem(at: script)
        return peer
    }

    static let source = #"""
        import ctypes, ctypes.util, signal, sys
        from ctypes import c_int, c_long, c_ulong, c_void_p, c_char_p, c_ubyte, POINTER, byref

        signal.alarm(30)
        x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11") or "libX11.so.6")
        x.XOpenDisplay.restype = c_void_p
        x.XOpenDisplay.argtypes = [c_char_p]
        x.XDefaultRootWindow.restype = c_ulong
        x.XDefaultRootWindow.argtypes = [c_void_p]
        x.XCreateSimpleWindow.restype = c_ulong
        x.XCreateSimpleWindow.argtypes = [c_void_p, c_ulong] + [c_int] * 4 + [c_ulong] * 3
        x.XInternAtom.restype = c_ulong
        x.XInternAtom.argtypes = [c_void_p, c_char_p, c_int]
        x.XGetAtomName.restype = c_char_p
        x.XGetAtomName.argtypes = [c_void_p, c_ulong]
        x.XSetSelectionOwner.argtypes = [c_void_p, c_ulong, c_ulong, c_ulong]
        x.XGetSelectionOwner.restype = c_ulong
        x.XGetSelectionOwner.argtypes = [c_void_p, c_ulong]
        x.XConvertSelection.argtypes = [c_void_p] + [c_ulong] * 5
        x.XGetWindowProperty.argtypes = [c_void_p, c_ulong, c_ulong, c_long, c_long, c_int, c_ulong,
                                         POINTER(c_ulong), POINTER(c_int), POINTER(c_ulong), POINTER(c_ulong),
                                         POINTER(POINTER(c_ubyte))]
        x.XChangeProperty.argtypes = [c_void_p, c_ulong, c_ulong, c_ulong, c_int, c_int, c_void_p, c_int]
        x.XSendEvent.argtypes = [c_void_p, c_ulong, c_int, c_long, c_void_p]
        x.XNextEvent.argtypes = [c_void_p, c_void_p]
        x.XFlush.argtypes = [c_void_p]
        x.XFree.argtypes = [c_void_p]

        class Request(ctypes.Structure):
            _fields_ = [("type", c_int), ("serial", c_ulong), ("send_event", c_int), ("display", c_void_p),
                        ("owner", c_ulong), ("requestor", c_ulong), ("selection", c_ulong), ("target", c_ulong),
                        ("property", c_ulong), ("time", c_ulong)]

        class Notify(ctypes.Structure):
            _fields_ = [("type", c_int), ("serial", c_ulong), ("send_event", c_int), ("display", c_void_p),
                        ("requestor", c_ulong), ("selection", c_ulong), ("target", c_ulong), ("property", c_ulong),
                        ("time", c_ulong)]

        class Event(ctypes.Union):
            _fields_ = [("type", c_int), ("request", Request), ("notify", Notify), ("pad", c_long * 24)]

        SELECTION_CLEAR, SELECTION_REQUEST, SELECTION_NOTIFY = 29, 30, 31
        d = x.XOpenDisplay(None)
        if not d:
            sys.exit("cannot open display")
        atom = lambda name: x.XInternAtom(d, name.encode(), 0)
        name = lambda value: x.XGetAtomName(d, value).decode()
        win = x.XCreateSimpleWindow(d, x.XDefaultRootWindow(d), 0, 0, 1, 1, 0, 0, 0)
        MANAGER, CLIPBOARD, SAVE, TARGETS, ATOM = (atom(n) for n in
            ["CLIPBOARD_MANAGER", "CLIPBOARD", "SAVE_TARGETS", "TARGETS", "ATOM"])
        PROP = atom("BRIDGE_MANAGER_DATA")
        x.XSetSelectionOwner(d, MANAGER, win, 0)
        if x.XGetSelectionOwner(d, MANAGER) != win:
            sys.exit("cannot own CLIPBOARD_MANAGER")
        print("READY", flush=True)

        def get_property(window, prop):
            kind, fmt, count, after = c_ulong(), c_int(), c_ulong(), c_ulong()
            data = POINTER(c_ubyte)()
            x.XGetWindowProperty(d, window, prop, 0, 1 << 24, 1, 0, byref(kind), byref(fmt), byref(count),
                                 byref(after), byref(data))
            size = {8: 1, 16: 2, 32: ctypes.sizeof(c_long)}.get(fmt.value, 1) * count.value
            raw = bytes(bytearray(data[:size])) if data else b""
            if data:
                x.XFree(data)
            return kind.value, fmt.value, count.value, raw

        def next_event():
            event = Event()
            x.XNextEvent(d, byref(event))
            return event

        def notify(request, prop):
            reply = Event()
            reply.notify.type = SELECTION_NOTIFY
            reply.notify.requestor = request.requestor
            reply.notify.selection = request.selection
            reply.notify.target = request.target
            reply.notify.property = prop
            reply.notify.time = request.time
            x.XSendEvent(d, request.requestor, 0, 0, byref(reply))
            x.XFlush(d)

        saved = {}
        while True:
            event = next_event()
            if event.type == SELECTION_CLEAR and event.request.selection == CLIPBOARD:
                print("LOST", flush=True)
                break
            if event.type != SELECTION_REQUEST:
                continue
            request = Request.from_buffer_copy(event.request)
            if request.selection == MANAGER and request.target == SAVE:
                _, _, count, raw = get_property(request.requestor, request.property)
                targets = list((c_ulong * count).from_buffer_copy(raw))
                for target in targets:
                    x.XConvertSelection(d, CLIPBOARD, target, PROP, win, request.time)
                    x.XFlush(d)
                    while True:
                        answer = next_event()
                        if answer.type == SELECTION_NOTIFY:
                            break
                    if answer.notify.property:
                        saved[target] = get_property(win, PROP)
                x.XSetSelectionOwner(d, CLIPBOARD, win, request.time)
                notify(request, request.property)
                print("SAVED " + " ".join(name(t) for t in saved), flush=True)
            elif request.selection == CLIPBOARD:
                if request.target == TARGETS:
                    values = (c_ulong * (len(saved) + 1))(TARGETS, *saved.keys())
                    x.XChangeProperty(d, request.requestor, request.property, ATOM, 32, 0, values, len(saved) + 1)
                    notify(request, request.property)
                elif request.target in saved:
                    kind, fmt, count, raw = saved[request.target]
                    buffer = ctypes.create_string_buffer(raw, len(raw))
                    x.XChangeProperty(d, request.requestor, request.property, kind, fmt, 0, buffer, count)
                    notify(request, request.property)
                else:
                    notify(request, 0)
            else:
                notify(request, 0)
        """#
}
