#!/usr/bin/python3
"""Drives the pointer and the keyboard through the XTEST extension, as a user would, one step after another.

Run it with Debian's /usr/bin/python3 (python3-xlib), with DISPLAY set to the test's Xvfb:

    pointer.py [--steps N] [--step-delay MS] STEP [STEP ...]

Steps (run in order; XSync after each, so each has been processed by the X server before the next):
  move X Y       jump to root coordinates X Y
  glide X Y      move from the current position to X Y in --steps equal steps (default 12), sleeping
                 --step-delay milliseconds (default 15) after each one
  press [N]      press pointer button N (default 1)
  release [N]    release pointer button N (default 1)
  key NAME       press and release the key of keysym NAME (X keysym names: Escape, Return, a, Shift_L, ...)
  keydown NAME   press the key only (e.g. hold Shift_L or Control_L during a drag); keyup NAME releases it
  sleep MS       sleep MS milliseconds
  focus XID      give the keyboard focus to window XID (decimal or 0x hex): keys then go to it, with no
                 window manager to click-to-focus
The options may appear anywhere among the steps.

Example, a drag:  pointer.py move 50 50 press glide 400 300 sleep 100 release

Buttons and keys pressed stay down after the script exits until a release is sent. It prints nothing;
problems go to stderr. Exit status: 0 done (also on SIGTERM/SIGINT, which stop it between steps),
1 the display or XTEST is unavailable, 2 usage (an unknown step, a missing or bad number, an unknown keysym).
"""

import signal
import sys
import time

from Xlib import X, XK
from Xlib.ext import xtest

from peer_process import Stopped, install_stops, open_display, say

USAGE = "usage: pointer.py [--steps N] [--step-delay MS] STEP [STEP ...] (see the module docstring)"


def usage(message):
    say("pointer.py: %s\n%s" % (message, USAGE), sys.stderr)
    sys.exit(2)


def parse(arguments):
    """(options, steps) where steps is a list of (verb, values); exits 2 on bad usage."""
    options = {"steps": 12, "step_delay": 15.0}
    steps = []
    index = 0

    def number(kind=int):
        nonlocal index
        if index >= len(arguments):
            usage("%s needs a number" % arguments[index - 1])
        try:
            value = kind(arguments[index])
        except ValueError:
            usage("%r is not a number (after %s)" % (arguments[index], arguments[index - 1]))
        index += 1
        return value

    while index < len(arguments):
        word = arguments[index]
        index += 1
        if word in ("-h", "--help"):
            say(__doc__.strip())
            sys.exit(0)
        elif word == "--steps":
            options["steps"] = max(1, number())
        elif word == "--step-delay":
            options["step_delay"] = max(0.0, number(float))
        elif word in ("move", "glide"):
            steps.append((word, (number(), number())))
        elif word in ("press", "release"):
            button = 1
            if index < len(arguments) and arguments[index].isdigit():
                button = int(arguments[index])
                index += 1
            steps.append((word, (button,)))
        elif word in ("key", "keydown", "keyup"):
            if index >= len(arguments):
                usage("%s needs a keysym name" % word)
            steps.append((word, (arguments[index],)))
            index += 1
        elif word == "sleep":
            steps.append((word, (max(0.0, number(float)),)))
        elif word == "focus":
            if index >= len(arguments):
                usage("focus needs a window id")
            try:
                steps.append((word, (int(arguments[index], 0),)))
            except ValueError:
                usage("%r is not a window id" % arguments[index])
            index += 1
        else:
            usage("unknown step %r" % word)
    if not steps:
        usage("no steps given")
    return options, steps


def main():
    options, steps = parse(sys.argv[1:])
    # A hard stop: whatever the steps plan to take, plus a margin (install_stops adds 5 s).
    planned = sum(values[0] for verb, values in steps if verb == "sleep") / 1000.0
    planned += sum(options["steps"] * options["step_delay"] for verb, _ in steps if verb == "glide") / 1000.0
    install_stops(planned + 10)
    display = open_display()
    if not display.has_extension("XTEST"):
        say("the X server has no XTEST extension", sys.stderr)
        return 1
    root = display.screen().root

    keycodes = {}
    for verb, values in steps:
        if verb.startswith("key"):
            keysym = XK.string_to_keysym(values[0])
            keycode = display.keysym_to_keycode(keysym) if keysym else 0
            if not keycode:
                usage("no key for keysym %r" % values[0])
            keycodes[values[0]] = keycode

    def motion(x, y):
        xtest.fake_input(display, X.MotionNotify, detail=0, root=root, x=int(round(x)), y=int(round(y)))

    try:
        for verb, values in steps:
            if verb == "move":
                motion(*values)
            elif verb == "glide":
                pointer = root.query_pointer()
                start_x, start_y = pointer.root_x, pointer.root_y
                end_x, end_y = values
                count = options["steps"]
                for step in range(1, count + 1):
                    motion(start_x + (end_x - start_x) * step / count, start_y + (end_y - start_y) * step / count)
                    display.sync()
                    time.sleep(options["step_delay"] / 1000.0)
            elif verb == "press":
                xtest.fake_input(display, X.ButtonPress, values[0])
            elif verb == "release":
                xtest.fake_input(display, X.ButtonRelease, values[0])
            elif verb in ("key", "keydown"):
                xtest.fake_input(display, X.KeyPress, keycodes[values[0]])
                if verb == "key":
                    display.sync()
                    xtest.fake_input(display, X.KeyRelease, keycodes[values[0]])
            elif verb == "keyup":
                xtest.fake_input(display, X.KeyRelease, keycodes[values[0]])
            elif verb == "focus":
                window = display.create_resource_object("window", values[0])
                window.set_input_focus(X.RevertToParent, X.CurrentTime)
            elif verb == "sleep":
                time.sleep(values[0] / 1000.0)
            display.sync()
    except Stopped:
        display.sync()
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
