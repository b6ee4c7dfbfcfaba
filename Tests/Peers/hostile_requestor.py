#!/usr/bin/python3
"""A hostile (or merely independent) X11 selection requestor for ClipBridge's tests.

Run it with Debian's /usr/bin/python3 (python3-xlib), with DISPLAY set to the test's Xvfb. It asks the owner of a
selection (--selection, default CLIPBOARD) for a conversion as MODE says, so a test can check that an owner
survives a malicious requestor (and keeps serving others meanwhile).

Modes (exactly one):
  multiple     one ConvertSelection(MULTIPLE) whose parameter property (CB_HOSTILE_MULTIPLE, type ATOM_PAIR) holds
               --pairs (target, property) pairs: all --target (default UTF8_STRING), the properties cycling through
               CB_HOSTILE_0 .. CB_HOSTILE_<--distinct - 1> (default 16). The parameter property is written with
               Replace + Append chunks when it exceeds the maximum request size. Prints
               {"answered", "refused", "seconds", "failed_pairs"} (failed_pairs: pairs the owner set to None, or
               null when the parameter property could not be read back).
  convert      an ordinary conversion of --target into --property (default CB_HOSTILE_DATA), INCR included;
               prints {"answered", "refused", "type", "format", "bytes", "incr", "sha256", "seconds"};
               --output FILE also writes the bytes there.
  incr-stall   asks for --target; when the answer is INCR it accepts --chunks chunks (default 0: it never even
               deletes the INCR property), prints {"answered", "refused", "incr", "size", "chunks", "bytes",
               "seconds"} and then stalls for --stall seconds (default 30) without deleting anything.
  save-targets asks the clipboard manager to save CLIPBOARD: converts --selection (give CLIPBOARD_MANAGER) to
               SAVE_TARGETS into --property, which first holds --save-list (comma-separated target names) as
               --save-list-type (default ATOM; anything else is a malformed list, written as that type's text);
               with no --save-list the property is left absent (save everything). Prints {"answered",
               "refused", "seconds"}.
The JSON result is one line on stdout. Before it, "READY" is printed once the ConvertSelection has reached the
server (the owner has been sent its SelectionRequest). "seconds" counts from the ConvertSelection (multiple: until
the SelectionNotify; the others: until the end of the transfer). A SelectionNotify counts only when it names our
selection, our property (or None) and our time (or CurrentTime). Each wait gives up after --timeout seconds
(default 10); the whole process after --exit-after seconds (default 60). SIGTERM/SIGINT prints "STOPPED".
When a wait times out, "answered" says whether a SelectionNotify came (then an INCR transfer stalled; "bytes" is
what arrived).
Exit status: 0 answered (multiple: any SelectionNotify; convert: data received; incr-stall: stalled after INCR,
also when stopped while stalling; save-targets: accepted), 1 refused or not what was expected (convert, incr-stall), 2 usage,
3 timed out or stopped before the end.
"""

import argparse
import hashlib
import json
import select
import sys
import time
from array import array

from Xlib import X, Xatom, error as xerror

from peer_process import Stopped, install_stops, open_display, say, selection_name

assert array("I").itemsize == 4, "32-bit property items need a 4-byte array type"

MODES = ["multiple", "convert", "incr-stall", "save-targets"]
READ_LONGS = 256 * 1024  # GetProperty reads of 1 MiB at most


def parse_arguments():
    parser = argparse.ArgumentParser(description="hostile X11 selection requestor for tests")
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--selection", default="CLIPBOARD",
                        help="the selection's atom name (clipboard/primary/secondary are upper-cased)")
    parser.add_argument("--target", default="UTF8_STRING")
    parser.add_argument("--property", default="CB_HOSTILE_DATA", help="convert, incr-stall: the property asked for")
    parser.add_argument("--pairs", type=int, default=1000, help="multiple: number of (target, property) pairs")
    parser.add_argument("--distinct", type=int, default=16, help="multiple: number of distinct properties")
    parser.add_argument("--chunks", type=int, default=0, help="incr-stall: INCR chunks accepted before stalling")
    parser.add_argument("--stall", type=float, default=30.0, help="incr-stall: seconds to stall")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds each wait may take")
    parser.add_argument("--exit-after", type=float, default=60.0, help="seconds of life at most (default 60)")
    parser.add_argument("--save-list", metavar="TARGETS", help="save-targets: comma-separated targets to save")
    parser.add_argument("--save-list-type", default="ATOM", help="save-targets: the list property's type")
    parser.add_argument("--output", metavar="FILE", help="convert: write the bytes received to FILE")
    parser.add_argument("--chunk", type=int, default=256 * 1024,
                        help="bytes per ChangeProperty when writing the MULTIPLE parameters (capped by the server)")
    arguments = parser.parse_args()
    arguments.selection = selection_name(arguments.selection)
    if arguments.pairs < 0 or arguments.distinct < 1 or arguments.chunks < 0 or arguments.chunk < 4:
        parser.error("--pairs, --chunks must not be negative; --distinct, --chunk must be positive")
    if arguments.timeout <= 0 or arguments.exit_after <= 0 or arguments.stall < 0:
        parser.error("--timeout and --exit-after must be positive, --stall not negative")
    return arguments


class TimedOut(Exception):
    pass


class Requestor:
    def __init__(self, arguments):
        self.arguments = arguments
        self.sent = time.monotonic()  # when the ConvertSelection went out
        self.life_deadline = time.monotonic() + arguments.exit_after
        self.stalling = False
        self.incr = False  # an INCR answer arrived
        self.received = 0  # INCR bytes received so far
        self.display = open_display()
        atom = self.display.intern_atom
        self.selection = atom(arguments.selection)
        self.target = atom(arguments.target)
        self.property = atom(arguments.property)
        self.INCR = atom("INCR")
        self.TIMESTAMP_PROPERTY = atom("CB_HOSTILE_TIMESTAMP")
        screen = self.display.screen()
        self.window = screen.root.create_window(-10, -10, 1, 1, 0, X.CopyFromParent, X.InputOnly,
                                                X.CopyFromParent, event_mask=X.PropertyChangeMask)
        limit = self.display.display.info.max_request_length * 4 - 24  # ChangeProperty's header; no BIG-REQUESTS
        self.chunk = max(4, min(arguments.chunk, limit) // 4 * 4)

    # Plumbing

    def elapsed(self):
        """Seconds since the ConvertSelection was sent."""
        return round(time.monotonic() - self.sent, 3)

    def deadline(self):
        return min(time.monotonic() + self.arguments.timeout, self.life_deadline)

    def next_event(self, deadline):
        """The next event; raises TimedOut once `deadline` (time.monotonic) passes."""
        while True:
            if self.display.pending_events():
                return self.display.next_event()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimedOut()
            select.select([self.display], [], [], min(remaining, 0.5))

    def server_time(self):
        """A real timestamp: the time of the PropertyNotify for a zero-length append to our own window."""
        self.window.change_property(self.TIMESTAMP_PROPERTY, Xatom.STRING, 8, b"", X.PropModeAppend)
        self.display.flush()
        deadline = self.deadline()
        while True:
            event = self.next_event(deadline)
            if (event.type == X.PropertyNotify and event.window.id == self.window.id
                    and event.atom == self.TIMESTAMP_PROPERTY):
                return event.time

    def write(self, prop, kind, format, data):
        """Writes `data` (bytes) into our `prop`: one Replace, then Append chunks if it exceeds a request."""
        first = True
        offset = 0
        while first or offset < len(data):
            piece = data[offset:offset + self.chunk]
            self.window.change_property(prop, kind, format, piece, X.PropModeReplace if first else X.PropModeAppend)
            self.display.flush()  # python-xlib's send buffer grows by concatenation: never let it pile up
            offset += len(piece)
            first = False

    def read(self, prop):
        """Our `prop` as (type, format, bytes), read 1 MiB at a time without deleting it; None when absent."""
        pieces = []
        offset = 0
        kind = format = None
        while True:
            reply = self.window.get_property(prop, X.AnyPropertyType, offset // 4, READ_LONGS)
            if reply is None:
                return None if kind is None else (kind, format, b"".join(pieces))
            kind, format = reply.property_type, reply.format
            data = reply.value if isinstance(reply.value, bytes) else reply.value.tobytes()
            pieces.append(data)
            offset += len(data)
            if not reply.bytes_after or not data:
                return kind, format, b"".join(pieces)

    def convert(self, target, prop):
        """Sends ConvertSelection, makes sure the server has it, prints READY; returns the request's time."""
        when = self.server_time()
        self.window.convert_selection(self.selection, target, prop, when)
        self.sent = time.monotonic()
        self.display.sync()
        say("READY")
        return when

    def wait_notify(self, prop, when):
        """The SelectionNotify answering our request: our selection, our property (or None), our time (or
        CurrentTime); decoys and stale answers are ignored."""
        deadline = self.deadline()
        while True:
            event = self.next_event(deadline)
            if (event.type == X.SelectionNotify and event.selection == self.selection
                    and event.property in (prop, X.NONE) and event.time in (when, X.CurrentTime)):
                return event

    def wait_new_value(self, prop):
        deadline = self.deadline()
        while True:
            event = self.next_event(deadline)
            if (event.type == X.PropertyNotify and event.window.id == self.window.id and event.atom == prop
                    and event.state == X.PropertyNewValue):
                return

    def atom_name(self, value):
        try:
            return self.display.get_atom_name(value)
        except xerror.XError:
            return "0x%x" % value

    def result(self, seconds=None, **fields):
        fields["seconds"] = self.elapsed() if seconds is None else seconds
        say(json.dumps(fields))

    # Modes

    def multiple(self):
        arguments = self.arguments
        MULTIPLE, ATOM_PAIR = self.display.intern_atom("MULTIPLE"), self.display.intern_atom("ATOM_PAIR")
        parameters = self.display.intern_atom("CB_HOSTILE_MULTIPLE")
        targets = [self.display.intern_atom("CB_HOSTILE_%d" % index) for index in range(arguments.distinct)]
        period = array("I")
        for prop in targets:
            period.extend((self.target, prop))
        pairs = period * (arguments.pairs // arguments.distinct)
        pairs.extend(period[:2 * (arguments.pairs % arguments.distinct)])
        when = self.server_time()
        # From here on, no PropertyNotify: the owner may write thousands of properties on our window.
        self.window.change_attributes(event_mask=X.NoEventMask)
        self.write(parameters, ATOM_PAIR, 32, pairs.tobytes())
        self.window.convert_selection(self.selection, MULTIPLE, parameters, when)
        self.sent = time.monotonic()
        self.display.sync()
        say("READY")
        try:
            notify = self.wait_notify(parameters, when)
            answered_after = self.elapsed()
        except TimedOut:
            self.result(answered=False, refused=False, failed_pairs=None)
            return 3
        failed = None
        if notify.property != X.NONE:
            answer = self.read(parameters)
            if answer is not None and answer[1] == 32:
                failed = array("I", answer[2][:len(answer[2]) // 4 * 4])[1::2].count(X.NONE)
        self.result(answered=True, refused=notify.property == X.NONE, failed_pairs=failed, seconds=answered_after)
        return 0

    def transfer(self, prop, chunks_wanted=None):
        """After an INCR answer: deletes the INCR property and receives chunks (all, or `chunks_wanted`)."""
        pieces, kind, format, count = [], None, None, 0
        self.received = 0
        self.window.delete_property(prop)
        self.display.flush()
        while chunks_wanted is None or count < chunks_wanted:
            self.wait_new_value(prop)
            answer = self.read(prop)
            if answer is None:
                continue
            self.window.delete_property(prop)
            self.display.flush()
            if not answer[2]:
                break
            kind, format = answer[0], answer[1]
            pieces.append(answer[2])
            self.received += len(answer[2])
            count += 1
        return kind, format, b"".join(pieces), count

    def convert_mode(self):
        prop = self.property
        when = self.convert(self.target, prop)
        try:
            notify = self.wait_notify(prop, when)
            if notify.property == X.NONE:
                self.result(answered=True, refused=True, type=None, format=None, bytes=0, incr=False, sha256=None)
                return 1
            answer = self.read(prop) or (X.NONE, None, b"")
            kind, format, data = answer
            incr = self.incr = kind == self.INCR
            if incr:
                kind, format, data, _ = self.transfer(prop)
            else:
                self.window.delete_property(prop)
                self.display.flush()
        except TimedOut:
            # answered: a SelectionNotify arrived (then the INCR transfer stalled: bytes is what came).
            self.result(answered=self.incr, refused=False, type=None, format=None, bytes=self.received,
                        incr=self.incr, sha256=None)
            return 3
        if self.arguments.output:
            with open(self.arguments.output, "wb") as output:
                output.write(data)
        self.result(answered=True, refused=False, type=self.atom_name(kind) if kind else None, format=format,
                    bytes=len(data), incr=incr, sha256=hashlib.sha256(data).hexdigest())
        return 0 if kind else 1

    def incr_stall(self):
        prop = self.property
        when = self.convert(self.target, prop)
        try:
            notify = self.wait_notify(prop, when)
            if notify.property == X.NONE:
                self.result(answered=True, refused=True, incr=False, size=None, chunks=0, bytes=0)
                return 1
            kind, format, data = self.read(prop) or (X.NONE, None, b"")
            if kind != self.INCR:
                self.result(answered=True, refused=False, incr=False, size=None, chunks=0, bytes=len(data),
                            type=self.atom_name(kind) if kind else None)
                return 1
            self.incr = True
            size = array("I", data[:4]).tolist()[0] if format == 32 and len(data) >= 4 else None
            chunks, received = 0, 0
            if self.arguments.chunks:
                _, _, received_data, chunks = self.transfer(prop, self.arguments.chunks)
                received = len(received_data)
        except TimedOut:
            # The owner never answered, or stopped sending chunks before --chunks came.
            self.result(answered=self.incr, refused=False, incr=self.incr, size=None, chunks=None,
                        bytes=self.received)
            return 3
        self.result(answered=True, refused=False, incr=True, size=size, chunks=chunks, bytes=received)
        # Stall: keep the window, delete nothing, read nothing (events are drained and ignored).
        self.stalling = True
        end = min(time.monotonic() + self.arguments.stall, self.life_deadline)
        while True:
            try:
                self.next_event(end)
            except TimedOut:
                return 0

    def save_targets(self):
        arguments = self.arguments
        prop = self.property
        self.window.delete_property(prop)
        if arguments.save_list is not None:
            names = [name for name in arguments.save_list.split(",") if name]
            if arguments.save_list_type == "ATOM":
                atoms = array("I", [self.display.intern_atom(name) for name in names])
                self.write(prop, Xatom.ATOM, 32, atoms.tobytes())
            else:
                self.write(prop, self.display.intern_atom(arguments.save_list_type), 8,
                           ",".join(names).encode())
        when = self.convert(self.display.intern_atom("SAVE_TARGETS"), prop)
        try:
            notify = self.wait_notify(prop, when)
        except TimedOut:
            self.result(answered=False, refused=False)
            return 3
        refused = notify.property == X.NONE
        self.result(answered=True, refused=refused)
        return 1 if refused else 0

    def run(self):
        if self.arguments.mode == "save-targets":
            return self.save_targets()
        if self.arguments.mode == "multiple":
            return self.multiple()
        if self.arguments.mode == "convert":
            return self.convert_mode()
        return self.incr_stall()


def main():
    arguments = parse_arguments()
    install_stops(arguments.exit_after)
    requestor = None
    try:
        requestor = Requestor(arguments)
        return requestor.run()
    except TimedOut:
        say("timed out", sys.stderr)
        return 3
    except Stopped:
        say("STOPPED")
        return 0 if requestor is not None and requestor.stalling else 3


if __name__ == "__main__":
    sys.exit(main())
