#!/usr/bin/python3
"""A real Qt 5 application as an XDND drag-and-drop peer for ClipBridge's tests.

Run it with Debian's /usr/bin/python3 (python3-pyqt5), with DISPLAY set to the test's Xvfb. It uses only
public Qt API (QWidget drag events, QDrag, QMimeData), so Qt's xcb plugin does the XDND work as in any Qt 5
app: its MIME <-> X target mapping, its XdndStatus/XdndFinished answers and its 5-second conversion timeout
are what is tested against. The frameless top-level window places itself (QWidget.setGeometry; there is no
window manager); the peer checks the real position (XTranslateCoordinates, python-xlib) before announcing it.

  qt5_dnd.py --target [--accept MIME ...] [--refuse] [--action copy|move|link] [--save DIR]
             [--geometry X,Y,W,H] [--timeout S]
  qt5_dnd.py --source --offer MIME FILE [--offer MIME FILE ...] [--actions copy,move]
             [--geometry X,Y,W,H] [--timeout S]

Both modes print `READY <xid> <x> <y> <width> <height>` (decimal XID of the toplevel, root coordinates) once
the window is viewable where --geometry (default 0,0,300,200) asks and has stayed there 100 ms (drags can
start at once), then one JSON line per event, and run until --timeout seconds (default 60; prints TIMEOUT) or
SIGTERM/SIGINT (prints STOPPED, also in the middle of a drag). Exit status: 0 (timeout and signals included),
1 no display / the window could not be placed / unreadable --offer file, 2 usage.

--target: the whole window accepts drops (setAcceptDrops). dragEnterEvent/dragMoveEvent accept a drag when
  its mimeData() has one of the --accept types (default text/plain;charset=utf-8, text/plain, text/uri-list;
  --accept takes one or more types and may be repeated) and --action (default copy) is among its
  possibleActions(): setDropAction(--action) + accept(); otherwise, and always with --refuse, ignore() (Qt
  answers XdndStatus "not accepted"). Lines:
    {"event":"enter"}   every drag that enters the window, accepted or not
    {"event":"leave"}   it left again; Qt reports this only for drags it accepted, never after a drop
    {"event":"drop","mime":TYPE,"offered":[mimeData().formats()],"action":"copy","bytes":N,"file":PATH|null,
     "text":STRING|null,"elapsed_ms":MS}
  On a drop it reads mimeData().data(TYPE) for the first --accept type the drag offers (Qt converts
  XdndSelection synchronously, INCR included, giving up after 5 s with no bytes), accepts with --action and
  prints the line. "file": DIR/drop-1, drop-2, ... with --save DIR; "text": the bytes as UTF-8 when there are
  at most 4096 and they decode; "elapsed_ms": from dropEvent's entry to having the bytes. Qt's own mapping
  applies: the X targets UTF8_STRING, STRING, TEXT and COMPOUND_TEXT appear as "text/plain", and
  data("text/plain") may come from any of them, re-encoded as UTF-8 without a trailing NUL; other types are
  converted as themselves and byte-exact.

--source: the whole window starts a QDrag when the left button is pressed in it and the pointer then moves at
  least QApplication.startDragDistance() (10 px) with the button held. Its QMimeData has setData(MIME, FILE's
  bytes) for each --offer, in order. drag.exec_(--actions, first of --actions) (default copy,move: copy is
  suggested, as GTK does; Qt's own default would be move whenever move is allowed). Lines:
    {"event":"drag-begin"}
    {"event":"drag-end","action":"copy"|"move"|"link"|"none","delete":BOOL}   ("none": exec_ returned
        IgnoreAction: refused or cancelled, e.g. Escape; "delete" is action == move)
  Qt returns as soon as it has sent XdndDrop with the target's last XdndStatus action; it serves the data
  afterwards (the drop "transaction") only to requests made with the XdndDrop timestamp or from the window it
  dropped on. GTK 4 asks with CurrentTime from another window and gets a SelectionNotify naming no target,
  so GTK 4 targets never receive a Qt 5 drop (while this peer still prints that action). Qt serves the
  bytes in one property, never INCR: beyond the server's maximum request size (16 MiB on Xvfb) the target
  gets nothing (a Qt target returns empty data after its 5 s timeout).

Driving a drag with pointer.py (Qt as source; S = a point inside the source window, T = inside the target):
    pointer.py move Sx Sy sleep 100 press glide Sx+40 Sy+40 glide Tx Ty sleep 200 release
  Qt starts the drag on the first motion at least 10 px from the press with the button held, runs it in a
  nested event loop and grabs the pointer. Qt sends XdndPosition on motion only; jumps (move) work as well as
  glides, and in our runs the release needed no sleep before it, the sleep is a margin for a slow target's
  XdndStatus (without one Qt drops nothing: "none").
"""

import argparse
import json
import os
import signal
import sys
import time

os.environ["QT_QPA_PLATFORM"] = "xcb"
os.environ.setdefault("QT_ACCESSIBILITY", "0")
os.environ.setdefault("NO_AT_BRIDGE", "1")

from PyQt5.QtCore import QMimeData, QPoint, Qt, QTimer  # noqa: E402
from PyQt5.QtGui import QDrag  # noqa: E402
from PyQt5.QtWidgets import QApplication, QWidget  # noqa: E402
from Xlib import X, display as xdisplay, error as xerror  # noqa: E402

DEFAULT_ACCEPT = ["text/plain;charset=utf-8", "text/plain", "text/uri-list"]
ACTIONS = {"copy": Qt.CopyAction, "move": Qt.MoveAction, "link": Qt.LinkAction}
TEXT_LIMIT = 4096


def say(line, stream=sys.stdout):
    stream.write(line + "\n")
    stream.flush()


def event(**fields):
    say(json.dumps(fields, ensure_ascii=False))


def action_name(action):
    for name, flag in ACTIONS.items():
        if action == flag:
            return name
    return "none" if action == Qt.IgnoreAction else str(int(action))


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
    parser = argparse.ArgumentParser(description="Qt 5 drag-and-drop peer for tests")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--target", action="store_true")
    mode.add_argument("--source", action="store_true")
    parser.add_argument("--accept", nargs="+", action="extend", metavar="MIME")
    parser.add_argument("--refuse", action="store_true")
    parser.add_argument("--action", choices=sorted(ACTIONS), default="copy")
    parser.add_argument("--save", metavar="DIR")
    parser.add_argument("--offer", nargs=2, action="append", metavar=("MIME", "FILE"), default=[])
    parser.add_argument("--actions", type=action_list, default=["copy", "move"])
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


class Target(QWidget):
    def __init__(self, arguments):
        super().__init__()
        self.arguments = arguments
        self.action = ACTIONS[arguments.action]
        self.drops = 0
        self.setAcceptDrops(True)

    def chosen(self, mime_data):
        for mime in self.arguments.accept:
            if mime_data.hasFormat(mime):
                return mime
        return None

    def consider(self, drag):
        if self.arguments.refuse or self.chosen(drag.mimeData()) is None \
                or not (drag.possibleActions() & self.action):
            drag.ignore()
            return
        drag.setDropAction(self.action)
        drag.accept()

    def dragEnterEvent(self, drag):
        event(event="enter")
        self.consider(drag)

    def dragMoveEvent(self, drag):
        self.consider(drag)

    def dragLeaveEvent(self, leave):
        event(event="leave")

    def dropEvent(self, drop):
        started = time.monotonic()
        mime_data = drop.mimeData()
        mime = self.chosen(mime_data)
        offered = list(mime_data.formats())
        if self.arguments.refuse or mime is None or not (drop.possibleActions() & self.action):
            drop.ignore()
            event(event="drop", mime=mime, offered=offered, action="none", bytes=0, file=None, text=None,
                  elapsed_ms=0)
            return
        data = bytes(mime_data.data(mime))
        elapsed = (time.monotonic() - started) * 1000.0
        drop.setDropAction(self.action)
        drop.accept()
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
        event(event="drop", mime=mime, offered=offered, action=action_name(self.action), bytes=len(data),
              file=path, text=text, elapsed_ms=round(elapsed, 1))


class Source(QWidget):
    def __init__(self, arguments, contents):
        super().__init__()
        self.arguments = arguments
        self.contents = contents
        self.pressed_at = None
        self.stopping = False
        self.actions = Qt.DropActions()
        for name in arguments.actions:
            self.actions |= ACTIONS[name]
        self.default_action = ACTIONS[arguments.actions[0]]

    def mousePressEvent(self, press):
        if press.button() == Qt.LeftButton:
            self.pressed_at = QPoint(press.pos())

    def mouseReleaseEvent(self, release):
        if release.button() == Qt.LeftButton:
            self.pressed_at = None

    def mouseMoveEvent(self, motion):
        if self.pressed_at is None or not (motion.buttons() & Qt.LeftButton):
            return
        if (motion.pos() - self.pressed_at).manhattanLength() < QApplication.startDragDistance():
            return
        self.pressed_at = None
        mime_data = QMimeData()
        for mime, data in self.contents:
            mime_data.setData(mime, data)
        drag = QDrag(self)
        drag.setMimeData(mime_data)
        event(event="drag-begin")
        action = drag.exec_(self.actions, self.default_action)
        if not self.stopping:
            event(event="drag-end", action=action_name(action), delete=action == Qt.MoveAction)


def main():
    arguments = parse_arguments()
    contents = []
    for mime, path in arguments.offer:
        try:
            with open(path, "rb") as handle:
                contents.append((mime, handle.read()))
        except OSError as failure:
            say("cannot read %s: %s" % (path, failure), sys.stderr)
            return 1
    # Qt aborts when it cannot connect: check first (the peer also places its window through this connection).
    try:
        connection = xdisplay.Display()
    except (xerror.DisplayError, OSError) as failure:
        say("cannot open display %r: %s" % (os.environ.get("DISPLAY"), failure), sys.stderr)
        return 1
    connection.set_error_handler(lambda failure, request: None)
    # A hard stop in case Qt wedges: SIGALRM's default action ends the process.
    signal.alarm(int(arguments.timeout) + 5)
    application = QApplication([sys.argv[0]])
    x, y, width, height = arguments.geometry
    widget = Target(arguments) if arguments.target else Source(arguments, contents)
    widget.setWindowTitle("qt5_dnd " + ("target" if arguments.target else "source"))
    widget.setWindowFlags(Qt.Window | Qt.FramelessWindowHint)
    widget.setGeometry(x, y, width, height)
    widget.show()
    status = [0]

    def finish(code, message):
        if message is not None:
            say(message)
        status[0] = code
        if isinstance(widget, Source):
            widget.stopping = True
        application.exit(code)

    def stop(*_):
        finish(0, "STOPPED")
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # Python runs signal handlers only between bytecodes: wake the interpreter regularly.
    heartbeat = QTimer()
    heartbeat.timeout.connect(lambda: None)
    heartbeat.start(50)
    QTimer.singleShot(int(arguments.timeout * 1000), lambda: finish(0, "TIMEOUT"))

    xid = int(widget.winId())
    xwindow = connection.create_resource_object("window", xid)
    placing = {"since": time.monotonic(), "placed_at": None}

    def place():
        """Polled until the toplevel is viewable at --geometry (and has stayed there 100 ms): then READY."""
        if time.monotonic() - placing["since"] > 10:
            say("the window did not get to %s" % (arguments.geometry,), sys.stderr)
            return finish(1, None)
        try:
            viewable = xwindow.get_attributes().map_state == X.IsViewable
            origin = connection.screen().root.translate_coords(xwindow, 0, 0)
            size = xwindow.get_geometry()
        except xerror.XError:
            viewable = False
        if not viewable or (origin.x, origin.y, size.width, size.height) != (x, y, width, height):
            if viewable and time.monotonic() - placing["since"] > 1:
                widget.setGeometry(x, y, width, height)
            placing["placed_at"] = None
        elif placing["placed_at"] is None:
            placing["placed_at"] = time.monotonic()
        elif time.monotonic() - placing["placed_at"] >= 0.1:
            timer.stop()
            say("READY %d %d %d %d %d" % (xid, x, y, width, height))
    timer = QTimer()
    timer.timeout.connect(place)
    timer.start(20)
    application.exec_()
    return status[0]


if __name__ == "__main__":
    sys.exit(main())
