#!/usr/bin/python3
"""An encrypted ClipBridge history opened by an independent implementation of its documented format (the doc
comment of Sources/ClipHistory/Crypto/HistoryCipher.swift), with Python's `cryptography` (HKDF-SHA-256,
ChaCha20-Poly1305) and the standard library's sqlite3, hmac and hashlib.

  history_open.py DIRECTORY < SECRET

DIRECTORY is the history's directory (history.sqlite3, blobs/); SECRET the key's bytes (a final line break is
dropped, as the history drops it). Prints one JSON object: {"entries": [{"id", "summary", "ownerClass", "text",
"flavours": [{"target", "size", "sha256", "storedAs"}]}]}, every value opened and every blob's keyed name checked.
Exit status 0; 1 when anything does not open or a name does not match; 2 usage.
"""

import hashlib
import hmac
import json
import os
import sqlite3
import sys

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

VERSION = 1
SEGMENT = 64 * 1024
TAG = 16


def hkdf(salt, secret, info):
    """HKDF-SHA-256 (RFC 5869), 32 bytes: HKDF-Expand(HKDF-Extract(salt, secret), info)."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(secret)


def open_value(record_key, sealed, column):
    """A small value: version, 12-byte nonce, ciphertext and tag; its column's name is the associated data."""
    if sealed is None:
        return None
    sealed = bytes(sealed)
    if len(sealed) < 1 + 12 + TAG or sealed[0] != VERSION:
        raise ValueError("a sealed %s is damaged" % column)
    return ChaCha20Poly1305(record_key).decrypt(sealed[1:13], sealed[13:], column.encode())


def open_stream(stream_key, data):
    """A blob: version, 16-byte nonce, then 64 KiB segments sealed with the file's key derived from that nonce; each
    segment's nonce is an 11-byte big-endian counter and 1 for the last segment (age's STREAM)."""
    if len(data) < 17 or data[0] != VERSION:
        raise ValueError("a blob is damaged (its header)")
    aead = ChaCha20Poly1305(hkdf(data[1:17], stream_key, b"payload"))
    body = data[17:]
    plain = bytearray()
    counter = 0
    while True:
        segment = body[:SEGMENT + TAG]
        body = body[SEGMENT + TAG:]
        last = len(body) == 0
        nonce = counter.to_bytes(11, "big") + (b"\x01" if last else b"\x00")
        plain += aead.decrypt(nonce, segment, b"")
        counter += 1
        if last:
            return bytes(plain)


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    directory = sys.argv[1]
    secret = sys.stdin.buffer.read()
    while secret[-1:] in (b"\n", b"\r"):
        secret = secret[:-1]
    database = sqlite3.connect("file:%s?mode=ro" % os.path.join(directory, "history.sqlite3"), uri=True)
    state = bytes(database.execute("SELECT value FROM state WHERE key = 'encryption'").fetchone()[0])
    salt, check = state[:32], state[32:]
    if hkdf(salt, secret, b"clipbridge history key check") != check:
        print("the key's check value does not match", file=sys.stderr)
        return 1
    record_key = hkdf(salt, secret, b"clipbridge history record key")
    stream_key = hkdf(salt, secret, b"clipbridge history stream key")
    name_key = hkdf(salt, secret, b"clipbridge history name key")
    entries = []
    rows = database.execute("SELECT id, summary, owner_class, sealed_text FROM entry ORDER BY id").fetchall()
    for entry_id, summary, owner_class, sealed_text in rows:
        flavours = []
        for target, size, inline, blob in database.execute(
                "SELECT target, byte_count, bytes, blob FROM flavour WHERE entry_id = ? ORDER BY position", (entry_id,)):
            if blob is not None:
                with open(os.path.join(directory, "blobs", blob[:2], blob), "rb") as file:
                    plain = open_stream(stream_key, file.read())
                # The keyed name: HMAC-SHA-256 of the content's SHA-256 under the name key.
                expected = hmac.new(name_key, hashlib.sha256(plain).digest(), hashlib.sha256).hexdigest()
                if expected != blob:
                    print("blob %s is not named by its content" % blob, file=sys.stderr)
                    return 1
                stored = "blob"
            else:
                plain = open_value(record_key, inline, "payload")
                stored = "inline"
            flavours.append({"target": target, "size": len(plain), "sha256": hashlib.sha256(plain).hexdigest(),
                             "storedAs": stored})
            if len(plain) != size:
                print("flavour %s: %d bytes, %d recorded" % (target, len(plain), size), file=sys.stderr)
                return 1
        owner = open_value(record_key, owner_class, "owner_class")
        text = open_value(record_key, sealed_text, "text")
        entries.append({
            "id": entry_id,
            "summary": open_value(record_key, summary, "summary").decode("utf-8", "replace"),
            "ownerClass": owner.decode("utf-8", "replace") if owner is not None else None,
            "text": text.decode("utf-8", "replace") if text is not None else None,
            "flavours": flavours,
        })
    print(json.dumps({"entries": entries}))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (InvalidTag, ValueError) as error:
        print("does not open: %r" % error, file=sys.stderr)
        sys.exit(1)
