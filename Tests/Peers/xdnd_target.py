#!/usr/bin/python3
"""A scripted XDND drop target that misbehaves, for the drag source's watchdog tests: a mapped toplevel with
XdndAware (version 5) at --geometry that answers as it is told.

  xdnd_target.py --mode silent|no-finish|die-on-drop|refuse-finish|wavering-refuse|wavering-accept|plain
                 [--geometry X,Y,W,H] [--timeout S]

  silent         never answers anything (no XdndStatus, no XdndFinished)
  no-finish      accepts every position (XdndStatus accept, copy) but never sends XdndFinished after XdndDrop
  die-on-drop    accepts every position, and exits (its window and connection going with it) on XdndDrop
  refuse-finish  accepts every position, then finishes the drop with "not accepted" (XDND v5's verdict)
  wavering-refuse  answers every position with three statuses, refuse, accept, refuse, as LibreOffice Writer 7.4
                 (VCL's GTK 3 drop target) answers a drop point it will not take; finishes a drop "not accepted"
  wavering-accept  answers refuse, accept, accept, as Writer answers a drop point it takes; finishes "accepted"
  plain          no XdndAware at all: a window of an app that knows nothing of XDND (another client may make it a
                 drop target through XdndProxy)

It prints `READY <xid> <x> <y> <width> <height>` once mapped, then one line per XDND message received
("XdndEnter", "XdndPosition", "XdndLeave", "XdndDrop"), and runs until --timeout (default 30) or SIGTERM.
Exit status 0; 1 no display; 2 usage.
"""

import argparse
import select
import sys

from Xlib import X, Xatom
from Xlib.protocol import event as xevent

from peer_process import Stopped, install_stops, open_display, say


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True, choices=["silent", "no-finish", "die-on-drop", "refuse-finish", "wavering-refuse",
                                                            "wavering-accept", "plain"])
    parser.add_argument("--geometry", default="0,0,300,200")
    parser.add_argument("--timeout", type=float, default=30)
    arguments = parser.parse_args()
    x, y, width, height = (int(part) for part in arguments.geometry.split(","))
    install_stops(arguments.timeout)
    display = open_display()
    atom = display.intern_atom
    screen = display.screen()
    window = screen.root.create_window(x, y, width, height, 0, screen.root_depth,
                                       background_pixel=screen.white_pixel, event_mask=X.StructureNotifyMask)
    if arguments.mode != "plain":
        window.change_property(atom("XdndAware"), Xatom.ATOM, 32, [5])
    window.set_wm_name("xdnd_target %s" % arguments.mode)
    window.map()
    display.sync()
    while True:
        event = display.next_event()
        if event.type == X.MapNotify:
            break
    origin = window.translate_coords(screen.root, 0, 0)
    say("READY %d %d %d %d %d" % (window.id, -origin.x, -origin.y, width, height))
    names = {atom(name): name for name in ("XdndEnter", "XdndPosition", "XdndLeave", "XdndDrop")}

    def send(destination, kind, words):
        message = xevent.ClientMessage(window=destination, client_type=atom(kind),
                                       data=(32, (words + [0] * 5)[:5]))
        destination.send_event(message, event_mask=0)
        display.flush()

    try:
        while True:
            while display.pending_events():
                event = display.next_event()
                if event.type != X.ClientMessage or event.client_type not in names:
                    continue
                name = names[event.client_type]
                say(name)
                source = display.create_resource_object("window", event.data[1][0])
                if arguments.mode in ("silent", "plain"):
                    continue
                accept = [window.id, 1, 0, 0, atom("XdndActionCopy")]
                refuse = [window.id, 0, 0, 0, 0]
                if name == "XdndPosition" and arguments.mode.startswith("wavering"):
                    last = accept if arguments.mode == "wavering-accept" else refuse
                    for words in (refuse, accept, last):
                        send(source, "XdndStatus", words)
                elif name == "XdndPosition":
                    send(source, "XdndStatus", accept)
                elif name == "XdndDrop":
                    if arguments.mode == "die-on-drop":
                        sys.exit(0)
                    if arguments.mode in ("refuse-finish", "wavering-refuse"):
                        send(source, "XdndFinished", [window.id, 0, 0])
                    elif arguments.mode == "wavering-accept":
                        send(source, "XdndFinished", [window.id, 1, atom("XdndActionCopy")])
            select.select([display], [], [], 0.5)
    except Stopped:
        say("STOPPED")


if __name__ == "__main__":
    main()
