#!/usr/bin/python3
"""A real GTK 4 application as a clipboard peer for ClipBridge's tests.

Run it with Debian's /usr/bin/python3 (python3-gi, gir1.2-gtk-4.0), with DISPLAY set to the test's Xvfb.
It uses only public GTK 4 API (GdkClipboard, GdkContentProvider), so it behaves as any GTK 4 app does:
the X11 backend's own target names, INCR handling and timeouts are what is being tested against.

Verbs (exactly one):
  --read-text            print the clipboard's text (no newline added)
  --read-mime TYPE       write the bytes offered as TYPE to stdout
  --formats              list the offered MIME types, one per line
  --read-texture         read a GdkTexture (GTK picks among the owner's image types) and write it to stdout as PNG
  --set-text TEXT        own the selection with TEXT (may be combined with --set-mime)
  --set-mime TYPE FILE   own the selection with FILE's bytes as TYPE (repeatable, order kept)
  --set-texture FILE     own the selection with a GdkTexture loaded from FILE, so GTK offers its own image types
  --program-name NAME    g_set_prgname(NAME) first: GDK names the client WM_CLASS NAME/Name, as a C app's argv[0]
  --wayland              a Wayland client of WAYLAND_DISPLAY instead of an X one (GDK's Wayland backend). It shows a
                         window: a Wayland client sees the clipboard only with keyboard focus, and may set it only with
                         the serial of an input event of its own (wlroots `wlr_seat_client_validate_event_serial`), so
                         an owner prints "WAITING" and takes the selection at the first key pressed in its window
                         (the tests type one with wtype).
While owning, it prints "READY" once the claim is made, then serves until it loses ownership ("LOST"),
the timeout passes ("TIMEOUT") or SIGTERM/SIGINT arrives ("STOPPED"); all of these exit 0.
Exit status: 0 done, 1 nothing to read / read failed / unreadable image file (message on stderr), 2 usage,
3 timed out reading.
"""

import argparse
import os
import signal
import sys

# X11 unless --wayland; never an accessibility bus on a headless test server.
WAYLAND = "--wayland" in sys.argv
os.environ["GDK_BACKEND"] = "wayland" if WAYLAND else "x11"
os.environ.setdefault("GTK_A11Y", "none")
os.environ.setdefault("NO_AT_BRIDGE", "1")
os.environ.setdefault("GSK_RENDERER", "cairo")

import gi  # noqa: E402

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import GLib  # noqa: E402

# PyGObject's GTK 4 overrides open the display when Gtk is imported, and GDK names the client (WM_CLASS of its
# leader window) then: --program-name must be set before that import.
if "--program-name" in sys.argv[:-1]:
    GLib.set_prgname(sys.argv[sys.argv.index("--program-name") + 1])

from gi.repository import Gdk, Gio, GObject, Gtk  # noqa: E402


def parse_arguments():
    parser = argparse.ArgumentParser(description="GTK 4 clipboard peer for tests")
    parser.add_argument("--selection", choices=["clipboard", "primary"], default="clipboard")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds before giving up (reads: 10, serving: 30)")
    parser.add_argument("--read-text", action="store_true")
    parser.add_argument("--read-mime", metavar="TYPE")
    parser.add_argument("--formats", action="store_true")
    parser.add_argument("--read-texture", action="store_true")
    parser.add_argument("--set-text", metavar="TEXT")
    parser.add_argument("--set-mime", nargs=2, metavar=("TYPE", "FILE"), action="append", default=[])
    parser.add_argument("--set-texture", metavar="FILE")
    parser.add_argument("--wayland", action="store_true")
    parser.add_argument("--program-name", metavar="NAME",
                        help="the program name (g_set_prgname), which GDK writes into WM_CLASS, as a C app's argv[0]")
    arguments = parser.parse_args()
    reads = [arguments.read_text, arguments.read_mime is not None, arguments.formats, arguments.read_texture]
    sets_data = arguments.set_text is not None or bool(arguments.set_mime)
    sets_texture = arguments.set_texture is not None
    sets = sets_data or sets_texture
    if sum(bool(r) for r in reads) + int(sets_data) + int(sets_texture) != 1:
        parser.error("give exactly one of --read-text, --read-mime, --formats, --read-texture, "
                     "--set-text/--set-mime, or --set-texture")
    if arguments.timeout is None:
        arguments.timeout = 30.0 if sets else 10.0
    return arguments, sets


class Peer:
    def __init__(self, arguments):
        self.arguments = arguments
        self.status = 0
        self.loop = GLib.MainLoop()
        display = Gdk.Display.get_default()
        if display is None:
            sys.stderr.write("cannot open display %r\n" % os.environ.get("DISPLAY"))
            sys.exit(1)
        if arguments.selection == "primary":
            self.clipboard = display.get_primary_clipboard()
        else:
            self.clipboard = display.get_clipboard()

    def finish(self, status, message=None, stream=sys.stderr):
        if message is not None:
            stream.write(message + "\n")
            stream.flush()
        self.status = status
        self.loop.quit()
        return GLib.SOURCE_REMOVE

    # Reading

    def read_text(self):
        def done(clipboard, result):
            try:
                text = clipboard.read_text_finish(result)
            except GLib.Error as error:
                return self.finish(1, "read failed: %s" % error.message)
            if text is None:
                return self.finish(1, "no text on the clipboard")
            sys.stdout.buffer.write(text.encode("utf-8"))
            sys.stdout.flush()
            self.finish(0)
        self.clipboard.read_text_async(None, done)

    def read_mime(self, mime_type):
        def spliced(output, result):
            try:
                output.splice_finish(result)
            except GLib.Error as error:
                return self.finish(1, "copying the data failed: %s" % error.message)
            self.finish(0)

        def opened(clipboard, result):
            try:
                stream, _ = clipboard.read_finish(result)
            except GLib.Error as error:
                return self.finish(1, "read failed: %s" % error.message)
            # Stream straight to stdout: large payloads never sit in memory.
            output = Gio.UnixOutputStream.new(sys.stdout.fileno(), False)
            flags = Gio.OutputStreamSpliceFlags.CLOSE_SOURCE
            output.splice_async(stream, flags, GLib.PRIORITY_DEFAULT, None, spliced)
        self.clipboard.read_async([mime_type], GLib.PRIORITY_DEFAULT, None, opened)

    def read_texture(self):
        def done(clipboard, result):
            try:
                texture = clipboard.read_texture_finish(result)
            except GLib.Error as error:
                return self.finish(1, "read failed: %s" % error.message)
            if texture is None:
                return self.finish(1, "no image on the clipboard")
            sys.stdout.buffer.write(texture.save_to_png_bytes().get_data())
            sys.stdout.flush()
            self.finish(0)
        self.clipboard.read_texture_async(None, done)

    def formats(self):
        # GTK learns a foreign owner's targets asynchronously (it asks for TARGETS when the clipboard object is
        # created and on every XFixes owner change), so wait for the first update, or report none.
        def report(*_):
            for mime_type in self.clipboard.get_formats().get_mime_types() or []:
                sys.stdout.write(mime_type + "\n")
            sys.stdout.flush()
            self.finish(0)
            return GLib.SOURCE_REMOVE
        if self.clipboard.get_formats().get_mime_types():
            GLib.idle_add(report)
            return
        self.clipboard.connect("notify::formats", report)
        GLib.timeout_add(min(self.arguments.timeout * 1000, 2000), report)

    # Owning

    def own(self):
        if self.arguments.set_texture is not None:
            return self.own_texture()
        providers = []
        if self.arguments.set_text is not None:
            providers.append(Gdk.ContentProvider.new_for_value(GObject.Value(str, self.arguments.set_text)))
        for mime_type, path in self.arguments.set_mime:
            with open(path, "rb") as data_file:
                data = data_file.read()
            providers.append(Gdk.ContentProvider.new_for_bytes(mime_type, GLib.Bytes.new(data)))
        provider = providers[0] if len(providers) == 1 else Gdk.ContentProvider.new_union(providers)
        if not self.clipboard.set_content(provider):
            return self.finish(1, "could not set the clipboard content")
        self.serve()

    def own_texture(self):
        try:
            texture = Gdk.Texture.new_from_filename(self.arguments.set_texture)
        except GLib.Error as error:
            return self.finish(1, "cannot load an image from %s: %s" % (self.arguments.set_texture, error.message))
        if hasattr(self.clipboard, "set_texture"):
            self.clipboard.set_texture(texture)
        else:
            # gdk_clipboard_set_texture() is not introspectable in GTK 4.8; this is what it does.
            provider = Gdk.ContentProvider.new_for_value(GObject.Value(Gdk.Texture, texture))
            if not self.clipboard.set_content(provider):
                return self.finish(1, "could not set the clipboard content")
        self.serve()

    def wait_for_key(self):
        """Wayland: take the selection at the first key pressed in our window (its serial makes the claim valid)."""
        keys = Gtk.EventControllerKey()
        taken = []

        def pressed(*_):
            if not taken:
                taken.append(True)
                self.own()
            return False
        # The release too: a virtual keyboard's first press can come before its keymap, and be dropped (as QtWayland
        # does); the release carries a serial of its own.
        keys.connect("key-pressed", pressed)
        keys.connect("key-released", pressed)
        self.window.add_controller(keys)
        waited = []

        def ready_for_keys():
            # Once the compositor has activated the window (it focuses the newest), or after two seconds.
            waited.append(True)
            if not self.window.is_active() and len(waited) < 100:
                return GLib.SOURCE_CONTINUE
            sys.stdout.write("WAITING\n")
            sys.stdout.flush()
            return GLib.SOURCE_REMOVE
        GLib.timeout_add(20, ready_for_keys)

    def when_focused(self, then):
        """Wayland: run `then` once our window has keyboard focus and the clipboard's offer has had time to come."""
        def check():
            if self.window.is_active() or self.clipboard.get_formats().get_mime_types():
                GLib.timeout_add(100, then)
                return GLib.SOURCE_REMOVE
            return GLib.SOURCE_CONTINUE
        GLib.timeout_add(20, check)

    def serve(self):
        def lost(*_):
            if not self.clipboard.is_local():
                self.finish(0, "LOST", sys.stdout)
        self.clipboard.connect("notify::local", lost)
        self.clipboard.get_display().flush()
        sys.stdout.write("READY\n")
        sys.stdout.flush()


def main():
    arguments, owning = parse_arguments()
    Gtk.init()
    # A hard stop in case GTK itself wedges: SIGALRM's default action ends the process.
    signal.alarm(int(arguments.timeout) + 5)
    peer = Peer(arguments)
    if arguments.wayland:
        peer.window = Gtk.Window(title="clipbridge test peer")
        peer.window.present()
    for number in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, number,
                             lambda: peer.finish(0, "STOPPED", sys.stdout) if owning else peer.finish(3, "stopped"))
    if owning:
        GLib.timeout_add(int(arguments.timeout * 1000), lambda: peer.finish(0, "TIMEOUT", sys.stdout))
        GLib.idle_add(peer.wait_for_key if arguments.wayland else peer.own)
    else:
        GLib.timeout_add(int(arguments.timeout * 1000),
                         lambda: peer.finish(3, "timed out after %gs" % arguments.timeout))
        if arguments.read_text:
            start = peer.read_text
        elif arguments.read_mime is not None:
            start = lambda: peer.read_mime(arguments.read_mime)  # noqa: E731
        elif arguments.read_texture:
            start = peer.read_texture
        else:
            start = peer.formats
        if arguments.wayland:
            peer.when_focused(lambda: start() and False)
        else:
            GLib.idle_add(lambda: start() and False)
    peer.loop.run()
    return peer.status


if __name__ == "__main__":
    sys.exit(main())
