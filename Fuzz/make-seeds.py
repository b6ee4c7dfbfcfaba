#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target into Fuzz/Corpus/<target>/ (the files are committed; this
script is how they were made, and remakes them after a target's input format changes).

Seeds are small real inputs: images made here byte by byte (and with ImageMagick's `convert` for JPEG, WebP,
TIFF and PNG, when it is installed), the README's and the tests' settings files, the declaration and
shared-mime-info fixtures (Fixtures/), uri-lists, HTML, colours, property items, and event sequences in the
encodings the state-machine targets decode (see each target's main.swift).

Usage: python3 Fuzz/make-seeds.py   (from anywhere; only adds and overwrites its own seed files)
"""

import os
import plistlib
import shutil
import struct
import subprocess
import tempfile
import zlib

FUZZ = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(FUZZ)
CORPUS = os.path.join(FUZZ, "Corpus")


def put(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(directory, name), "wb") as file:
        file.write(data)


def u16(value):
    return struct.pack("<H", value & 0xFFFF)


def u32(value):
    return struct.pack("<I", value & 0xFFFFFFFF)


# MARK: - BMP

def bmp(width, height, bits, pixel_rows, header_size=40, compression=0, palette=b"", masks=b"", colors_used=0,
        top_down=False, core=False):
    """A bitmap: file header, DIB header (40-byte or larger, or the 12-byte core header), masks, palette, rows."""
    if core:
        dib = u32(12) + u16(width) + u16(height) + u16(1) + u16(bits)
    else:
        dib = (u32(header_size) + u32(width) + u32(-height if top_down else height) + u16(1) + u16(bits)
               + u32(compression) + u32(len(pixel_rows)) + u32(2835) + u32(2835) + u32(colors_used) + u32(0))
        if header_size > 40:
            extra = masks.ljust(header_size - 40, b"\0")
            dib += extra[: header_size - 40]
            masks = b""
    offset = 14 + len(dib) + len(masks) + len(palette)
    body = dib + masks + palette + pixel_rows
    return b"BM" + u32(14 + len(body)) + u32(0) + u32(offset) + body


def rows(width, height, bits, pixel):
    """Rows padded to 4 bytes of `pixel(x, y)` values (bytes for 24/32 bits, indices below 8 bits)."""
    out = b""
    for y in range(height):
        if bits >= 8:
            row = b"".join(pixel(x, y) for x in range(width))
        else:
            value, count, row = 0, 0, b""
            for x in range(width):
                value = value << bits | pixel(x, y)
                count += bits
                if count == 8:
                    row += bytes([value])
                    value, count = 0, 0
            if count:
                row += bytes([value << (8 - count)])
        out += row + b"\0" * (-len(row) % 4)
    return out


def bmp_seeds():
    palette4 = bytes([0, 0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0])
    put("fuzz-bmp", "rgb24-3x2.bmp", bmp(3, 2, 24, rows(3, 2, 24, lambda x, y: bytes([x * 80, y * 120, 200]))))
    put("fuzz-bmp", "rgb24-top-down.bmp", bmp(2, 2, 24, rows(2, 2, 24, lambda x, y: bytes([x * 255, 0, y * 255])), top_down=True))
    put("fuzz-bmp", "bgrx32.bmp", bmp(2, 2, 32, rows(2, 2, 32, lambda x, y: bytes([10, 20, 30, 0]))))
    masks_v5 = u32(0x00FF0000) + u32(0x0000FF00) + u32(0x000000FF) + u32(0xFF000000) + u32(0x73524742)
    put("fuzz-bmp", "bgra32-v5-alpha.bmp",
        bmp(2, 2, 32, rows(2, 2, 32, lambda x, y: bytes([1, 2, 3, 128 * x])), header_size=124, compression=3, masks=masks_v5))
    put("fuzz-bmp", "rgb565-bitfields.bmp",
        bmp(3, 1, 16, rows(3, 1, 16, lambda x, y: u16(0xF800 >> (x * 5))), compression=3,
            masks=u32(0xF800) + u32(0x07E0) + u32(0x001F)))
    put("fuzz-bmp", "rgb555.bmp", bmp(2, 2, 16, rows(2, 2, 16, lambda x, y: u16(0x7C00 | x * 0x1F))))
    put("fuzz-bmp", "alpha-bitfields-v4.bmp",
        bmp(1, 2, 32, rows(1, 2, 32, lambda x, y: bytes([0, 0, 255, 64])), header_size=108, compression=3,
            masks=u32(0x00FF0000) + u32(0x0000FF00) + u32(0x000000FF) + u32(0xFF000000)))
    put("fuzz-bmp", "pal8.bmp", bmp(3, 2, 8, rows(3, 2, 8, lambda x, y: bytes([(x + y) % 4])), palette=palette4, colors_used=4))
    put("fuzz-bmp", "pal4.bmp", bmp(5, 2, 4, rows(5, 2, 4, lambda x, y: (x + y) % 4), palette=palette4, colors_used=4))
    put("fuzz-bmp", "pal1.bmp", bmp(9, 2, 1, rows(9, 2, 1, lambda x, y: (x + y) % 2), palette=palette4[:8], colors_used=2))
    put("fuzz-bmp", "core-header-24.bmp", bmp(2, 1, 24, rows(2, 1, 24, lambda x, y: bytes([9, 8, 7])), core=True))
    put("fuzz-bmp", "core-header-pal8.bmp",
        bmp(2, 1, 8, rows(2, 1, 8, lambda x, y: bytes([x])), core=True, palette=bytes([0, 0, 0, 255, 255, 255])))
    # RLE8: a run, a literal, a delta, end of line, end of bitmap.
    rle8 = bytes([3, 1, 0, 3, 2, 0, 1, 0, 0, 2, 1, 0, 0, 0, 2, 2, 0, 1])
    put("fuzz-bmp", "rle8.bmp", bmp(6, 3, 8, rle8, compression=1, palette=palette4, colors_used=4))
    rle4 = bytes([4, 0x12, 0, 3, 0x30, 0x10, 0, 0, 2, 0x23, 0, 1])
    put("fuzz-bmp", "rle4.bmp", bmp(5, 2, 4, rle4, compression=2, palette=palette4, colors_used=4))
    put("fuzz-bmp", "truncated.bmp", bmp(4, 4, 24, rows(4, 4, 24, lambda x, y: bytes([1, 2, 3])))[:-20])


# MARK: - Netpbm

def netpbm_seeds():
    put("fuzz-netpbm", "p1.pbm", "P1\n# a comment\n3 2\n0 1 0\n1 0 1\n")
    put("fuzz-netpbm", "p1-packed.pbm", "P1 4 1 0101")
    put("fuzz-netpbm", "p2.pgm", "P2\n2 2\n255\n0 64\n128 255\n")
    put("fuzz-netpbm", "p2-16bit.pgm", "P2 2 1 65535 0 65535\n")
    put("fuzz-netpbm", "p3.ppm", "P3\n2 1\n15\n15 0 0  0 15 0\n")
    put("fuzz-netpbm", "p4.pbm", b"P4\n10 2\n" + bytes([0b10101010, 0b11000000, 0b01010101, 0b01000000]))
    put("fuzz-netpbm", "p5.pgm", b"P5\n3 1\n255\n" + bytes([0, 127, 255]))
    put("fuzz-netpbm", "p5-16bit.pgm", b"P5 2 1 1023\n" + bytes([0, 0, 3, 255]))
    put("fuzz-netpbm", "p6.ppm", b"P6\n# rgb\n2 2\n255\n" + bytes(range(12)))
    put("fuzz-netpbm", "p6-16bit.ppm", b"P6 1 1 65535\n" + bytes([255, 255, 0, 0, 128, 0]))
    put("fuzz-netpbm", "p6-truncated.ppm", b"P6 4 4 255\n" + bytes(10))


# MARK: - Other image formats

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width, height, rgba_rows, actl=None):
    header = png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    extra = png_chunk(b"acTL", struct.pack(">II", actl, 0)) if actl else b""
    raw = b"".join(b"\0" + row for row in rgba_rows)
    return b"\x89PNG\r\n\x1a\n" + header + extra + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b"")


def gif(frames):
    """A 2×2 GIF89a with a global 2-colour table and `frames` image descriptors."""
    out = b"GIF89a" + u16(2) + u16(2) + bytes([0x80, 0, 0]) + bytes([0, 0, 0, 255, 255, 255])
    for _ in range(frames):
        out += bytes([0x21, 0xF9, 4, 0, 10, 0, 0, 0])  # graphic control extension
        out += bytes([0x2C]) + u16(0) + u16(0) + u16(2) + u16(2) + bytes([0])
        out += bytes([2, 2, 0x84, 0x51, 0])  # LZW code size 2, one sub-block, terminator
    return out + bytes([0x3B])


def tiff(width, height, orientation=1):
    """A little-endian 8-bit grey TIFF, uncompressed, one strip."""
    pixels = bytes(range(width * height))
    entries = [(256, 3, 1, width), (257, 3, 1, height), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
               (273, 4, 1, 0), (274, 3, 1, orientation), (277, 3, 1, 1), (278, 3, 1, height), (279, 4, 1, len(pixels))]
    directory_offset = 8
    data_offset = directory_offset + 2 + 12 * len(entries) + 4
    out = b"II*\0" + u32(directory_offset) + u16(len(entries))
    for tag, kind, count, value in entries:
        if tag == 273:
            value = data_offset
        field = u16(value) + b"\0\0" if kind == 3 else u32(value)
        out += u16(tag) + u16(kind) + u32(count) + field
    return out + u32(0) + pixels


def convert(arguments, suffix):
    if not shutil.which("convert"):
        return None
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "out" + suffix)
        try:
            subprocess.run(["convert"] + arguments + [path], check=True, capture_output=True)
        except subprocess.CalledProcessError:
            return None
        with open(path, "rb") as file:
            return file.read()


def image_seeds():
    red = bytes([255, 0, 0, 255])
    clear = bytes([0, 0, 255, 0])
    put("fuzz-image-decoder", "rgba.png", png(2, 2, [red + clear, clear + red]))
    put("fuzz-image-decoder", "apng-header.png", png(1, 1, [red], actl=2))
    put("fuzz-image-decoder", "still.gif", gif(1))
    put("fuzz-image-decoder", "animated.gif", gif(2))
    put("fuzz-image-decoder", "grey.tiff", tiff(3, 2))
    put("fuzz-image-decoder", "rotated.tiff", tiff(2, 3, orientation=6))
    put("fuzz-image-decoder", "pal8.bmp", open(os.path.join(CORPUS, "fuzz-bmp", "pal8.bmp"), "rb").read())
    put("fuzz-image-decoder", "p6.ppm", open(os.path.join(CORPUS, "fuzz-netpbm", "p6.ppm"), "rb").read())
    made = {
        "gradient.jpg": (["-size", "8x8", "gradient:red-blue", "-quality", "50"], ".jpg"),
        "progressive.jpg": (["-size", "8x8", "gradient:white-black", "-interlace", "JPEG"], ".jpg"),
        "exif-orientation-6.jpg": (["-size", "4x2", "xc:green", "-orient", "RightTop"], ".jpg"),
        "lossy.webp": (["-size", "4x4", "xc:orange", "-quality", "40"], ".webp"),
        "lossless.webp": (["-size", "3x3", "xc:#12345680", "-define", "webp:lossless=true"], ".webp"),
        "rgb16.png": (["-size", "2x2", "gradient:black-white", "-depth", "16"], ".png"),
        "lzw.tiff": (["-size", "4x4", "gradient:", "-compress", "lzw"], ".tiff"),
        "magick.gif": (["-size", "3x3", "xc:red", "-colors", "2"], ".gif"),
    }
    for name, (arguments, suffix) in made.items():
        data = convert(arguments, suffix)
        if data is not None and len(data) < 4096:
            put("fuzz-image-decoder", name, data)
    # Headers only (what TransferKit's header reader walks).
    exif = b"Exif\0\0" + b"MM\0*" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, 8, 0)
    jpeg_header = (b"\xff\xd8" + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif
                   + b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 3, 5, 1) + bytes([1, 0x11, 0]) + b"\xff\xd9")
    put("fuzz-image-decoder", "jpeg-header-exif.jpg", jpeg_header)
    put("fuzz-image-decoder", "webp-vp8x-header.webp", b"RIFF" + u32(30) + b"WEBPVP8X" + u32(10) + bytes([2, 0, 0, 0]) + bytes([3, 0, 0, 1, 0, 0]))


# MARK: - Configuration files

SETTINGS_SEEDS = {
    "readme.yaml": """# ~/.config/clipbridge/daemon.yaml
selection: [clipboard, primary]
sync: primary-to-clipboard
rule: [strip-tracking, trim-whitespace]
strip-parameter: [si, ref]
max-size: 128            # MiB per copy
log-level: notice
""",
    "tests-rules.yaml": """# clipbridge daemon settings
selection: clipboard
rule: [strip-tracking]   # clean links
strip-parameter: ['si']
keep-type: [text, "image/*"]
max-size: 64
log-level: notice
""",
    "all-keys-block.yaml": """selection:
  - clipboard
  - PRIMARY
max-flavour-size: 0x40
max-size: 1_024
max-flavours: 12
keep-type:
  - text
  - "image/*"
  - UTF8_STRING
timeout: 2.5e0
sync: both
validate: |
  grep -qv secret \\
    && exit 0
validate-timeout: .5
rules: widen
strip-parameter: ["C:\\\\path", 'a''b', "\\u00e9\\t\\x41"]
log-level: debug
replace: yes
no-manager: off
""",
    "converted-toml.yaml": """"max-size": 0x40
max-flavour-size: 1_024
strip-parameter: ['C:\\path', "a\\u0062c"]
timeout: 2.5e0   # seconds
validate: "test \\"$x\\" = y"
""",
    "tests-rules.json": '{"rule": ["widen", "trim-whitespace"], "timeout": 1.5, "no-manager": true}',
    "tests-forms.json": '{"strip-parameter": ["\\u00e9", "a\\/b"], "selection": ["primary", "clipboard"]}',
    "all-keys.json": """{
  "selection": ["clipboard", "primary"],
  "max-flavour-size": 256,
  "max-size": 512,
  "keep-type": ["text", "image/*", "UTF8_STRING"],
  "timeout": 5,
  "sync": "both",
  "validate": "grep -qv secret",
  "validate-timeout": 2.0e0,
  "replace": false,
  "no-manager": true,
  "rule": ["strip-tracking"],
  "strip-parameter": ["utm_source"],
  "log-level": "debug"
}
""",
    "errors.yaml": """max-size: big
max-sise: 3
timeout: 0
timeout: -.inf
validate: ''
strip-parameter: [a=b, '']
selection: []
keep-type: {a: b}
a: &x [1]
b: *x
? [complex]
: key
--- 
second: document
""",
    "errors.json": '{"a": 1, "a": 2, "b": null, "c": 01, "d": 1., "e": [1,], "f": "\\ud800"}',
}


def settings_seeds():
    for name, text in SETTINGS_SEEDS.items():
        put("fuzz-daemon-settings", name, text)


# MARK: - Declarations and shared-mime-info

def declaration_seeds():
    fixtures = os.path.join(ROOT, "Fixtures", "declarations")
    for name in sorted(os.listdir(fixtures)):
        with open(os.path.join(fixtures, name), "rb") as file:
            put("fuzz-declarations", name, file.read())
    declarations = {
        "UTExportedTypeDeclarations": [{
            "UTTypeIdentifier": "com.example.note",
            "UTTypeConformsTo": ["public.json", "public.text"],
            "UTTypeDescription": "Note",
            "UTTypeTagSpecification": {"public.mime-type": "application/vnd.example.note+json",
                                       "public.filename-extension": ["note"]},
            "UTTypeVersion": 2,
            "UTTypeReferenceURL": "https://example.com/note",
        }],
        "UTImportedTypeDeclarations": [{"UTTypeIdentifier": "org.example.raw", "UTTypeConformsTo": "public.data",
                                        "UTTypeVersion": "3", "Data": b"\x00\x01", "Real": 1.5, "Flag": True}],
    }
    put("fuzz-declarations", "binary.plist", plistlib.dumps(declarations, fmt=plistlib.FMT_BINARY))
    put("fuzz-declarations", "xml.plist", plistlib.dumps(declarations))


def mime_seeds():
    fixtures = os.path.join(ROOT, "Fixtures", "shared-mime-info")
    for directory, name in [("packages", "clipbridge-test.xml"), ("edge-cases", "edge-cases.xml"), ("broken", "unclosed.xml")]:
        with open(os.path.join(fixtures, directory, name), "rb") as file:
            put("fuzz-shared-mime-info", name, file.read())
    # An excerpt of the system package: its internal DTD subset (the part FoundationXML crashed on) and the first
    # few <mime-type> elements.
    with open(os.path.join(fixtures, "packages", "freedesktop.org.xml"), "rb") as file:
        text = file.read()
    types = text.split(b"</mime-type>")
    excerpt = b"</mime-type>".join(types[:4]) + b"</mime-type>\n</mime-info>\n"
    put("fuzz-shared-mime-info", "freedesktop-excerpt.xml", excerpt[:6000] if len(excerpt) <= 6000 else
        excerpt[: excerpt.rfind(b"</mime-type>", 0, 6000) + 12] + b"\n</mime-info>\n")
    put("fuzz-shared-mime-info", "references-cdata.xml", """<?xml version="1.0"?>
<!-- a package -->
<mime-info xmlns='http://www.freedesktop.org/standards/shared-mime-info'>
  <mime-type type="text/x-example">
    <comment>Example &amp; &#x263A; &#65; &lt;text&gt;</comment>
    <comment xml:lang="fr">Exemple</comment>
    <comment><![CDATA[raw <b>cdata</b>]]></comment>
    <sub-class-of type="text/plain"/>
    <alias type='text/x-alias'/>
    <glob pattern="*.ex"/><glob pattern="*.[ch]"/>
    <?processing instruction?>
  </mime-type>
</mime-info>
""")


# MARK: - Clipboard text formats

TARGETS = ["text/uri-list", "text/x-moz-url", "_NETSCAPE_URL", "UTF8_STRING", "text/plain;charset=utf-8", "STRING",
           "TEXT", "COMPOUND_TEXT", "text/plain", "text/html", "x-special/gnome-copied-files", "application/x-color",
           "text/plain;charset=iso-8859-15", "text/plain;charset=utf-16", "text/plain;charset=windows-1252",
           'text/plain;charset="Shift_JIS"', "image/png", "TEXT/URI-LIST"]


def dropped(target, data, type_choice=0):
    """The fuzz-dropped-content encoding: target index (or a named target), property type / charset byte, data."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if target in TARGETS:
        return bytes([TARGETS.index(target), type_choice]) + data
    return bytes([255, type_choice]) + target.encode("utf-8") + b"\0" + data


def dropped_seeds():
    put("fuzz-dropped-content", "uri-list-crlf", dropped("text/uri-list",
        "# a comment\r\nfile:///home/user/a%20b.txt\r\nfile://localhost/etc/hosts\r\nhttps://example.com/x?y=1\r\n"))
    put("fuzz-dropped-content", "uri-list-lf-remote", dropped("text/uri-list", "file://otherhost/srv/f\n\n  file:///tmp/z  \n"))
    put("fuzz-dropped-content", "uri-list-utf16", dropped("text/uri-list", "file:///tmp/\u00e9\r\n".encode("utf-16-le")))
    put("fuzz-dropped-content", "x-moz-url", dropped("text/x-moz-url", "https://example.com/\nExample Domain".encode("utf-16-le")))
    put("fuzz-dropped-content", "x-moz-url-bom-be", dropped("text/x-moz-url", "\ufeffhttps://a.b/\r\nTitle\r\nfile:///c\r\nC".encode("utf-16-be")))
    put("fuzz-dropped-content", "netscape-url", dropped("_NETSCAPE_URL", "https://example.org/page\nA page"))
    put("fuzz-dropped-content", "gnome-copied-files", dropped("x-special/gnome-copied-files", "cut\nfile:///a/b\nfile:///c%20d"))
    put("fuzz-dropped-content", "paths-as-text", dropped("UTF8_STRING", "/home/user/file one.txt\n/tmp/two\nhttps://example.com/\n"))
    put("fuzz-dropped-content", "latin1-string", dropped("STRING", b"caf\xe9\0", 1))
    put("fuzz-dropped-content", "text-compound", dropped("TEXT", b"plain ascii", 2))
    put("fuzz-dropped-content", "charset-windows-1252", dropped("text/plain;charset=windows-1252", b"\x93quoted\x94 \x80", 0x82))
    put("fuzz-dropped-content", "named-charset-target", dropped("text/plain; charset=\"ISO-8859-2\"", b"\xb1\xe6", 0x83))
    put("fuzz-dropped-content", "image-data", dropped("image/png", b"\x89PNG\r\n\x1a\n"))
    put("fuzz-dropped-content", "offered-targets", dropped("application/x-qt-image",
        b"TARGETS\0text/uri-list\0_GTK_SAVE\0image/png\0UTF8_STRING\0DELETE"))


def html_seeds():
    put("fuzz-html-text", "firefox.html", '<meta http-equiv="content-type" content="text/html; charset=utf-8">'
        '<p>Hello&nbsp;<b>world</b> &amp; &#x263A; &#65;&mdash;&unknown;</p><ul><li>one</li><li>two</li></ul>')
    put("fuzz-html-text", "chromium.html", "<html><body>\n<!--StartFragment--><table><tr><td>a</td><td>b</td></tr>"
        "<tr><th>c</th></tr></table><pre>  keep\n  spaces</pre><br/>end<!--EndFragment-->\n</body></html>")
    put("fuzz-html-text", "hidden.html", "<head><title>t</title><style>p{}</style></head><script>x<y</script>"
        "<noscript>n</noscript><template>t</template><div>shown <  lone</div><h1>H</h1><blockquote>q</blockquote>")
    put("fuzz-html-text", "utf16.html", "<p>\u00e9t\u00e9 &lt;tag&gt;</p>".encode("utf-16-le"))


def color_seeds():
    for name, text in {"rgb": "#fff", "rgba": "#f00a", "rrggbb": "#336699", "rrggbbaa": " #33669980\n",
                       "upper": "#ABCDEF", "bad": "#12345", "fullwidth": "#\uff11\uff12\uff13"}.items():
        put("fuzz-color-text", name, text)
    put("fuzz-color-text", "wire", u16(0xFFFF) + u16(0x8080) + u16(0) + u16(0xFFFE))
    put("fuzz-color-text", "utf16-text", "#0a0b0c".encode("utf-16"))


# MARK: - X11 properties and messages

def property_seeds():
    # Byte 0: type and format (type index + 5 × format index: ATOM, TARGETS, ATOM_PAIR, INTEGER, INCR ×
    # 32, 16, 8, 0); byte 1: MULTIPLE steering; then little-endian items.
    items = lambda *values: b"".join(u32(v) for v in values)
    put("fuzz-properties", "targets", bytes([0, 0]) + items(10, 11, 12, 7, 0, 10))
    put("fuzz-properties", "targets-wrong-format", bytes([6, 0]) + items(10, 11))
    put("fuzz-properties", "multiple-pairs", bytes([2, 0x5A]) + items(10, 20, 11, 21, 3, 22, 12, 0, 13))
    put("fuzz-properties", "target-sizes", bytes([3, 1]) + items(10, 100, 11, 0xFFFFFFFF, 10, 5, 0, 7, 12))
    put("fuzz-properties", "incr-header", bytes([4, 0]) + items(1 << 20))


KINDS = ["enter", "position", "status", "leave", "drop", "finished"]


def xdnd_message(kind, *words, wide=False):
    flags = 1 if wide else 0
    packed = b"".join(u32(w) + (u32(0xDEADBEEF) if wide else b"") for w in words)
    return bytes([KINDS.index(kind), flags]) + packed


def xdnd_message_seeds():
    put("fuzz-xdnd-messages", "enter", xdnd_message("enter", 0x300001, 5 << 24 | 1, 10, 11, 12))
    put("fuzz-xdnd-messages", "enter-v2", xdnd_message("enter", 0x300001, 2 << 24, 10, 0, 0))
    put("fuzz-xdnd-messages", "position", xdnd_message("position", 0x300001, 0, 100 << 16 | 200, 12345, 300, wide=True))
    put("fuzz-xdnd-messages", "status", xdnd_message("status", 0x400002, 3, 10 << 16 | 20, 30 << 16 | 40, 300))
    put("fuzz-xdnd-messages", "leave", xdnd_message("leave", 0x300001, 0, 0, 0, 0))
    put("fuzz-xdnd-messages", "drop", xdnd_message("drop", 0x300001, 0, 999, 0, 0))
    put("fuzz-xdnd-messages", "finished", xdnd_message("finished", 0x400002, 1, 300, 0, 0))


# MARK: - Event sequences

def read_machine_seeds():
    # Header: setup (bit 0 raw mode; bits 1–2 time index; bit 3 TEXT alternatives; bit 4 MULTIPLE pair; bit 5
    # consume at once), buffer-limit index, slice-size index. Steps: see Driver.step in main.swift.
    def write(type_index, format_index, length_index, data):
        return bytes([0, type_index, format_index, length_index]) + data
    right_notify, deliver_all, consume_all = bytes([5]), bytes([6, 3, 6, 3]), bytes([15])
    put("fuzz-read-machine", "reply", bytes([0, 4, 5]) + write(1, 0, 5, b"hello") + right_notify + deliver_all + consume_all)
    put("fuzz-read-machine", "reply-sliced", bytes([0x20, 1, 1]) + write(0, 0, 6, b"12345678") + right_notify + deliver_all)
    put("fuzz-read-machine", "incr", bytes([0, 2, 5]) + write(2, 3, 4, u32(10)) + right_notify + deliver_all
        + write(0, 0, 6, b"chunk-01") + bytes([6, 0]) + consume_all + write(0, 0, 0, b"") + deliver_all + consume_all)
    put("fuzz-read-machine", "refused-retried", bytes([2, 4, 5]) + bytes([3, 1, 2, 0, 1]) + bytes([6, 0])
        + bytes([13, 10]) + bytes([6, 0]) + write(1, 0, 6, b"\x01\x02\x03\x04\x05\x06\x07\x08") + right_notify + deliver_all)
    put("fuzz-read-machine", "owner-dies", bytes([0, 4, 5]) + bytes([10]) + bytes([11, 1]) + bytes([6, 0]))
    put("fuzz-read-machine", "decoy-notifies", bytes([0x0A, 4, 5]) + bytes([3, 1, 4, 3, 1, 3, 1, 2, 3, 2, 4, 1, 2, 0, 0])
        + deliver_all + bytes([9]))
    put("fuzz-read-machine", "multiple-pair", bytes([0x10, 4, 5]) + write(1, 0, 4, b"abcd") + bytes([14, 1]) + deliver_all)
    put("fuzz-read-machine", "raw", bytes([1, 0, 0]) + bytes([1, 3, 3, 1, 2, 3, 4, 5, 6, 1, 0, 0, 7, 3, 8, 9, 1, 10, 1, 11, 0]))


def xdnd_machine_seeds():
    def small(value, shifted=False):
        return bytes([0, value, 1 if shifted else 0])

    def wide(value):
        return bytes([1]) + u32(value)

    def message(kind_index, sender_index, *words, honest=True):
        return bytes([1 if honest else 0, kind_index, sender_index]) + b"".join(words)

    # Source: byte 0 even, then the type-count index; steps: see SourceRun.run.
    move = lambda target, x, y, action: bytes([0, target]) + u16(x) + u16(y) + u32(1000) + bytes([action])
    status_accept = bytes([3]) + message(0, 0, small(1), small(0), small(0), wide(300))
    finished = bytes([3]) + message(1, 0, small(1), wide(300), small(0), small(0))
    put("fuzz-xdnd-machines", "source-drop", bytes([0, 1]) + move(1, 10, 10, 1) + status_accept + move(1, 12, 12, 1)
        + status_accept + bytes([6]) + u32(2000) + finished)
    put("fuzz-xdnd-machines", "source-release-early", bytes([0, 3]) + move(2, 5, 5, 1) + bytes([6]) + u32(7)
        + bytes([3]) + message(0, 1, small(1), small(0), small(0), wide(300)) + bytes([8]))
    put("fuzz-xdnd-machines", "source-cancel", bytes([0, 4]) + move(3, 1, 1, 2) + move(1, 2, 2, 2) + bytes([8, 9, 0, 7]))
    # Target: byte 0 odd; steps: see TargetRun.run.
    enter = bytes([0]) + message(0, 4, small(5, shifted=True), small(64), small(0), small(0))
    enter_list = bytes([0]) + message(0, 5, wide(5 << 24 | 1), small(64), small(65), small(66))
    position = bytes([0]) + message(1, 4, small(0), small(16, shifted=True), small(7), wide(300))
    drop = bytes([0]) + message(3, 4, small(0), small(9), small(0), small(0))
    decide_accept = bytes([5, 1, 1, 1])
    put("fuzz-xdnd-machines", "target-drop", bytes([1]) + enter + position + decide_accept + drop + bytes([6, 1, 1]))
    put("fuzz-xdnd-machines", "target-refused", bytes([1]) + enter + position + bytes([5, 0, 0, 0, 1, 2, 3, 4]) + drop)
    put("fuzz-xdnd-machines", "target-type-list", bytes([1]) + enter_list + bytes([4, 0, 3]) + enter + position + bytes([7]))


# MARK: - History entries

HISTORY_TARGETS = ["UTF8_STRING", "text/uri-list", "image/png", "image/jpeg", "image/gif", "image/bmp", "image/webp",
                   "STRING", "text/plain;charset=utf-8", "text/html", "TEXT", "text/plain;charset=utf-16",
                   "com.example.todo", "x-special/gnome-copied-files"]


def history_entry(*flavours):
    """The fuzz-history-entry encoding: a count byte, then NUL-separated flavours, each its target's index and data."""
    pieces = [bytes([HISTORY_TARGETS.index(target)]) + data for target, data in flavours]
    return bytes([len(pieces) - 1]) + b"\0".join(pieces)


def history_seeds():
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x07\x80\x00\x00\x04\x38\x08\x06\x00\x00\x00"
    jpeg = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 1, 0xe0, 2, 0x80, 3, 1, 0x11, 0])
    webp = b"RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x10\x00\x00\x00\x7f\x07\x00\x37\x04\x00"
    put("fuzz-history-entry", "text", history_entry(("UTF8_STRING", "  two\n\tlines \u00e9 ".encode())))
    put("fuzz-history-entry", "files", history_entry(
        ("text/uri-list", b"file:///home/a%20b/c.txt\r\nfile://host/srv/d.png\r\n# comment\r\n"),
        ("UTF8_STRING", b"/home/a b/c.txt")))
    put("fuzz-history-entry", "png", history_entry(("text/html", b"<img src=x>"), ("image/png", png)))
    put("fuzz-history-entry", "jpeg", history_entry(("image/jpeg", jpeg)))
    put("fuzz-history-entry", "webp", history_entry(("image/webp", webp)))
    put("fuzz-history-entry", "gif", history_entry(("image/gif", b"GIF89a\x10\x00\x20\x00")))
    put("fuzz-history-entry", "bmp", history_entry(("image/bmp", b"BM" + bytes(12) + bytes([40, 0, 0, 0, 16, 0, 0, 0, 0xf0, 0xff, 0xff, 0xff]))))
    put("fuzz-history-entry", "wm-class", b"\x00keepassxc\x00KeePassXC\x00")
    put("fuzz-history-entry", "search-syntax", b'\x00"quoted" - * NEAR( AND OR NOT ^col: {x}')
    put("fuzz-history-entry", "latin1", history_entry(("STRING", bytes([0x63, 0x61, 0x66, 0xe9]))))
    put("fuzz-history-entry", "custom", history_entry(("com.example.todo", b'{"title":"x"}')))
    put("fuzz-history-entry", "search-ascii", b"\x00inv-2024 o'brien x86")
    # fuzz-history-sealed: a mode byte (0 a blob file, 1 a sealed value, 2 plaintext to seal and tamper with).
    put("fuzz-history-sealed", "blob-header", b"\x00\x01" + bytes(16) + bytes(40))
    put("fuzz-history-sealed", "value", b"\x01\x01" + bytes(12) + b"summary" + bytes(16))
    put("fuzz-history-sealed", "plain-short", b"\x02hello, sealed world")
    put("fuzz-history-sealed", "plain-segments", b"\x02\x03" + bytes(range(200)))
    put("fuzz-history-sealed", "plain-cut", b"\x02\x01" + b"x" * 33)


def link_frame(kind, stream, payload):
    """One frame of the link protocol (Sources/ClipboardLink/Wire): kind, stream, length, big-endian."""
    return struct.pack(">BII", kind, stream, len(payload)) + payload


def link_name(name):
    data = name.encode("utf-8")
    return struct.pack(">H", len(data)) + data


def link_seeds():
    # fuzz-link-decoder: a mode byte (0: fed whole; N: in pieces of N bytes), then frames after the preamble.
    hello = link_frame(1, 0, struct.pack(">HB", 1, 0) + b"clipbridge 0.1.0")
    announce = link_frame(2, 0, bytes([9]) + b"CLIPBOARD" + struct.pack(">QQBI", 3, 1, 0, 3)
                          + link_name("UTF8_STRING") + link_name("text/html") + link_name("image/png"))
    fetch = link_frame(5, 7, bytes([9]) + b"CLIPBOARD" + struct.pack(">QI", 3, 1 << 20) + link_name("text/html"))
    data = link_frame(6, 7, link_name("text/html") + bytes([8]) + b"<b>hi</b>")
    data32 = link_frame(6, 2, link_name("INTEGER") + bytes([32]) + struct.pack(">II", 1, 2))
    end = link_frame(7, 7, struct.pack(">Q", 9))
    put("fuzz-link-decoder", "session", b"\x00" + hello + announce + fetch + data + data32 + end)
    put("fuzz-link-decoder", "session-bytewise", b"\x01" + hello + announce + fetch + data + end)
    put("fuzz-link-decoder", "control", b"\x07" + link_frame(3, 0, bytes([7]) + b"PRIMARY" + struct.pack(">Q", 2))
        + link_frame(4, 0, b"") + link_frame(8, 3, "gone — «stale»".encode()) + link_frame(9, 3, struct.pack(">I", 262144))
        + link_frame(10, 3, b"") + link_frame(11, 0, struct.pack(">Q", 1)) + link_frame(12, 0, struct.pack(">Q", 1)))
    put("fuzz-link-decoder", "sensitive-empty", b"\x00" + link_frame(2, 0, bytes([9]) + b"CLIPBOARD" + struct.pack(">QQBI", 1, 0, 1, 0)))
    put("fuzz-link-decoder", "lying-count", b"\x00" + link_frame(2, 0, bytes([9]) + b"CLIPBOARD" + struct.pack(">QQBI", 1, 0, 0, 0xFFFFFFFF)))
    put("fuzz-link-decoder", "huge-length", b"\x00" + struct.pack(">BII", 6, 1, 0xFFFFFFF0))


def main():
    link_seeds()
    history_seeds()
    bmp_seeds()
    netpbm_seeds()
    image_seeds()
    settings_seeds()
    declaration_seeds()
    mime_seeds()
    dropped_seeds()
    html_seeds()
    color_seeds()
    property_seeds()
    xdnd_message_seeds()
    read_machine_seeds()
    xdnd_machine_seeds()


if __name__ == "__main__":
    main()
