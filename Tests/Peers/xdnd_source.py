#!/usr/bin/env python3
"""A scripted XDND drag source (protocol version 5) for tests: no pointer, no grab — it speaks the protocol to
one target window directly, as a real source would once the pointer is over it.

  xdnd_source.py --target WINDOW --offer TYPE FILE [--offer TYPE FILE ...] [--action copy|move|link|directsave]
                 [--x X --y Y] [--extra-types N] [--die-after-drop]
                 [--direct-save NAME [--direct-save-type TYPE] [--direct-save-reply S|F|E|lie]]

--direct-save NAME speaks the Direct Save Protocol (XDS) as Chromium does for an image: it offers XdndDirectSave0
first and sets its window's XdndDirectSave0 property to NAME (bytes as given, of --direct-save-type, default
text/plain). Asked for XdndDirectSave0, it reads the file:// URI the target wrote there and answers with
--direct-save-reply: S after writing the application/octet-stream offer's bytes to that path (default), F (the
target is to read application/octet-stream), E, or "lie" (answers S without writing anything). The JSON line
gets "directSaveURI" (what the target wrote, or null).

It owns XdndSelection (with a real server time), serves TARGETS and the offered types from their files, finds where to send
(the target's XdndProxy when that proxy names itself, else the target), reads the target's XdndAware version,
and sends XdndEnter (up to three types inline, XdndTypeList beyond: --extra-types adds N made-up types after the
offered ones), then XdndPosition. If the XdndStatus accepts, it sends XdndDrop with a fresh server time and waits
for XdndFinished; otherwise it sends XdndLeave. It prints one JSON line: {"version", "accepted" (status),
"statusAction", "finished" (null when not dropped), "finishedAccepted", "finishedAction", "requests" (targets
converted)}. Exit status 0 when the exchange completed (whatever the verdicts), 1 when the target stopped
answering (5 s), 2 usage.
"""

import argparse
import json
import select
import sys
import time

from Xlib import X, Xatom
from Xlib.protocol import event as xevent

from peer_process import open_display, say

WAIT = 5.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", required=True, type=lambda value: int(value, 0))
    parser.add_argument("--offer", nargs=2, action="append", metavar=("TYPE", "FILE"), required=True)
    parser.add_argument("--action", choices=["copy", "move", "link", "directsave"], default="copy")
    parser.add_argument("--direct-save", default=None)
    parser.add_argument("--direct-save-type", default="text/plain")
    parser.add_argument("--direct-save-reply", choices=["S", "F", "E", "lie"], default="S")
    parser.add_argument("--x", type=int, default=10)
    parser.add_argument("--y", type=int, default=10)
    parser.add_argument("--extra-types", type=int, default=0)
    parser.add_argument("--die-after-drop", action="store_true",
                        help="exit right after sending XdndDrop, serving nothing (a source that dies mid-drop)")
    arguments = parser.parse_args()

    display = open_display()
    atom = lambda name: display.intern_atom(name)
    name = lambda value: display.get_atom_name(value) if value else None
    screen = display.screen()
    source = screen.root.create_window(0, 0, 1, 1, 0, screen.root_depth, event_mask=X.PropertyChangeMask)
    contents = {}
    for kind, path in arguments.offer:
        with open(path, "rb") as handle:
            contents[atom(kind)] = handle.read()
    types = list(contents) + [atom("application/x-extra-%d" % index) for index in range(arguments.extra_types)]
    direct_save = {"uri": None}
    if arguments.direct_save is not None:
        types.insert(0, atom("XdndDirectSave0"))
        source.change_property(atom("XdndDirectSave0"), atom(arguments.direct_save_type), 8,
                               arguments.direct_save.encode("utf-8", "surrogateescape"))

    def server_time():
        source.change_property(atom("XDND_TEST_TIME"), Xatom.STRING, 8, b"", mode=X.PropModeAppend)
        display.flush()
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            while display.pending_events():
                event = display.next_event()
                if event.type == X.PropertyNotify and event.window.id == source.id:
                    return event.time
                handle(event)
            select.select([display], [], [], 0.05)
        fail("no PropertyNotify for a timestamp")

    requests = []

    def handle(event):
        """Serves XdndSelection and records client messages."""
        if event.type == X.SelectionRequest:
            data = contents.get(event.target)
            prop = event.property or event.target
            if event.target == atom("TARGETS"):
                # As GTK's and Qt's sources do: the offered types, which a target may read before converting.
                event.requestor.change_property(prop, Xatom.ATOM, 32, [atom("TARGETS")] + types)
                data = b""
            elif event.target == atom("XdndDirectSave0") and arguments.direct_save is not None:
                written = source.get_full_property(atom("XdndDirectSave0"), X.AnyPropertyType)
                uri = bytes(written.value).decode("utf-8", "replace") if written else None
                direct_save["uri"] = uri
                reply = arguments.direct_save_reply
                if reply == "S":
                    from urllib.parse import unquote, urlparse
                    path = unquote(urlparse(uri).path) if uri else None
                    try:
                        with open(path, "wb") as handle:
                            handle.write(contents.get(atom("application/octet-stream"), b""))
                    except (OSError, TypeError):
                        reply = "E"
                data = (b"S" if reply == "lie" else reply.encode())
                event.requestor.change_property(prop, Xatom.STRING, 8, data)
            elif data is not None:
                event.requestor.change_property(prop, event.target, 8, data)
            requests.append(name(event.target))
            notify = xevent.SelectionNotify(time=event.time, requestor=event.requestor, selection=event.selection,
                                            target=event.target, property=prop if data is not None else X.NONE)
            event.requestor.send_event(notify)
            display.flush()
        elif event.type == X.ClientMessage:
            messages.append(event)

    messages = []

    def wait_for(kind):
        deadline = time.monotonic() + WAIT
        wanted = atom(kind)
        while time.monotonic() < deadline:
            for index, message in enumerate(messages):
                if message.client_type == wanted:
                    return messages.pop(index)
            while display.pending_events():
                handle(display.next_event())
            if not any(message.client_type == wanted for message in messages):
                select.select([display], [], [], 0.05)
        fail("no %s within %.0f s" % (kind, WAIT))

    def fail(reason):
        say(json.dumps({"error": reason}))
        sys.exit(1)

    def send(kind, words):
        data = (32, (words + [0] * 5)[:5])
        message = xevent.ClientMessage(window=target, client_type=atom(kind), data=data)
        destination.send_event(message, event_mask=0)
        display.flush()

    target = display.create_resource_object("window", arguments.target)
    destination = target
    proxy = target.get_full_property(atom("XdndProxy"), X.AnyPropertyType)
    if proxy and proxy.value:
        candidate = display.create_resource_object("window", proxy.value[0])
        own = candidate.get_full_property(atom("XdndProxy"), X.AnyPropertyType)
        if own and own.value and own.value[0] == candidate.id:
            destination = candidate
    aware = target.get_full_property(atom("XdndAware"), X.AnyPropertyType)
    if not aware or not aware.value:
        fail("the target has no XdndAware")
    version = min(5, aware.value[0])

    owned_at = server_time()
    source.set_selection_owner(atom("XdndSelection"), owned_at)
    if len(types) > 3:
        source.change_property(atom("XdndTypeList"), Xatom.ATOM, 32, types)
    inline = (types[:3] + [0, 0, 0])[:3]
    send("XdndEnter", [source.id, (version << 24) | (1 if len(types) > 3 else 0)] + inline)
    action = atom({"copy": "XdndActionCopy", "move": "XdndActionMove", "link": "XdndActionLink",
                   "directsave": "XdndActionDirectSave"}[arguments.action])
    send("XdndPosition", [source.id, 0, (arguments.x << 16) | arguments.y, server_time(), action])
    status = wait_for("XdndStatus")
    words = status.data[1]
    accepted = bool(words[1] & 1)
    result = {"version": version, "accepted": accepted, "statusAction": name(words[4]) if accepted else None,
              "finished": None, "finishedAccepted": None, "finishedAction": None, "requests": requests,
              "directSaveURI": None}
    if accepted:
        send("XdndDrop", [source.id, 0, server_time()])
        if arguments.die_after_drop:
            display.sync()
            say(json.dumps(result))
            sys.exit(0)  # the connection closes: our window and XdndSelection ownership go with it
        finished = wait_for("XdndFinished")
        result["finished"] = True
        result["finishedAccepted"] = bool(finished.data[1][1] & 1)
        result["finishedAction"] = name(finished.data[1][2])
    else:
        send("XdndLeave", [source.id])
    result["directSaveURI"] = direct_save["uri"]
    say(json.dumps(result))


if __name__ == "__main__":
    main()
