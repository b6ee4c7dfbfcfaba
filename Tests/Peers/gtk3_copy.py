#!/usr/bin/python3
"""A real GTK 3 application that copies text and, when it exits, hands it to the clipboard manager.

Run it with Debian's /usr/bin/python3 (python3-gi, gir1.2-gtk-3.0), with DISPLAY set to the test's Xvfb:

    gtk3_copy.py TEXT [--selection clipboard|primary] [--timeout SECONDS]
    gtk3_copy.py --file FILE [...]      the text is FILE's bytes, UTF-8 (for text past argv's 128 KiB)

It owns the selection with Gtk.Clipboard.set_text (which also marks every target storable, exactly as
gtk_clipboard_set_can_store(NULL, 0) does), prints "ready" once the X server has made it the owner, and
serves until told to stop. Stopping is what any GTK 3 app does on exit: gtk_clipboard_store() sends
ConvertSelection(CLIPBOARD_MANAGER, SAVE_TARGETS) and waits (GTK's own limit: 10 s) until the manager has
copied every target and answered. A manager then owns CLIPBOARD; with no CLIPBOARD_MANAGER owner GTK
skips the handover at once.

It stops on the first of:
  - SIGTERM or SIGINT;
  - end of file on stdin, but only when stdin is a pipe or a socket (with /dev/null, a file or a
    terminal as stdin, stdin is ignored), so a test that holds the write end of a pipe can just close it;
  - --timeout seconds (default 60), a safety net, printed as "timeout";
  - losing the selection to another owner before any of those ("lost"; nothing is handed over then).
After a stop it hands over, then prints one line: "stored" if the selection is no longer ours (the
manager took it), "not-stored" if we still owned it after store() returned (no manager, or the manager
refused or timed out). All of these exit 0. Exit status: 1 the display or the claim failed, 2 usage.
PRIMARY is never handed over (GTK stores only CLIPBOARD); with --selection primary it just exits.
"""

import argparse
import os
import signal
import stat
import sys

# Never Wayland, never an accessibility bus on a headless test server.
os.environ["GDK_BACKEND"] = "x11"
os.environ.setdefault("NO_AT_BRIDGE", "1")

import gi  # noqa: E402

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def say(word):
    sys.stdout.write(word + "\n")
    sys.stdout.flush()


def stdin_is_a_channel():
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class Copier:
    def __init__(self, arguments):
        self.selection = Gdk.Atom.intern("PRIMARY" if arguments.selection == "primary" else "CLIPBOARD", False)
        self.display = Gdk.Display.get_default()
        if self.display is None:
            sys.stderr.write("cannot open display %r\n" % os.environ.get("DISPLAY"))
            sys.exit(1)
        self.clipboard = Gtk.Clipboard.get_for_display(self.display, self.selection)
        self.text = arguments.text
        self.stopping = False

    def we_own_it(self):
        # GDK answers with a GdkWindow for any window it knows, and it knows the manager's window as a FOREIGN
        # one once the manager has asked us for data: only a window of ours that is not foreign counts.
        owner = Gdk.selection_owner_get_for_display(self.display, self.selection)
        return owner is not None and owner.get_window_type() != Gdk.WindowType.FOREIGN

    def claim(self):
        self.clipboard.set_text(self.text, -1)  # GTK 3 also calls set_can_store(NULL, 0) here
        # set_text returns nothing; GDK's X11 owner_set already read the owner back, so this is the answer.
        if not self.we_own_it():
            sys.stderr.write("could not own the selection\n")
            sys.exit(1)
        self.clipboard.connect("owner-change", self.owner_changed)
        self.display.flush()
        say("ready")
        return GLib.SOURCE_REMOVE

    def owner_changed(self, *_):
        if not self.stopping and not self.we_own_it():
            self.stopping = True
            say("lost")
            Gtk.main_quit()

    def stop(self, word=None):
        if self.stopping:
            return GLib.SOURCE_REMOVE
        self.stopping = True
        if word:
            say(word)
        self.clipboard.store()  # blocks in a nested loop until the manager answers or 10 s pass
        say("not-stored" if self.we_own_it() else "stored")
        Gtk.main_quit()  # gtk_main's own _gtk_clipboard_store_all then finds nothing left to store
        return GLib.SOURCE_REMOVE

    def stdin_ready(self, _channel, _condition):
        try:
            data = os.read(0, 4096)
        except OSError:
            data = b""
        if data:
            return GLib.SOURCE_CONTINUE
        self.stop()
        return GLib.SOURCE_REMOVE


def main():
    parser = argparse.ArgumentParser(description="GTK 3 copier that hands over to the clipboard manager")
    parser.add_argument("text", nargs="?")
    parser.add_argument("--file", metavar="FILE", help="copy FILE's contents (UTF-8) instead of TEXT")
    parser.add_argument("--selection", choices=["clipboard", "primary"], default="clipboard")
    parser.add_argument("--timeout", type=float, default=60.0, help="stop by itself after this (default 60)")
    arguments = parser.parse_args()
    if (arguments.text is None) == (arguments.file is None):
        parser.error("give TEXT or --file FILE")
    if arguments.file is not None:
        with open(arguments.file, "rb") as text_file:
            arguments.text = text_file.read().decode("utf-8")

    Gtk.init(None)
    copier = Copier(arguments)
    # A hard stop in case GTK itself wedges: the handover is bounded by GTK's 10 s, so allow for it.
    signal.alarm(int(arguments.timeout) + 15)
    for number in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, number, copier.stop)
    if stdin_is_a_channel():
        GLib.io_add_watch(GLib.IOChannel.unix_new(0), GLib.PRIORITY_DEFAULT,
                          GLib.IOCondition.IN | GLib.IOCondition.HUP | GLib.IOCondition.ERR, copier.stdin_ready)
    GLib.timeout_add(int(arguments.timeout * 1000), copier.stop, "timeout")
    copier.claim()
    Gtk.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
