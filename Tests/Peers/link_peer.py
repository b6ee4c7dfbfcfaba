#!/usr/bin/python3
"""A far end of a clipbridge link that speaks another protocol version, or is not a link at all: run as
`--remote-command "python3 link_peer.py --version N"` (the bridge's own arguments follow and are ignored).

--version N  writes the link's preamble and a hello frame of version N, then reads until its input ends.
--banner T   writes T and a newline instead (a login banner or a shell's message on standard output).
"""
import struct
import sys

args = sys.argv[1:]
out = sys.stdout.buffer
if args[:1] == ["--banner"]:
    out.write(args[1].encode() + b"\n")
    out.flush()
else:
    version = int(args[1]) if args[:1] == ["--version"] else 1
    software = b"clipbridge 9.9 (link_peer.py)"
    payload = struct.pack(">HB", version, 0) + software
    out.write(b"clipbridge-link\n" + struct.pack(">BII", 1, 0, len(payload)) + payload)
    out.flush()
while sys.stdin.buffer.read(65536):
    pass
