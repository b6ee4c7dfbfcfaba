#!/usr/bin/python3
"""A real GTK 4 application as an XDND drag-and-drop peer for ClipBridge's tests.

Run it with Debian's /usr/bin/python3 (python3-gi, gir1.2-gtk-4.0), with DISPLAY set to the test's Xvfb.
It uses only public GTK 4 API (GtkDropTargetAsync, GdkDrop, GtkDragSource, GdkContentProvider), so GTK's X11
backend does the XDND work as in any GTK 4 app. The X11 toplevel is undecorated; as GTK 4 cannot place its
windows, the peer moves it itself (XMoveResizeWindow through python-xlib, there being no window manager) and
checks the real position (XTranslateCoordinates) before announcing it.

  gtk4_dnd.py --target [--accept MIME ...] [--refuse] [--action copy|move|link] [--save DIR]
              [--read-timeout S] [--geometry X,Y,W,H] [--timeout S]
  gtk4_dnd.py --source --offer MIME FILE [--offer MIME FILE ...] [--actions copy,move] [--write-chunk BYTES]
              [--geometry X,Y,W,H] [--timeout S]

Both modes print `READY <xid> <x> <y> <width> <height>` (decimal XID of the toplevel, root coordinates) once
the window is mapped where --geometry (default 0,0,300,200) asks and has stayed there 100 ms (GTK has taken
in the move by then: drags can start at once), then one JSON line per event, and run until --timeout seconds
(default 60; prints TIMEOUT) or SIGTERM/SIGINT (prints STOPPED). Exit status: 0 (timeout and signals
included), 1 no display / the window could not be placed / unreadable --offer file, 2 usage.

--target: the whole window is a GtkDropTargetAsync for the --accept types (default text/plain;charset=utf-8,
  text/plain, text/uri-list; --accept takes one or more types and may be repeated) and the one --action
  (default copy). GTK accepts a drag that offers one of the types (X targets as GDK maps them to MIME types)
  and whose actions include --action; GTK 4.8 takes the drag's actions to be its suggested action alone
  (when the source sets XdndActionList without XdndActionAsk), so a GTK source dragged with Shift (suggests
  move) is refused by a copy target. Otherwise it refuses, as a real app would. --refuse: every drag is
  answered XdndStatus "not accepted"; a drop that comes anyway is finished with no action. Lines:
    {"event":"enter"}  {"event":"leave"}    only for drags the controller takes (offered type and action
                                            match; --refuse included); no "leave" after a drop
    {"event":"drop","mime":TYPE,"offered":[TYPES],"action":"copy","bytes":N,"file":PATH|null,
     "text":STRING|null,"elapsed_ms":MS}
    {"event":"drop-error","mime":TYPE|null,"offered":[TYPES],"error":MESSAGE}
  On a drop it reads the stream GTK opens for the accepted types the drag offers, in --accept order (GTK
  converts them in turn, UTF8_STRING, COMPOUND_TEXT, TEXT, STRING before text/plain;charset=utf-8; "mime" is the
  one it got), to its end, then finishes the drop with --action and prints "drop" ("action" "none" with
  --refuse). "file": DIR/drop-1, drop-2, ... with --save DIR; "text": the bytes as UTF-8 when there are at
  most 4096 and they decode; "elapsed_ms": from the drop signal to the last byte read. GTK itself never gives
  up on a conversion: after --read-timeout seconds (default 10) without the whole data the peer prints
  "drop-error" and finishes the drop with no action.
  (Reading: gdk_drop_read_async() crashes PyGObject with GTK 4.8, see payload_type(), so the stream is read
  through gdk_drop_read_value_async() and a deserializer: the same X11 conversions.)

--source: the whole window is a GtkDragSource whose content is the union, in --offer order, of
  gdk_content_provider_new_for_bytes(MIME, FILE's bytes), with the --actions (default copy,move; GDK suggests
  copy when allowed, move with Shift held). GTK 4.8 sends such bytes in a single X request, which fails beyond
  the server's maximum request size (16 MiB on Xvfb): the target gets the INCR header, then nothing. With
  --write-chunk BYTES (e.g. 1048576) each type is served by a GdkContentProvider of the peer's own that
  writes the bytes in pieces, so GTK sends INCR chunks of at most twice that: use it beyond 16 MiB. Lines:
    {"event":"drag-begin"}
    {"event":"drag-end","action":"copy"|"move"|"link"|"none","delete":BOOL}    (a drop was made)
    {"event":"drag-cancel","reason":"no-target"|"user-cancelled"|"error"}     (refused or cancelled; the
                                                     drag-end GTK emits after a cancel is not printed)

Driving a drag with pointer.py (GTK as source; S = a point inside the source window, T = inside the target):
    pointer.py move Sx Sy sleep 100 press glide Sx+40 Sy+40 glide Tx Ty sleep 200 release
  GTK starts the drag once the pointer has moved beyond the 8 px drag threshold with the button held (the
  first glide) and then grabs the pointer: at least one motion must come after that (a glide, or a sleep
  then a move) or the drag never sees the target and ends in drag-cancel "no-target" ("press move ... move
  Tx Ty release" fails that way). The sleep before the release lets the target's XdndStatus arrive (it was
  not needed against GTK or Qt targets in our runs). Pressing Escape through XTEST did not cancel GTK 4.8
  drags. Qt 5 sources cannot drop on this target: Qt answers GTK's conversion (CurrentTime, from GTK's leader
  window) with a SelectionNotify naming no target, which GTK never matches; expect "drop-error".
"""

import argparse
import json
import os
import signal
import sys
import time

# Never Wayland, never an accessibility bus on a headless test server.
os.environ["GDK_BACKEND"] = "x11"
os.environ.setdefault("GTK_A11Y", "none")
os.environ.setdefault("NO_AT_BRIDGE", "1")
os.environ.setdefault("GSK_RENDERER", "cairo")

import gi  # noqa: E402

gi.require_version("Gdk", "4.0")
gi.require_version("GdkX11", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GdkX11, Gio, GLib, GObject, Gtk  # noqa: E402
from Xlib import X, display as xdisplay, error as xerror  # noqa: E402

DEFAULT_ACCEPT = ["text/plain;charset=utf-8", "text/plain", "text/uri-list"]
ACTIONS = {"copy": Gdk.DragAction.COPY, "move": Gdk.DragAction.MOVE, "link": Gdk.DragAction.LINK}
CANCEL_REASONS = {Gdk.DragCancelReason.NO_TARGET: "no-target",
                  Gdk.DragCancelReason.USER_CANCELLED: "user-cancelled",
                  Gdk.DragCancelReason.ERROR: "error"}
TEXT_LIMIT = 4096
CHUNK = 1 << 20


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def event(**fields):
    say(json.dumps(fields, ensure_ascii=False))


def action_name(action):
    for name, flag in ACTIONS.items():
        if action == flag:
            return name
    return "none" if not action else str(int(action))


def geometry(value):
    try:
        x, y, width, height = (int(part) for part in value.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("expected X,Y,W,H")
    if width <= 0 or height <= 0:
        raise argparse.ArgumentTypeError("the width and height must be positive")
    return x, y, width, height


def action_list(value):
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names or any(name not in ACTIONS for name in names):
        raise argparse.ArgumentTypeError("expected a comma-separated list of copy, move, link")
    return names


def parse_arguments():
    parser = argparse.ArgumentParser(description="GTK 4 drag-and-drop peer for tests")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--target", action="store_true")
    mode.add_argument("--source", action="store_true")
    parser.add_argument("--accept", nargs="+", action="extend", metavar="MIME")
    parser.add_argument("--refuse", action="store_true")
    parser.add_argument("--action", choices=sorted(ACTIONS), default="copy")
    parser.add_argument("--save", metavar="DIR")
    parser.add_argument("--read-timeout", type=float, default=10.0)
    parser.add_argument("--offer", nargs=2, action="append", metavar=("MIME", "FILE"), default=[])
    parser.add_argument("--actions", type=action_list, default=["copy", "move"])
    parser.add_argument("--write-chunk", type=int, default=0, metavar="BYTES")
    parser.add_argument("--geometry", type=geometry, default=(0, 0, 300, 200))
    parser.add_argument("--timeout", type=float, default=60.0)
    arguments = parser.parse_args()
    if arguments.source and not arguments.offer:
        parser.error("--source needs at least one --offer MIME FILE")
    if arguments.target and arguments.offer:
        parser.error("--offer is for --source")
    if arguments.save is not None and not os.path.isdir(arguments.save):
        parser.error("--save %s: not a directory" % arguments.save)
    if arguments.accept is None:
        arguments.accept = list(DEFAULT_ACCEPT)
    return arguments


PAYLOAD_TYPES = {}


def payload_type(mime_types, deserialize):
    """A GType that only the given MIME types deserialize to, in that order (deserialize reads the bytes).

    gdk_drop_read_async() cannot be used from Python with GTK 4.8: PyGObject frees the interned MIME type
    gdk_drop_read_finish() returns, and the process crashes. gdk_drop_read_value_async() for a type of our own
    goes through the very same X11 read (the same targets, in the same order) and hands the stream and the MIME
    type it was read as to the deserializer registered for that type."""
    key = tuple(mime_types)
    if key not in PAYLOAD_TYPES:
        name = "Gtk4DndPayload%d" % len(PAYLOAD_TYPES)
        PAYLOAD_TYPES[key] = type(name, (GObject.Object,), {"__gtype_name__": name}).__gtype__
        for mime in mime_types:
            Gdk.content_register_deserializer(mime, PAYLOAD_TYPES[key], deserialize)
    return PAYLOAD_TYPES[key]


class ChunkedProvider(Gdk.ContentProvider):
    """What gdk_content_provider_new_for_bytes() provides, written to GTK's stream in pieces of a given size.

    GTK 4.8's provider for bytes writes them in one write; GTK's X11 selection stream then puts everything it
    holds in one property (one ChangeProperty request), which the server rejects beyond its maximum request
    length (16 MiB on Xvfb, BIG-REQUESTS): the requestor gets the INCR header and then nothing. Written in
    pieces, the data goes out in INCR chunks of one or two pieces (GTK flushes what it holds once the requestor
    has taken the previous chunk)."""

    def __init__(self, mime, data, piece):
        super().__init__()
        self.mime, self.data, self.piece = mime, data, piece

    def do_ref_formats(self):
        return Gdk.ContentFormats.new([self.mime])

    def do_write_mime_type_async(self, mime, stream, priority, cancellable, callback, *_):
        # The callback comes with its user data bound; Gio.Task hands our lambda a third argument.
        task = Gio.Task.new(self, cancellable, lambda source, result, *_: callback(source, result), None)
        if mime != self.mime:
            task.return_error(GLib.Error.new_literal(Gio.io_error_quark(), "cannot provide %s" % mime,
                                                     int(Gio.IOErrorEnum.NOT_SUPPORTED)))
            return
        view = memoryview(self.data)
        offset = [0]

        def step():
            if offset[0] >= len(self.data):
                task.return_boolean(True)
            else:
                piece = GLib.Bytes.new(view[offset[0]:offset[0] + self.piece])
                stream.write_bytes_async(piece, priority, cancellable, wrote)
            return GLib.SOURCE_REMOVE

        def wrote(stream, result):
            try:
                offset[0] += stream.write_bytes_finish(result)
            except GLib.Error as error:
                task.return_error(error)
                return
            # GTK's X11 stream completes a write that waited for the requestor before it forgets it: a write (or
            # the close that follows the last one) issued from this callback fails its assertion
            # "priv->pending_task == NULL" and aborts the process. Continue from the main loop instead.
            GLib.idle_add(step)
        step()

    def do_write_mime_type_finish(self, result):
        return result.propagate_boolean()


class Peer:
    def __init__(self, arguments):
        self.arguments = arguments
        self.status = 0
        self.loop = GLib.MainLoop()
        if Gdk.Display.get_default() is None:
            say_error("cannot open display %r" % os.environ.get("DISPLAY"))
            sys.exit(1)
        self.drops = 0
        self.cancelled = False
        self.inside = False
        x, y, width, height = arguments.geometry
        self.window = Gtk.Window(title="gtk4_dnd " + ("target" if arguments.target else "source"))
        self.window.set_decorated(False)
        self.window.set_default_size(width, height)
        self.area = Gtk.Label(label="drop here" if arguments.target else "drag me")
        self.area.set_hexpand(True)
        self.area.set_vexpand(True)
        self.window.set_child(self.area)
        if arguments.target:
            self.set_up_target()
        else:
            self.set_up_source()

    def finish(self, status, message=None):
        if message is not None:
            say(message)
        self.status = status
        self.loop.quit()
        return GLib.SOURCE_REMOVE

    # Placing the window

    def show(self):
        self.window.present()
        self.window.get_surface().get_display().flush()
        self.placing_since = time.monotonic()
        self.xid = GdkX11.X11Surface.get_xid(self.window.get_surface())
        try:
            self.x = xdisplay.Display()
        except (xerror.DisplayError, OSError) as failure:
            say_error("python-xlib cannot open the display: %s" % failure)
            return self.finish(1)
        self.x.set_error_handler(lambda failure, request: None)
        self.xwindow = self.x.create_resource_object("window", self.xid)
        self.placed_at = None
        self.configure_sent = False
        GLib.timeout_add(20, self.place)
        return GLib.SOURCE_REMOVE

    def place(self):
        """Polled until the toplevel is viewable at --geometry; then READY (after GTK has seen it there)."""
        x, y, width, height = self.arguments.geometry
        if time.monotonic() - self.placing_since > 10:
            say_error("the window did not get to %s" % (self.arguments.geometry,))
            return self.finish(1)
        try:
            attributes = self.xwindow.get_attributes()
            if attributes.map_state != X.IsViewable:
                return GLib.SOURCE_CONTINUE
            root = self.x.screen().root
            origin = root.translate_coords(self.xwindow, 0, 0)
            size = self.xwindow.get_geometry()
        except xerror.XError:
            return GLib.SOURCE_CONTINUE
        where = (origin.x, origin.y, size.width, size.height)
        if where != (x, y, width, height):
            self.placed_at = None
            if not self.configure_sent or time.monotonic() - self.configure_sent > 0.5:
                self.xwindow.configure(x=x, y=y, width=width, height=height)
                self.x.sync()
                self.configure_sent = time.monotonic()
            return GLib.SOURCE_CONTINUE
        # In place: give GTK's main loop time to take in the ConfigureNotify (it keeps the surface origin that
        # XDND positions are translated with), and make sure the position holds.
        if self.placed_at is None:
            self.placed_at = time.monotonic()
            return GLib.SOURCE_CONTINUE
        if time.monotonic() - self.placed_at < 0.1:
            return GLib.SOURCE_CONTINUE
        say("READY %d %d %d %d %d" % (self.xid, x, y, width, height))
        return GLib.SOURCE_REMOVE

    # Target

    def set_up_target(self):
        arguments = self.arguments
        self.action = ACTIONS[arguments.action]
        formats = Gdk.ContentFormats.new(arguments.accept)
        target = Gtk.DropTargetAsync.new(formats, self.action)
        target.connect("drag-enter", self.drag_enter)
        target.connect("drag-motion", self.drag_motion)
        target.connect("drag-leave", self.drag_leave)
        target.connect("drop", self.drop)
        self.area.add_controller(target)
        self.target = target

    def preferred(self):
        # 0 makes GTK answer XdndStatus "not accepted".
        return 0 if self.arguments.refuse else self.action

    def drag_enter(self, target, drop, x, y):
        self.inside = True
        event(event="enter")
        return self.preferred()

    def drag_motion(self, target, drop, x, y):
        return self.preferred()

    def drag_leave(self, target, drop):
        # GTK also emits drag-leave for a drag it did not accept (no drag-enter): not printed.
        if self.inside:
            self.inside = False
            event(event="leave")

    def drop(self, target, drop, x, y):
        started = time.monotonic()
        self.inside = False
        offered = list(drop.get_formats().get_mime_types() or [])
        if self.arguments.refuse:
            drop.finish(0)
            event(event="drop", mime=None, offered=offered, action="none", bytes=0, file=None, text=None,
                  elapsed_ms=0)
            return True
        reading = {"started": started, "offered": offered, "drop": drop, "over": False}
        self.reading = reading

        def too_slow():
            if not reading["over"]:
                reading["over"] = True
                drop.finish(0)
                event(event="drop-error", mime=reading.get("mime"), offered=offered,
                      error="no data after %g s" % self.arguments.read_timeout)
            return GLib.SOURCE_REMOVE
        reading["timer"] = GLib.timeout_add(int(self.arguments.read_timeout * 1000), too_slow)
        # As gdk_drop_read_async (drop, wanted): GTK asks the source for the wanted types in turn (for
        # text/plain;charset=utf-8, UTF8_STRING, COMPOUND_TEXT, TEXT and STRING first) and deserialize() below
        # reads the first that converts.
        wanted = [mime for mime in self.arguments.accept if mime in offered] or list(self.arguments.accept)
        kind = payload_type(wanted, self.deserialize)
        drop.read_value_async(kind, GLib.PRIORITY_DEFAULT, None, self.read_done)
        return True

    def deserialize(self, deserializer, *_):
        """GdkContentDeserializeFunc for the --accept types: reads the stream to its end, keeps the bytes."""
        reading = self.reading
        reading["mime"] = deserializer.get_mime_type()
        stream = deserializer.get_input_stream()
        chunks = []

        def next_read():
            stream.read_bytes_async(CHUNK, deserializer.get_priority(), None, read)
            return GLib.SOURCE_REMOVE

        def read(stream, result):
            try:
                chunk = stream.read_bytes_finish(result)
            except GLib.Error as error:
                return deserializer.return_error(error)
            if chunk.get_size() > 0:
                chunks.append(chunk.get_data())
                # GTK's X11 stream completes a read that waited for data before it forgets it: a read issued from
                # this callback that has to wait too is forgotten with it, and the transfer stalls for good.
                # Ask again from the main loop.
                GLib.idle_add(next_read)
                return
            reading["elapsed"] = (time.monotonic() - reading["started"]) * 1000.0
            reading["data"] = b"".join(chunks)
            deserializer.return_success()

        next_read()

    def read_done(self, drop, result):
        reading = self.reading
        offered, mime = reading["offered"], reading.get("mime")
        if reading["over"]:
            return
        reading["over"] = True
        GLib.source_remove(reading["timer"])
        try:
            drop.read_value_finish(result)
        except GLib.Error as error:
            drop.finish(0)
            event(event="drop-error", mime=mime, offered=offered, error=error.message)
            return
        data = reading["data"]
        path = None
        if self.arguments.save is not None:
            self.drops += 1
            path = os.path.join(self.arguments.save, "drop-%d" % self.drops)
            with open(path, "wb") as handle:
                handle.write(data)
        text = None
        if len(data) <= TEXT_LIMIT:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = None
        drop.finish(self.action)
        event(event="drop", mime=mime, offered=offered, action=action_name(self.action), bytes=len(data),
              file=path, text=text, elapsed_ms=round(reading["elapsed"], 1))

    # Source

    def set_up_source(self):
        providers = []
        for mime, path in self.arguments.offer:
            try:
                with open(path, "rb") as handle:
                    data = handle.read()
            except OSError as failure:
                say_error("cannot read %s: %s" % (path, failure))
                sys.exit(1)
            if self.arguments.write_chunk > 0:
                providers.append(ChunkedProvider(mime, data, self.arguments.write_chunk))
            else:
                providers.append(Gdk.ContentProvider.new_for_bytes(mime, GLib.Bytes.new(data)))
        provider = providers[0] if len(providers) == 1 else Gdk.ContentProvider.new_union(providers)
        actions = Gdk.DragAction(0)
        for name in self.arguments.actions:
            actions |= ACTIONS[name]
        source = Gtk.DragSource.new()
        source.set_actions(actions)
        source.set_content(provider)
        source.connect("drag-begin", self.drag_begin)
        source.connect("drag-cancel", self.drag_cancel)
        source.connect("drag-end", self.drag_end)
        self.area.add_controller(source)
        self.source = source

    def drag_begin(self, source, drag):
        self.cancelled = False
        event(event="drag-begin")

    def drag_cancel(self, source, drag, reason):
        self.cancelled = True
        event(event="drag-cancel", reason=CANCEL_REASONS.get(reason, str(int(reason))))
        return False

    def drag_end(self, source, drag, delete):
        if self.cancelled:
            return
        event(event="drag-end", action=action_name(drag.get_selected_action()), delete=bool(delete))


def say_error(message):
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def main():
    arguments = parse_arguments()
    Gtk.init()
    # A hard stop in case GTK itself wedges: SIGALRM's default action ends the process.
    signal.alarm(int(arguments.timeout) + 5)
    peer = Peer(arguments)
    for number in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, number, lambda: peer.finish(0, "STOPPED"))
    GLib.timeout_add(int(arguments.timeout * 1000), lambda: peer.finish(0, "TIMEOUT"))
    GLib.idle_add(peer.show)
    peer.loop.run()
    return peer.status


if __name__ == "__main__":
    sys.exit(main())
