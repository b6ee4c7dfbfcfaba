"""What the hostile peers share: their output lines, their stop signals and their selection names.

A peer writes one line per event on stdout (the Swift side waits for them), stops at once on SIGTERM or
SIGINT (raising Stopped, so any wait in progress ends), and ends for good after --exit-after seconds plus
a margin whatever it is doing (SIGALRM's default action), so a test never leaves one behind.
"""

import os
import signal
import sys

from Xlib import display as xdisplay, error as xerror


class Stopped(BaseException):
    """Raised by the SIGTERM/SIGINT handler, so that any wait ends at once."""


def stop(*_):
    raise Stopped()


def say(line, stream=sys.stdout):
    stream.write(line + "\n")
    stream.flush()


def install_stops(exit_after):
    """A hard stop after exit_after seconds (plus 5), and Stopped on SIGTERM and SIGINT."""
    signal.alarm(int(exit_after) + 5)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def selection_name(name):
    """CLIPBOARD, PRIMARY and SECONDARY in any case; any other name as given."""
    return name.upper() if name.lower() in ("clipboard", "primary", "secondary") else name


def open_display():
    """The display of $DISPLAY (exit 1 with a message when it cannot be opened). X errors the peer provokes
    (a window that is gone: BadWindow) are expected: they are logged on stderr and the peer goes on."""
    try:
        display = xdisplay.Display()
    except (xerror.DisplayError, OSError) as failure:
        say("cannot open display %r: %s" % (os.environ.get("DISPLAY"), failure), sys.stderr)
        sys.exit(1)
    display.set_error_handler(lambda failure, request: say("X error: %s" % failure, sys.stderr))
    return display
