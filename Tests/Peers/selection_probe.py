#!/usr/bin/python3
"""Ask the owner of an X selection for one target and print exactly what came back, as one JSON line.

Run it with Debian's /usr/bin/python3 (python3-xlib), with DISPLAY set to the test's Xvfb:

    selection_probe.py TARGET [--selection CLIPBOARD] [--timeout 5] [--linger 0.1] [--save FILE] [--current-time]

Unlike xclip/xsel this hides nothing: it reports the raw SelectionNotify the owner sent and the raw
property it wrote, before any conversion. It takes a real server timestamp (a zero-length property
append on its own window) for ConvertSelection unless --current-time asks for CurrentTime, asks for
TARGET into the property CLIPBRIDGE_PROBE, and follows INCR to the end (deleting each chunk as ICCCM says).

Output keys:
  selection, target      what was asked for (atom names)
  notify                 {selection, target, property, time, send_event} of the SelectionNotify received,
                         atoms by name (property null when the owner refused); null on timeout
  owner                  the selection owner's window id (hex) when the request was made, or null
  type, format           the property's type (atom name) and format (8/16/32); for INCR, the type and
                         format of the chunks (the data), while incr is true
  incr                   true when the first property was of type INCR
  incr_size              the size the owner announced in the INCR property (a lower bound), or null
  chunks                 number of non-empty INCR chunks (0 without INCR)
  chunk_types            distinct chunk type names, in order of appearance (INCR only)
  nitems, bytes          item count, and byte count on the wire (nitems * format / 8)
  head_hex               the first 64 bytes, hex (format 16/32 items packed in native byte order)
  atoms                  for type ATOM (e.g. TARGETS): the atom names, in order
  elapsed_ms             from ConvertSelection to the last byte
  late_notifies          SelectionNotify events that arrived during --linger seconds after the last byte
                         (same fields as notify). xsel 1.2 sends one more after every INCR transfer it
                         completes; a requestor that destroys its window at once makes xsel die of BadWindow.
  error                  only on failure: "no owner", "timeout", "refused", ...
--save FILE writes every byte of the data (as in head_hex) to FILE. The probe's window stays alive for
--linger seconds (default 0.1) after the transfer, as a long-lived requestor's would.
Exit status: 0 data received, 1 no owner or refused (property None), 2 usage, 3 timed out.
"""

import argparse
import json
import os
import select
import struct
import sys
import time

from Xlib import X, Xatom, display as xdisplay

PROPERTY_NAME = "CLIPBRIDGE_PROBE"


class Probe:
    def __init__(self, arguments):
        self.display = xdisplay.Display()
        self.arguments = arguments
        self.deadline = time.monotonic() + arguments.timeout
        screen = self.display.screen()
        self.window = screen.root.create_window(-10, -10, 1, 1, 0, screen.root_depth,
                                                event_mask=X.PropertyChangeMask)
        self.atom = self.display.intern_atom
        self.property = self.atom(PROPERTY_NAME)
        self.incr = self.atom("INCR")

    def name(self, atom):
        if atom == X.NONE:
            return None
        try:
            return self.display.get_atom_name(atom)
        except Exception:  # noqa: BLE001 - an unknown atom id is worth reporting, not crashing on
            return "#%d" % atom

    def next_event(self):
        """The next event, or None once the deadline has passed."""
        while True:
            if self.display.pending_events():
                return self.display.next_event()
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                return None
            select.select([self.display.fileno()], [], [], remaining)
            # Reading happens inside pending_events(); a readable socket may hold only replies.

    def server_time(self):
        self.window.change_property(self.atom("CLIPBRIDGE_PROBE_TIME"), Xatom.STRING, 8, b"", X.PropModeAppend)
        self.display.flush()
        while True:
            event = self.next_event()
            if event is None:
                return X.CurrentTime
            if event.type == X.PropertyNotify and event.window == self.window:
                return event.time

    def read_property(self):
        reply = self.window.get_full_property(self.property, X.AnyPropertyType, sizehint=1 << 20)
        self.window.delete_property(self.property)
        self.display.flush()
        return reply

    def notify_fields(self, event):
        return {"selection": self.name(event.selection), "target": self.name(event.target),
                "property": self.name(event.property), "time": event.time, "send_event": bool(event.send_event)}

    def linger(self):
        late = []
        self.deadline = time.monotonic() + self.arguments.linger
        while True:
            event = self.next_event()
            if event is None:
                return late
            if event.type == X.SelectionNotify and event.requestor == self.window:
                late.append(self.notify_fields(event))

    @staticmethod
    def packed(value, format_):
        if format_ == 8:
            return bytes(value) if not isinstance(value, str) else value.encode("latin-1")
        code = "=H" if format_ == 16 else "=I"
        return b"".join(struct.pack(code, item & (0xFFFF if format_ == 16 else 0xFFFFFFFF)) for item in value)

    def run(self):
        arguments = self.arguments
        result = {"selection": arguments.selection, "target": arguments.target, "notify": None, "owner": None,
                  "type": None, "format": None, "incr": False, "incr_size": None, "chunks": 0,
                  "chunk_types": [], "nitems": 0, "bytes": 0, "head_hex": "", "late_notifies": []}
        selection = self.atom(arguments.selection)
        target = self.atom(arguments.target)
        owner = self.display.get_selection_owner(selection)
        if owner == X.NONE or not owner:
            result["error"] = "no owner"
            return result, 1
        result["owner"] = "0x%x" % owner.id
        timestamp = X.CurrentTime if arguments.current_time else self.server_time()
        started = time.monotonic()
        self.window.convert_selection(selection, target, self.property, timestamp)
        self.display.flush()

        while True:
            event = self.next_event()
            if event is None:
                result["error"] = "timeout waiting for SelectionNotify"
                return result, 3
            if event.type == X.SelectionNotify and event.requestor == self.window:
                break
        result["notify"] = self.notify_fields(event)
        if event.property == X.NONE:
            result["error"] = "refused"
            return result, 1

        reply = self.read_property()
        if reply is None:
            result["error"] = "SelectionNotify named a property that does not exist"
            return result, 1
        data = b""
        nitems = 0
        if reply.property_type == self.incr:
            result["incr"] = True
            result["incr_size"] = int(reply.value[0]) if len(reply.value) else None
            # Deleting the INCR property (done in read_property) asks for the first chunk.
            while True:
                event = self.next_event()
                if event is None:
                    result["error"] = "timeout during INCR after %d chunks" % result["chunks"]
                    result.update(nitems=nitems, bytes=len(data), head_hex=data[:64].hex())
                    return result, 3
                if not (event.type == X.PropertyNotify and event.window == self.window
                        and event.atom == self.property and event.state == X.PropertyNewValue):
                    continue
                chunk = self.read_property()
                if chunk is None:
                    continue
                type_name = self.name(chunk.property_type)
                result["type"], result["format"] = type_name, chunk.format
                if len(chunk.value) == 0:
                    break
                if type_name not in result["chunk_types"]:
                    result["chunk_types"].append(type_name)
                result["chunks"] += 1
                data += self.packed(chunk.value, chunk.format)
                nitems += len(chunk.value)
        else:
            result["type"], result["format"] = self.name(reply.property_type), reply.format
            data = self.packed(reply.value, reply.format)
            nitems = len(reply.value)
            if reply.property_type == Xatom.ATOM:
                result["atoms"] = [self.name(atom) for atom in reply.value]
        result["elapsed_ms"] = round((time.monotonic() - started) * 1000, 1)
        result["late_notifies"] = self.linger()
        result.update(nitems=nitems, bytes=len(data), head_hex=data[:64].hex())
        if arguments.save:
            with open(arguments.save, "wb") as output:
                output.write(data)
        return result, 0


def main():
    parser = argparse.ArgumentParser(description="print the raw answer of a selection owner for one target")
    parser.add_argument("target")
    parser.add_argument("--selection", default="CLIPBOARD")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds for the whole exchange (default 5)")
    parser.add_argument("--linger", type=float, default=0.1,
                        help="seconds to keep the window and watch for late SelectionNotify events (default 0.1)")
    parser.add_argument("--save", metavar="FILE", help="write all the data bytes to FILE")
    parser.add_argument("--current-time", action="store_true", help="ask with CurrentTime, not a server time")
    arguments = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        parser.error("DISPLAY is not set")
    result, status = Probe(arguments).run()
    sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
