#!/usr/bin/python3
"""Finds a mapped toplevel by its WM_NAME (or _NET_WM_NAME) and prints `<xid> <x> <y> <width> <height>` (decimal
XID, root coordinates), waiting up to --timeout seconds (default 10) for it to appear.

  find_window.py NAME [--timeout S]

Exit status: 0 found, 1 not found in time or no display, 2 usage.
"""

import argparse
import sys
import time

from Xlib import X

from peer_process import open_display, say


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("name")
    parser.add_argument("--timeout", type=float, default=10)
    arguments = parser.parse_args()
    display = open_display()
    root = display.screen().root
    net_name = display.intern_atom("_NET_WM_NAME")
    deadline = time.monotonic() + arguments.timeout
    while time.monotonic() < deadline:
        for window in root.query_tree().children:
            try:
                attributes = window.get_attributes()
                if attributes.map_state != X.IsViewable:
                    continue
                names = {window.get_wm_name()}
                value = window.get_full_property(net_name, X.AnyPropertyType)
                if value is not None:
                    names.add(value.value.decode("utf-8", "replace") if isinstance(value.value, bytes) else value.value)
                if arguments.name in names:
                    geometry = window.get_geometry()
                    origin = window.translate_coords(root, 0, 0)
                    say("%d %d %d %d %d" % (window.id, -origin.x, -origin.y, geometry.width, geometry.height))
                    return 0
            except Exception:  # a window that vanished while we looked
                continue
        time.sleep(0.05)
    say("no mapped window named %r" % arguments.name, sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
