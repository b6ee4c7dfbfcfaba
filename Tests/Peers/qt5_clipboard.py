#!/usr/bin/python3
"""A real Qt 5 application as a clipboard peer for ClipBridge's tests.

Run it with Debian's /usr/bin/python3 (python3-pyqt5), with DISPLAY set to the test's Xvfb. It uses only
public Qt API (QClipboard, QMimeData), so Qt's xcb plugin does the X11 work exactly as in any Qt 5 app:
its MIME <-> target mapping, INCR handling and its 5-second clipboard timeout are what is tested against.

Verbs (exactly one):
  --read-text            print the clipboard's text (no newline added)
  --read-mime TYPE       write the bytes offered as TYPE to stdout
  --formats              list QMimeData.formats(), one per line
  --read-image           write QClipboard.image() (Qt picks among the owner's image targets) to stdout as a
                         "WIDTH HEIGHT" line then WIDTH*HEIGHT*4 bytes of RGBA, row by row, no padding
  --set-text TEXT        own the selection with TEXT (may be combined with --set-mime)
  --set-mime TYPE FILE   own the selection with FILE's bytes as TYPE (repeatable, order kept)
  --set-image FILE       own the selection with QClipboard.setImage(QImage(FILE)): Qt offers its own image targets
While owning, it prints "READY" once the claim is made, then serves until it loses ownership ("LOST"),
the timeout passes ("TIMEOUT") or SIGTERM/SIGINT arrives ("STOPPED"); all of these exit 0.
Exit status: 0 done, 1 nothing to read / unreadable image file (message on stderr), 2 usage.
"""

import argparse
import os
import signal
import sys

# X11 unless --wayland (Qt's Wayland platform, Debian's qtwayland5): then the peer shows a window, which a Wayland
# client needs to see the clipboard, and an owner takes the selection at the first key pressed in it, whose serial
# makes the claim valid (it prints "WAITING" first; the tests type a key with wtype).
WAYLAND = "--wayland" in sys.argv
os.environ["QT_QPA_PLATFORM"] = "wayland" if WAYLAND else "xcb"
os.environ.setdefault("QT_ACCESSIBILITY", "0")
os.environ.setdefault("NO_AT_BRIDGE", "1")

from PyQt5.QtCore import QElapsedTimer, QEventLoop, QMimeData, QTimer  # noqa: E402
from PyQt5.QtGui import QClipboard, QColor, QGuiApplication, QImage, QPainter, QRasterWindow  # noqa: E402


class Window(QRasterWindow):
    """A plain window (Wayland maps a surface only once it has a buffer: this one paints), calling `on_key` at the
    first key pressed or released (QtWayland 5.15 drops the press that comes with a keyboard's first keymap, as a
    virtual keyboard's first key does; its release carries a serial too)."""

    def __init__(self):
        super().__init__()
        self.on_key = None

    def paintEvent(self, event):
        QPainter(self).fillRect(event.rect(), QColor("white"))

    def keyPressEvent(self, event):
        self.key()

    def keyReleaseEvent(self, event):
        self.key()

    def key(self):
        if self.on_key is not None:
            action, self.on_key = self.on_key, None
            action()


def parse_arguments():
    parser = argparse.ArgumentParser(description="Qt 5 clipboard peer for tests")
    parser.add_argument("--selection", choices=["clipboard", "primary"], default="clipboard")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds before giving up (reads: 10, serving: 30)")
    parser.add_argument("--read-text", action="store_true")
    parser.add_argument("--read-mime", metavar="TYPE")
    parser.add_argument("--formats", action="store_true")
    parser.add_argument("--read-image", action="store_true")
    parser.add_argument("--set-text", metavar="TEXT")
    parser.add_argument("--set-mime", nargs=2, metavar=("TYPE", "FILE"), action="append", default=[])
    parser.add_argument("--set-image", metavar="FILE")
    parser.add_argument("--wayland", action="store_true")
    arguments = parser.parse_args()
    reads = [arguments.read_text, arguments.read_mime is not None, arguments.formats, arguments.read_image]
    sets_data = arguments.set_text is not None or bool(arguments.set_mime)
    sets_image = arguments.set_image is not None
    sets = sets_data or sets_image
    if sum(bool(r) for r in reads) + int(sets_data) + int(sets_image) != 1:
        parser.error("give exactly one of --read-text, --read-mime, --formats, --read-image, "
                     "--set-text/--set-mime, or --set-image")
    if arguments.timeout is None:
        arguments.timeout = 30.0 if sets else 10.0
    return arguments, sets


def say(line, stream=sys.stdout):
    stream.write(line + "\n")
    stream.flush()


def main():
    arguments, owning = parse_arguments()
    # A hard stop in case Qt wedges: SIGALRM's default action ends the process. (Qt's own clipboard reads give
    # up after 5 seconds per request, so reads finish well before this.)
    signal.alarm(int(arguments.timeout) + 5)
    application = QGuiApplication([sys.argv[0]])
    clipboard = application.clipboard()
    mode = QClipboard.Selection if arguments.selection == "primary" else QClipboard.Clipboard
    window = None
    if arguments.wayland:
        window = Window()
        window.resize(200, 100)
        window.show()
        # Until the window has focus and the compositor's offer came (or two seconds).
        waited = QElapsedTimer()
        waited.start()
        while waited.elapsed() < 2000 and not (window.isActive() and clipboard.mimeData(mode) is not None
                                                and clipboard.mimeData(mode).formats()):
            application.processEvents(QEventLoop.AllEvents, 50)
        application.processEvents(QEventLoop.AllEvents, 100)

    if not owning:
        data = clipboard.mimeData(mode)
        if arguments.formats:
            for mime_type in (data.formats() if data is not None else []):
                say(mime_type)
            return 0
        if arguments.read_text:
            text = clipboard.text(mode)
            if not text:
                say("no text on the clipboard", sys.stderr)
                return 1
            sys.stdout.buffer.write(text.encode("utf-8"))
            sys.stdout.flush()
            return 0
        if arguments.read_image:
            image = clipboard.image(mode)
            if image.isNull():
                offered = (", ".join(data.formats()) if data is not None else "") or "nothing"
                say("no image on the clipboard (offered: %s)" % offered, sys.stderr)
                return 1
            image = image.convertToFormat(QImage.Format_RGBA8888)
            width, height = image.width(), image.height()
            # Rows may be padded (bytesPerLine() >= width * 4): copy each row's pixels only.
            bits = image.constBits()
            bits.setsize(image.sizeInBytes())
            pixels = bits.asstring()
            stride, row_length = image.bytesPerLine(), width * 4
            output = sys.stdout.buffer
            output.write(b"%d %d\n" % (width, height))
            for row in range(height):
                output.write(pixels[row * stride:row * stride + row_length])
            output.flush()
            return 0
        if data is None or not data.hasFormat(arguments.read_mime):
            offered = ", ".join(data.formats()) if data is not None else "nothing"
            say("%s is not offered (offered: %s)" % (arguments.read_mime, offered), sys.stderr)
            return 1
        sys.stdout.buffer.write(bytes(data.data(arguments.read_mime)))
        sys.stdout.flush()
        return 0

    if arguments.set_image is not None:
        image = QImage(arguments.set_image)
        if image.isNull():
            say("cannot load an image from %s" % arguments.set_image, sys.stderr)
            return 1
    else:
        data = QMimeData()
        if arguments.set_text is not None:
            data.setText(arguments.set_text)
        for mime_type, path in arguments.set_mime:
            with open(path, "rb") as data_file:
                data.setData(mime_type, data_file.read())

    def owns():
        return clipboard.ownsSelection() if mode == QClipboard.Selection else clipboard.ownsClipboard()

    def take():
        if arguments.set_image is not None:
            clipboard.setImage(image, mode)
        else:
            clipboard.setMimeData(data, mode)
        # QtWayland tells ownership when the compositor answers: there, the claim is judged by `changed`.
        if not WAYLAND and not owns():
            say("could not take the selection", sys.stderr)
            return False
        if WAYLAND:
            taken.append(True)
        say("READY")
        return True

    taken = []

    def changed(changed_mode):
        if changed_mode != mode:
            return
        if owns():
            taken.append(True)
        elif taken:
            say("LOST")
            application.quit()
    clipboard.changed.connect(changed)

    def stop(*_):
        say("STOPPED")
        application.quit()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # Python runs signal handlers only between bytecodes: wake the interpreter regularly.
    heartbeat = QTimer()
    heartbeat.timeout.connect(lambda: None)
    heartbeat.start(50)

    def expire():
        say("TIMEOUT")
        application.quit()
    QTimer.singleShot(int(arguments.timeout * 1000), expire)
    if window is not None:
        window.on_key = lambda: take() or application.exit(1)
        say("WAITING")
    elif not take():
        return 1
    return application.exec_()


if __name__ == "__main__":
    sys.exit(main())
