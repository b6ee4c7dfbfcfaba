#!/usr/bin/python3
"""Holds a pointer button down, or lets it go, through the XTEST extension, as a user's mouse would.

Run it with Debian's /usr/bin/python3 (python3-xlib), with DISPLAY set to the test's Xvfb:

    pointer_button.py press|release [--button N]   (default button 1)

It returns once the X server has processed the fake event (XSync). A button pressed stays down after the
script exits until a release is sent. Exit status: 0 done, 1 the display or XTEST is unavailable, 2 usage.
"""

import argparse
import sys

from Xlib import X
from Xlib.ext import xtest

from peer_process import open_display


def main():
    parser = argparse.ArgumentParser(description="press or release a pointer button through XTEST")
    parser.add_argument("action", choices=["press", "release"])
    parser.add_argument("--button", type=int, default=1)
    arguments = parser.parse_args()
    display = open_display()
    if not display.has_extension("XTEST"):
        sys.stderr.write("the X server has no XTEST extension\n")
        return 1
    kind = X.ButtonPress if arguments.action == "press" else X.ButtonRelease
    xtest.fake_input(display, kind, arguments.button)
    display.sync()
    return 0


if __name__ == "__main__":
    sys.exit(main())
