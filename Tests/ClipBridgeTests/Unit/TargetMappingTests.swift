// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — the UTType ↔ target table, both ways

import Foundation
import Testing
import UniformTypes
import X11Selection

@testable import ClipBridge

@Suite("UTType ↔ X11 target table")
struct TargetMappingTests {
    @Test("text offers the union of GTK's and Qt's text targets, UTF-8 MIME name first")
    func textFamilyOrder() {
        let expected: [SelectionTarget] = [
            "text/plain;charset=utf-8", "UTF8_STRING", "COMPOUND_TEXT", "TEXT", "STRING", "text/plain",
        ]
        #expect(TargetMapping.targets(for: .utf8PlainText) == expected)
        #expect(TargetMapping.targets(for: .plainText) == expected)
        // GTK (gdkclipboard-x11.c special_targets) and Qt (qxcbmime.cpp mimeAtomsForFormat) text atoms are
        // all in the family.
        let gtk: Set<SelectionTarget> = [
            "UTF8_STRING", "COMPOUND_TEXT", "TEXT", "STRING", "text/plain;charset=utf-8", "text/plain",
        ]
        let qt: Set<SelectionTarget> = ["text/plain", "UTF8_STRING", "STRING", "TEXT"]
        #expect(gtk.union(qt).isSubset(of: Set(expected)))
    }

    @Test("STRING holding UTF-8 (xsel in a C locale) reads as UTF-8; a declared Latin-1 label stays Latin-1")
    func stringDecoding() {
        let utf8 = Data("café".utf8)  // 63 61 66 c3 a9
        #expect(TargetMapping.canonicalText(utf8, target: .string, propertyType: .string) == utf8)
        #expect(TargetMapping.canonicalText(utf8, target: .text, propertyType: .string) == utf8)
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])  // café in Latin-1: not valid UTF-8
        #expect(TargetMapping.canonicalText(latin1, target: .string, propertyType: .string) == utf8)
        // TEXT typed TEXT (xclip -t TEXT): no encoding named — UTF-8 when valid, else Latin-1, as STRING; a
        // COMPOUND_TEXT reply with escapes is Xlib's to decode (nil).
        #expect(TargetMapping.canonicalText(latin1, target: .text, propertyType: .text) == utf8)
        #expect(TargetMapping.canonicalText(utf8, target: .text, propertyType: .text) == utf8)
        #expect(TargetMapping.canonicalText(Data([0x63, 0x1B, 0x2D, 0x41, 0xE9]), target: .text, propertyType: .compoundText) == nil)
        #expect(TargetMapping.canonicalText(Data("ascii".utf8), target: .compoundText, propertyType: .compoundText) == Data("ascii".utf8))
        // The label is the owner's word: both byte sequences are Latin-1 there.
        #expect(TargetMapping.canonicalText(utf8, target: "text/plain;charset=iso-8859-1", propertyType: "text/plain")
            == Data("cafÃ©".utf8))
    }

    @Test("the best text is chosen by meaning, not by the owner's order")
    func preferredTextTarget() {
        // xsel 1.2 lists TEXT first (and answers it with UTF-8 typed STRING).
        #expect(TargetMapping.preferredTextTarget(in: ["TIMESTAMP", "TARGETS", "TEXT", "UTF8_STRING", "STRING"]) == "UTF8_STRING")
        // Xfce's manager restoring a GTK 3 copy lists bare text/plain first (ASCII escapes, CRLF).
        #expect(TargetMapping.preferredTextTarget(in: ["text/plain", "text/plain;charset=utf-8", "UTF8_STRING"]) == "UTF8_STRING")
        #expect(TargetMapping.preferredTextTarget(in: ["text/plain", "text/plain; charset=UTF-8"]) == "text/plain; charset=UTF-8")
        #expect(TargetMapping.preferredTextTarget(in: ["text/plain", "TEXT", "STRING", "COMPOUND_TEXT"]) == "COMPOUND_TEXT")
        #expect(TargetMapping.preferredTextTarget(in: ["text/plain", "TEXT", "STRING"]) == "STRING")
        #expect(TargetMapping.preferredTextTarget(in: ["text/plain", "TEXT"]) == "TEXT")
        #expect(TargetMapping.preferredTextTarget(in: ["text/plain", "text/plain;charset=iso-8859-15"]) == "text/plain;charset=iso-8859-15")
        #expect(TargetMapping.preferredTextTarget(in: ["image/png", "text/plain"]) == "text/plain")
        // No text family: another plain-text type, in the owner's order; none at all: nil.
        #expect(TargetMapping.preferredTextTarget(in: ["image/png", "text/x-python"]) == "text/x-python")
        #expect(TargetMapping.preferredTextTarget(in: ["image/png", "TARGETS"]) == nil)
    }

    @Test(
        "well-known types map to their targets",
        arguments: [
            (UTType.html, "text/html"), (.png, "image/png"), (.jpeg, "image/jpeg"), (.json, "application/json"),
            (.commaSeparatedText, "text/csv"), (.rtf, "text/rtf"), (.pdf, "application/pdf"),
            (.url, "text/uri-list"), (.fileURL, "text/uri-list"), (.mpeg4Movie, "video/mp4"),
        ] as [(UTType, String)]
    )
    func wellKnownTypes(type: UTType, target: String) {
        #expect(TargetMapping.targets(for: type).first == SelectionTarget(rawValue: target))
    }

    @Test(
        "targets map back to content types",
        arguments: [
            ("UTF8_STRING", UTType.utf8PlainText), ("text/plain;charset=utf-8", .utf8PlainText),
            ("text/plain;charset=UTF-8", .utf8PlainText), ("STRING", .plainText), ("TEXT", .plainText),
            ("COMPOUND_TEXT", .plainText), ("text/plain", .plainText), ("text/html", .html), ("image/png", .png),
            ("text/uri-list", .url), ("application/json", .json), ("text/csv", .commaSeparatedText),
            ("application/pdf", .pdf), ("text/rtf", .rtf),
        ] as [(String, UTType)]
    )
    func targetsToTypes(target: String, type: UTType) {
        #expect(TargetMapping.contentType(for: SelectionTarget(rawValue: target)) == type)
    }

    @Test("a custom type with no MIME travels under its identifier, and comes back as itself")
    func customIdentifierRoundTrip() {
        let todo = UTType(exportedAs: "com.example.bridge-tests.todo")
        let targets = TargetMapping.targets(for: todo)
        #expect(targets == ["com.example.bridge-tests.todo"])
        #expect(TargetMapping.contentType(for: targets[0]) == todo)
        #expect(TargetMapping.target(targets[0], satisfies: todo))
    }

    @Test("unknown MIME names become dynamic types that keep the MIME type")
    func unknownMIMEIsDynamic() throws {
        let type = TargetMapping.contentType(for: "application/x-bridge-test-unknown")
        #expect(type.isDynamic)
        #expect(type.preferredMIMEType == "application/x-bridge-test-unknown")
        #expect(TargetMapping.targets(for: type) == ["application/x-bridge-test-unknown"])
    }

    @Test("names without a slash are never dropped: dynamic types that map back to the same atom")
    func atomNamesAreKept() {
        for name in ["GTK_TEXT_BUFFER_CONTENTS", "_NETSCAPE_URL", "x-kde-passwordManagerHint", "SOME_ATOM"] {
            let type = TargetMapping.contentType(for: SelectionTarget(rawValue: name))
            #expect(type.isDynamic, "\(name)")
            #expect(TargetMapping.targets(for: type) == [SelectionTarget(rawValue: name)], "\(name)")
        }
        #expect(
            TargetMapping.contentType(for: "GTK_TEXT_BUFFER_CONTENTS") != TargetMapping.contentType(for: "SOME_ATOM"))
    }

    @Test("file-manager and toolkit formats have their own types")
    func fileManagerFormats() {
        for target in [
            TargetMapping.gnomeCopiedFiles, TargetMapping.kdeCutSelection, TargetMapping.mozURL, TargetMapping.color,
        ] {
            let type = TargetMapping.contentType(for: target)
            #expect(TargetMapping.targets(for: type) == [target])
            #expect(!type.conforms(to: .plainText))
        }
    }

    @Test("names a person types resolve: UTI, MIME, X target, extension")
    func namesResolve() {
        #expect(TargetMapping.contentType(named: "public.png") == .png)
        #expect(TargetMapping.contentType(named: "image/png") == .png)
        #expect(TargetMapping.contentType(named: "UTF8_STRING") == .utf8PlainText)
        #expect(TargetMapping.contentType(named: "STRING") == .plainText)
        #expect(TargetMapping.contentType(named: "png") == .png)
        #expect(TargetMapping.contentType(named: ".json") == .json)
        #expect(TargetMapping.contentType(named: "") == nil)
        #expect(TargetMapping.contentType(named: "no-such-thing-here") == nil)
    }

    @Test("meta targets, the password hint and the item list are not content")
    func contentTargets() {
        for target in [
            "TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "x-kde-passwordManagerHint",
            "application/x-clipbridge-items",
        ] as [SelectionTarget] {
            #expect(!TargetMapping.isContentTarget(target), "\(target)")
        }
        #expect(TargetMapping.isContentTarget("UTF8_STRING"))
        #expect(TargetMapping.isContentTarget("image/png"))
    }

    @Test("importers match targets by conformance and by the table")
    func matching() {
        #expect(TargetMapping.target("UTF8_STRING", satisfies: .plainText))
        #expect(TargetMapping.target("UTF8_STRING", satisfies: .text))
        // Text is decoded to UTF-8 on reading, so every text target feeds a UTF-8 importer.
        #expect(TargetMapping.target("STRING", satisfies: .utf8PlainText))
        #expect(!TargetMapping.target("text/html", satisfies: .utf8PlainText))
        #expect(TargetMapping.target("image/png", satisfies: .image))
        #expect(!TargetMapping.target("image/png", satisfies: .plainText))
        #expect(TargetMapping.target("text/uri-list", satisfies: .url))
    }

    @Test("one row per known target says its type, codec and property format; other names follow the rules")
    func rowsAndRules() {
        #expect(TargetMapping.format(for: TargetMapping.color) == 16)
        #expect(TargetMapping.contentType(for: TargetMapping.color) == TargetMapping.colorType)
        #expect(TargetMapping.codec(for: TargetMapping.mozURL) == .utf16Text)
        #expect(TargetMapping.codec(for: "STRING") == .utf8OrLatin1Text)
        #expect(TargetMapping.codec(for: "TEXT") == .x11Text)
        #expect(TargetMapping.codec(for: "text/html") == .autodetectedText)
        #expect(TargetMapping.format(for: "image/png") == 8)
        #expect(TargetMapping.codec(for: "image/png") == .bytes)
        #expect(TargetMapping.codec(for: "text/plain;charset=UTF-8") == .utf8Text)
        #expect(TargetMapping.codec(for: "text/plain; charset=\"latin1\"") == .latin1Text)
        #expect(TargetMapping.codec(for: "text/plain;charset=iso-8859-15") == .charset("iso-8859-15"))
        #expect(TargetMapping.codec(for: "text/plain;charset=utf-16") == .bytes)
        #expect(TargetMapping.codec(for: "text/plain;charset=x-no-such-charset") == .bytes)
        for (target, row) in TargetMapping.rows {
            // Each row is the answer for its target, and what the table offers for the row's type comes back to it.
            #expect(TargetMapping.codec(for: target) == row.codec, "\(target)")
            #expect(TargetMapping.contentType(for: target) == row.contentType, "\(target)")
            if row.isReadOnly {
                // Read as the type, never offered for it: ClipBridge cannot serve a real PIXMAP.
                #expect(!TargetMapping.targets(for: row.contentType).contains(target), "\(target)")
            } else if row.carriesContent, !TargetMapping.textTargets.contains(target) {
                #expect(TargetMapping.targets(for: row.contentType).contains(target), "\(target)")
            }
        }
    }
}
