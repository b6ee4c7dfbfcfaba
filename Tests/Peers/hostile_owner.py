#!/usr/bin/python3
"""A hostile X11 selection owner for ClipBridge's tests: it breaks the ICCCM on purpose.

Run it with Debian's /usr/bin/python3 (python3-xlib), with DISPLAY set to the test's Xvfb. It owns a selection
(--selection, default CLIPBOARD) with a real server timestamp and answers SelectionRequests as MODE says, so a
test can check that a requestor survives a malicious owner.

Modes (exactly one):
  garbage-targets    TARGETS lists 0x7fffffff, text/html, 0x7ffffffe, application/x-test, 0x7fffff00, UTF8_STRING,
                     TARGETS (in that order; the 0x7f... ids are not atoms). text/html -> b"<b>html</b>",
                     application/x-test -> b"x-test-bytes", UTF8_STRING -> "caf\u00e9" in UTF-8. A request for a
                     garbage id would get b"GARBAGE-CONVERTED" (the server itself answers BadAtom to such a
                     ConvertSelection, so it normally never gets here). Anything else is refused.
  decoy              TARGETS [TARGETS, UTF8_STRING], UTF8_STRING -> b"real-bytes". Before each content answer it sends
                     one decoy SelectionNotify, waits 200 ms, then writes the real bytes and sends the real notify.
                     --decoy-kind picks what is wrong in the decoy:
                       selection  names the other selection (PRIMARY, or CLIPBOARD when PRIMARY was asked); the
                                  requested property holds b"DECOY-SELECTION" (default)
                       property   names a property the requestor did not ask for (CB_HOSTILE_DECOY), holding
                                  b"DECOY-PROPERTY"
                       target     names another target than the one asked (--decoy-target, default UTF8_STRING, or
                                  TEXT when UTF8_STRING itself is asked), with the requested property, selection and
                                  time; the requested property holds b"DECOY-DATA-MUST-NOT-BE-USED" of that target's
                                  type (a TARGETS read gets an ATOM list naming only CB_DECOY_ATOM)
                       time       names another time than the request's; the requested property holds b"DECOY-TIME"
                     --decoy-wait (seconds, default 0.2) is the pause between the decoy and the real answer.
                     --offer adds targets (comma-separated names) to TARGETS, each answered with b"real-bytes".
  stale              TARGETS [TARGETS, UTF8_STRING, text/plain], UTF8_STRING and text/plain -> b"fresh-bytes".
                     Before answering a request it re-sends the previous request's SelectionNotify (that request's
                     selection, target, property and time) to the new requestor, with b"STALE-BYTES" (type
                     UTF8_STRING) written into that old property first; 150 ms later it answers properly.
  huge-targets       TARGETS lists --count atoms: UTF8_STRING, then alternately a garbage id (0x7f000000 + i) and a
                     real atom (TARGETS, STRING, text/plain, text/html in turn), then application/x-test. Written
                     with Replace + Append chunks when it exceeds the maximum request size. UTF8_STRING ->
                     b"huge-ok", application/x-test -> b"x-test-bytes"; anything else is refused.
  distinct-targets   TARGETS lists --count atoms: TARGETS, UTF8_STRING, then --count - 3 distinct atoms interned by this
                     peer (application/x-cb-distinct-<run>-<i>: names no other client knows), then
                     application/x-test. UTF8_STRING -> b"huge-ok", application/x-test -> b"x-test-bytes", any of the
                     distinct atoms -> b"distinct-<i>" (so a snapshot of them can be checked byte for byte);
                     anything else is refused. --answer-delay (seconds) pauses before each content answer (a slow
                     owner); MULTIPLE is refused, so a reader must ask target by target.
  silent             owns the selection and never answers anything.
  die-mid-incr       TARGETS [TARGETS, UTF8_STRING]. Any other target starts INCR (announcing --size bytes), sends
                     --chunks (default two) 64 KiB chunks of b"A" as the requestor deletes the property, prints "DIED" and exits at
                     once without releasing the selection (the server destroys the window with the connection).
                     Only the first content request gets this; any other one meanwhile is refused.
  trickle-incr       TARGETS [TARGETS, UTF8_STRING]. Any other target starts INCR (announcing --size bytes) and then, each
                     time the requestor deletes the property, waits --interval seconds (default 0.2) and sends a chunk
                     of one byte b"x", printing "CHUNK n" — without end: an owner that trickles. A requestor that stops
                     deleting stops the chunks (the test counts them). Only the first content request gets this.
  die-on-request     TARGETS [TARGETS, UTF8_STRING]; the first other request makes it print "DIED" and exit at once,
                     unanswered.
  hinted             TARGETS [TARGETS, UTF8_STRING, x-kde-passwordManagerHint] (a password manager's copy, as KeePassXC
                     and arboard offer it); UTF8_STRING -> --text in UTF-8, the hint -> --hint-value (default "secret").
  plain              TARGETS [TARGETS, UTF8_STRING]; UTF8_STRING -> --text in UTF-8 (an ordinary owner, for rules that
                     look at who copied: see --class-window).
  big-single         TARGETS [TARGETS, UTF8_STRING]; UTF8_STRING -> --size bytes of bytes(range(256)) repeated, in
                     ONE property (no INCR, however big), written as Replace + Append chunks, then one notify.
--class-window NAME makes a second, unmapped top-level window of the same client whose WM_CLASS is NAME/NAME (the
owner's own window has none), as toolkits own selections from a window other than their named top-levels.
Every mode answers a request whose property is None (an obsolete requestor) in the target's name.

It prints "READY" once it owns the selection, then serves until it loses ownership ("LOST"), --exit-after passes
("TIMEOUT") or SIGTERM/SIGINT arrives ("STOPPED"); all of these exit 0. Each request is logged on stderr.
Exit status: 0 done (also after "DIED"), 1 could not start (message on stderr), 2 usage.
"""

import argparse
import os
import select
import sys
import time
from array import array

from Xlib import X, Xatom, error as xerror

from peer_process import Stopped, install_stops, open_display, say, selection_name
from Xlib.protocol import event as xevent
from Xlib.protocol import request as rq

assert array("I").itemsize == 4, "32-bit property items need a 4-byte array type"

MODES = ["garbage-targets", "decoy", "stale", "huge-targets", "distinct-targets", "silent", "die-mid-incr", "trickle-incr",
         "die-on-request", "big-single", "hinted", "plain"]
GARBAGE_IDS = (0x7FFFFFFF, 0x7FFFFFFE, 0x7FFFFF00)
INCR_CHUNK = 64 * 1024
INCR_CHUNKS_BEFORE_DYING = 2


def parse_arguments():
    parser = argparse.ArgumentParser(description="hostile X11 selection owner for tests")
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--selection", default="CLIPBOARD",
                        help="the selection's atom name (clipboard/primary/secondary are upper-cased)")
    parser.add_argument("--exit-after", type=float, default=60.0, help="seconds of life at most (default 60)")
    parser.add_argument("--decoy-kind", choices=["selection", "property", "target", "time"], default="selection")
    parser.add_argument("--decoy-target", default=None, help="decoy --decoy-kind target: the decoy's target name")
    parser.add_argument("--decoy-wait", type=float, default=0.2, help="decoy: seconds between decoy and answer")
    parser.add_argument("--offer", default="", help="decoy: more targets offered (comma-separated names)")
    parser.add_argument("--count", type=int, default=1000,
                        help="huge-targets, distinct-targets: number of atoms listed")
    parser.add_argument("--interval", type=float, default=0.2, help="trickle-incr: seconds between chunks")
    parser.add_argument("--answer-delay", type=float, default=0.0,
                        help="distinct-targets: seconds before each content answer")
    parser.add_argument("--size", type=int, default=None,
                        help="die-mid-incr: INCR size announced (default 1 MiB); big-single: bytes (default 4 MiB)")
    parser.add_argument("--chunks", type=int, default=INCR_CHUNKS_BEFORE_DYING,
                        help="die-mid-incr: 64 KiB chunks sent before dying (default %d)" % INCR_CHUNKS_BEFORE_DYING)
    parser.add_argument("--text", default="hunter2-correct-horse", help="hinted, plain: the text offered")
    parser.add_argument("--hint-value", default="secret", help="hinted: the hint's value")
    parser.add_argument("--class-window", default=None, help="a second top-level window with this WM_CLASS")
    parser.add_argument("--chunk", type=int, default=256 * 1024,
                        help="bytes per ChangeProperty when writing big properties (capped by the server's limit)")
    arguments = parser.parse_args()
    arguments.selection = selection_name(arguments.selection)
    if arguments.mode == "huge-targets" and arguments.count < 2:
        parser.error("--count must be at least 2")
    if arguments.mode == "distinct-targets" and arguments.count < 3:
        parser.error("--count must be at least 3")
    if arguments.size is None:
        arguments.size = 4 * 1024 * 1024 if arguments.mode == "big-single" else 1024 * 1024
    if arguments.size < 0 or arguments.exit_after <= 0 or arguments.chunk < 4:
        parser.error("--size must not be negative; --exit-after and --chunk must be positive")
    return arguments


class Owner:
    def __init__(self, arguments):
        self.arguments = arguments
        self.mode = arguments.mode
        self.deadline = time.monotonic() + arguments.exit_after
        self.display = open_display()
        self.names = {}
        atom = self.atom
        self.selection = atom(self.arguments.selection)
        self.TARGETS, self.UTF8_STRING, self.INCR = atom("TARGETS"), atom("UTF8_STRING"), atom("INCR")
        self.ATOM, self.STRING = Xatom.ATOM, Xatom.STRING
        self.names.update({Xatom.ATOM: "ATOM", Xatom.STRING: "STRING", Xatom.PRIMARY: "PRIMARY"})
        self.TEXT_HTML, self.TEXT_PLAIN, self.X_TEST = atom("text/html"), atom("text/plain"), atom("application/x-test")
        self.DECOY_PROPERTY = atom("CB_HOSTILE_DECOY")
        self.TIMESTAMP_PROPERTY = atom("CB_HOSTILE_TIMESTAMP")
        self.CLIPBOARD = atom("CLIPBOARD")
        screen = self.display.screen()
        self.window = screen.root.create_window(-10, -10, 1, 1, 0, X.CopyFromParent, X.InputOnly,
                                                X.CopyFromParent, event_mask=X.PropertyChangeMask)
        if arguments.class_window:
            named = screen.root.create_window(0, 0, 10, 10, 0, X.CopyFromParent, X.InputOutput, X.CopyFromParent)
            named.set_wm_class(arguments.class_window, arguments.class_window)
        # ChangeProperty carries a 24-byte header; python-xlib does not use BIG-REQUESTS.
        limit = self.display.display.info.max_request_length * 4 - 24
        self.chunk = max(4, min(arguments.chunk, limit) // 4 * 4)
        self.previous = None  # stale: the last request answered
        self.incr = None  # die-mid-incr: (requestor window, property, target, chunks sent)
        self.targets, self.contents = self.offer()

    def atom(self, name):
        value = self.display.intern_atom(name)
        self.names[value] = name
        return value

    def name(self, value):
        if value in self.names:
            return self.names[value]
        if value in GARBAGE_IDS or value >= 0x7F000000:
            return "0x%x" % value
        try:
            self.names[value] = self.display.get_atom_name(value)
        except xerror.XError:
            return "0x%x" % value
        return self.names[value]

    def offer(self):
        """Returns the TARGETS property (packed 32-bit atoms) and a map of target -> content bytes."""
        T, U = self.TARGETS, self.UTF8_STRING
        if self.mode == "garbage-targets":
            listed = [0x7FFFFFFF, self.TEXT_HTML, 0x7FFFFFFE, self.X_TEST, 0x7FFFFF00, U, T]
            contents = {self.TEXT_HTML: b"<b>html</b>", self.X_TEST: b"x-test-bytes", U: "caf\u00e9".encode()}
            contents.update({garbage: b"GARBAGE-CONVERTED" for garbage in GARBAGE_IDS})
            return array("I", listed).tobytes(), contents
        if self.mode == "decoy":
            extra = [self.atom(name) for name in self.arguments.offer.split(",") if name]
            return array("I", [T, U] + extra).tobytes(), {target: b"real-bytes" for target in [U] + extra}
        if self.mode == "distinct-targets":
            return self.distinct_targets(self.arguments.count)
        if self.mode == "stale":
            return array("I", [T, U, self.TEXT_PLAIN]).tobytes(), {U: b"fresh-bytes", self.TEXT_PLAIN: b"fresh-bytes"}
        if self.mode == "huge-targets":
            return self.huge_targets(self.arguments.count), {U: b"huge-ok", self.X_TEST: b"x-test-bytes"}
        if self.mode == "hinted":
            hint = self.atom("x-kde-passwordManagerHint")
            return (array("I", [T, U, hint]).tobytes(),
                    {U: self.arguments.text.encode(), hint: self.arguments.hint_value.encode()})
        if self.mode == "plain":
            return array("I", [T, U]).tobytes(), {U: self.arguments.text.encode()}
        if self.mode == "big-single":
            size = self.arguments.size
            pattern = bytes(range(256))
            return array("I", [T, U]).tobytes(), {U: (pattern * (size // 256 + 1))[:size]}
        return array("I", [T, U]).tobytes(), {}

    def huge_targets(self, count):
        # Linear: the middle is built per 8-entry period, then repeated by the array type in C.
        middle = count - 2
        real = [self.TARGETS, self.STRING, self.TEXT_PLAIN, self.TEXT_HTML]
        atoms = array("I", range(0x7F000000, 0x7F000000 + middle))  # garbage ids at the even places
        reals = array("I", real * (middle // 8 + 1))
        atoms[1::2] = reals[:len(atoms[1::2])]
        listed = array("I", [self.UTF8_STRING])
        listed.extend(atoms)
        listed.append(self.X_TEST)
        return listed.tobytes()

    def distinct_targets(self, count):
        # Interned in batches of pipelined requests (one round trip each would take minutes at 1M).
        run = "%d-%d" % (os.getpid(), int(time.time() * 1000) % 1000000)
        names = ["application/x-cb-distinct-%s-%d" % (run, i) for i in range(count - 3)]
        atoms = []
        batch = 4096
        for start in range(0, len(names), batch):
            requests = [rq.InternAtom(display=self.display.display, name=name, only_if_exists=False, defer=True)
                        for name in names[start:start + batch]]
            self.display.flush()
            for request in requests:
                request.reply()
                atoms.append(request.atom)
        listed = array("I", [self.TARGETS, self.UTF8_STRING])
        listed.extend(atoms)
        listed.append(self.X_TEST)
        contents = {self.UTF8_STRING: b"huge-ok", self.X_TEST: b"x-test-bytes"}
        contents.update({atom: b"distinct-%d" % i for i, atom in enumerate(atoms)})
        say("interned %d distinct atoms" % len(atoms), sys.stderr)
        return listed.tobytes(), contents

    # Plumbing

    def next_event(self, deadline):
        """The next event, or None once `deadline` (time.monotonic) passes."""
        while True:
            if self.display.pending_events():
                return self.display.next_event()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            select.select([self.display], [], [], min(remaining, 0.5))

    def sleep(self, seconds):
        """Waits, queueing whatever arrives meanwhile (it is handled afterwards)."""
        self.display.flush()
        time.sleep(seconds)

    def server_time(self):
        """A real timestamp: the time of the PropertyNotify for a zero-length append to our own window."""
        self.window.change_property(self.TIMESTAMP_PROPERTY, self.STRING, 8, b"", X.PropModeAppend)
        self.display.flush()
        deadline = time.monotonic() + 10
        while True:
            event = self.next_event(deadline)
            if event is None:
                say("no PropertyNotify for the timestamp", sys.stderr)
                sys.exit(1)
            if (event.type == X.PropertyNotify and event.window.id == self.window.id
                    and event.atom == self.TIMESTAMP_PROPERTY):
                return event.time

    def write(self, window, prop, kind, format, data):
        """Writes `data` (bytes) into `prop`: one Replace, then Append chunks if it exceeds a request."""
        first = True
        offset = 0
        while first or offset < len(data):
            piece = data[offset:offset + self.chunk]
            window.change_property(prop, kind, format, piece, X.PropModeReplace if first else X.PropModeAppend)
            # Flush each chunk: python-xlib's send buffer grows by concatenation (quadratic if left to pile up).
            self.display.flush()
            offset += len(piece)
            first = False

    def notify(self, requestor, selection, target, prop, when):
        reply = xevent.SelectionNotify(time=when, requestor=requestor, selection=selection, target=target,
                                       property=prop)
        # Event mask 0: the event goes to the client that created the requestor window.
        self.display.send_event(requestor, reply, event_mask=0, propagate=False)
        self.display.flush()

    def window_object(self, window_id):
        return self.display.create_resource_object("window", window_id)

    # Serving

    def run(self):
        when = self.server_time()
        self.window.set_selection_owner(self.selection, when)
        owner = self.display.get_selection_owner(self.selection)
        if getattr(owner, "id", owner) != self.window.id:
            say("could not take %s" % self.arguments.selection, sys.stderr)
            return 1
        say("READY")
        while True:
            event = self.next_event(self.deadline)
            if event is None:
                say("TIMEOUT")
                return 0
            if event.type == X.SelectionClear and event.atom == self.selection:
                say("LOST")
                return 0
            if event.type == X.SelectionRequest:
                self.request(event)
            elif event.type == X.PropertyNotify and self.incr is not None:
                self.incr_progress(event)

    def request(self, request):
        requestor = request.requestor.id
        prop = request.property or request.target  # ICCCM: None from an obsolete client means the target's name
        say("request %s %s for 0x%x into %s at %d" % (self.name(request.selection), self.name(request.target),
                                                     requestor, self.name(prop), request.time), sys.stderr)
        if self.mode == "silent":
            return
        if self.mode == "stale":
            if self.previous is not None:
                old_selection, old_target, old_prop, old_time = self.previous
                say("  stale notify: %s into %s at %d" % (self.name(old_target), self.name(old_prop), old_time),
                    sys.stderr)
                self.write(request.requestor, old_prop, self.UTF8_STRING, 8, b"STALE-BYTES")
                self.notify(requestor, old_selection, old_target, old_prop, old_time)
                self.sleep(0.150)
            self.previous = (request.selection, request.target, prop, request.time)
        if request.target == self.TARGETS:
            if self.mode == "decoy" and self.arguments.decoy_kind == "target":
                self.decoy_targets(request, prop)
            self.write(request.requestor, prop, self.ATOM, 32, self.targets)
            self.notify(requestor, request.selection, request.target, prop, request.time)
            return
        if self.mode == "die-on-request":
            say("DIED")
            os._exit(0)
        if self.mode in ("die-mid-incr", "trickle-incr"):
            if self.incr is None:
                self.start_incr(request, prop)
            else:
                self.refuse(request)
            return
        content = self.contents.get(request.target)
        if content is None:
            self.refuse(request)
            return
        kind = request.target if request.target not in GARBAGE_IDS else self.STRING
        if self.arguments.answer_delay > 0:
            self.sleep(self.arguments.answer_delay)
        if self.mode == "decoy":
            self.decoy(request, prop, kind)
        self.write(request.requestor, prop, kind, 8, content)
        self.notify(requestor, request.selection, request.target, prop, request.time)

    def refuse(self, request):
        say("  refused", sys.stderr)
        self.notify(request.requestor.id, request.selection, request.target, X.NONE, request.time)

    def decoy(self, request, prop, kind):
        requestor = request.requestor.id
        selection, decoy_prop, when = request.selection, prop, request.time
        if self.arguments.decoy_kind == "selection":
            selection = self.CLIPBOARD if request.selection == Xatom.PRIMARY else Xatom.PRIMARY
            payload = b"DECOY-SELECTION"
        elif self.arguments.decoy_kind == "property":
            decoy_prop = self.DECOY_PROPERTY if prop != self.DECOY_PROPERTY else self.TIMESTAMP_PROPERTY
            payload = b"DECOY-PROPERTY"
        elif self.arguments.decoy_kind == "target":
            name = self.arguments.decoy_target or ("TEXT" if request.target == self.UTF8_STRING else "UTF8_STRING")
            target = self.atom(name)
            payload = b"DECOY-DATA-MUST-NOT-BE-USED"
            say("  decoy (target): %s instead of %s into %s at %d" % (name, self.name(request.target),
                                                                      self.name(prop), when), sys.stderr)
            self.write(request.requestor, prop, target if target != self.TARGETS else self.STRING, 8, payload)
            self.notify(requestor, selection, target, prop, when)
            self.sleep(self.arguments.decoy_wait)
            return
        else:
            when = (request.time + 1000) & 0xFFFFFFFF
            payload = b"DECOY-TIME"
        say("  decoy (%s): %s into %s at %d" % (self.arguments.decoy_kind, self.name(selection),
                                                self.name(decoy_prop), when), sys.stderr)
        self.write(request.requestor, decoy_prop, kind, 8, payload)
        self.notify(requestor, selection, request.target, decoy_prop, when)
        self.sleep(self.arguments.decoy_wait)

    def decoy_targets(self, request, prop):
        """A decoy for a TARGETS read: an ATOM list naming CB_DECOY_ATOM, notified under another target."""
        name = self.arguments.decoy_target or "UTF8_STRING"
        target = self.atom(name)
        say("  decoy (target): %s instead of TARGETS into %s" % (name, self.name(prop)), sys.stderr)
        self.write(request.requestor, prop, self.ATOM, 32, array("I", [self.atom("CB_DECOY_ATOM")]).tobytes())
        self.notify(request.requestor.id, request.selection, target, prop, request.time)
        self.sleep(self.arguments.decoy_wait)

    def start_incr(self, request, prop):
        # Ask for PropertyNotify on the requestor's window before anything it could react to.
        request.requestor.change_attributes(event_mask=X.PropertyChangeMask)
        self.incr = [request.requestor, prop, request.target, 0]
        self.write(request.requestor, prop, self.INCR, 32, array("I", [self.arguments.size]).tobytes())
        self.notify(request.requestor.id, request.selection, request.target, prop, request.time)
        say("  INCR of %d bytes started" % self.arguments.size, sys.stderr)

    def incr_progress(self, event):
        window, prop, target, sent = self.incr
        if event.window.id != window.id or event.atom != prop or event.state != X.PropertyDelete:
            return
        if self.mode == "trickle-incr":
            self.sleep(self.arguments.interval)
            window.change_property(prop, target, 8, b"x")
            self.incr[3] = sent + 1
            say("CHUNK %d" % (sent + 1))
            self.display.flush()
            return
        window.change_property(prop, target, 8, b"A" * INCR_CHUNK)
        self.incr[3] = sent = sent + 1
        say("  INCR chunk %d sent" % sent, sys.stderr)
        if sent >= self.arguments.chunks:
            self.display.sync()  # the chunk has reached the server
            say("DIED")
            os._exit(0)  # closing the connection destroys the window; the selection is never released
        self.display.flush()


def main():
    arguments = parse_arguments()
    install_stops(arguments.exit_after)
    try:
        owner = Owner(arguments)
        return owner.run()
    except Stopped:
        say("STOPPED")
        return 0


if __name__ == "__main__":
    sys.exit(main())
