// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — the one paste ladder, over the TARGETS lists real owners send

import Foundation
import Testing
import UniformTypes
import X11Selection

@testable import ClipBridge

/// TARGETS lists as real owners send them (their own order, meta targets included), from the peers the
/// integration suites run and from docs/design's interop anchors.
enum Offers {
    /// `xclip -i` (xclip.c: TARGETS and the one target).
    static let xclip: [SelectionTarget] = ["TARGETS", "UTF8_STRING"]
    /// `xclip -i -t image/png`.
    static let xclipImage: [SelectionTarget] = ["TARGETS", "image/png"]
    /// xsel 1.2: TEXT before UTF8_STRING, INCR listed as a target.
    static let xsel: [SelectionTarget] = ["TIMESTAMP", "MULTIPLE", "TARGETS", "DELETE", "INCR", "TEXT", "UTF8_STRING", "STRING"]
    /// GTK 3's text (gtkselection.c's text targets).
    static let gtk3: [SelectionTarget] = [
        "TIMESTAMP", "TARGETS", "MULTIPLE", "SAVE_TARGETS", "UTF8_STRING", "COMPOUND_TEXT", "TEXT", "STRING",
        "text/plain;charset=utf-8", "text/plain",
    ]
    /// GTK 4's text: the MIME name before the X names.
    static let gtk4: [SelectionTarget] = [
        "TIMESTAMP", "TARGETS", "SAVE_TARGETS", "text/plain;charset=utf-8", "UTF8_STRING", "TEXT", "STRING",
        "COMPOUND_TEXT", "text/plain",
    ]
    /// Qt 5's text: bare text/plain (UTF-8 in Qt's view) first.
    static let qt5: [SelectionTarget] = [
        "TIMESTAMP", "TARGETS", "MULTIPLE", "SAVE_TARGETS", "text/plain", "UTF8_STRING", "STRING", "TEXT",
        "COMPOUND_TEXT",
    ]
    /// Firefox copying part of a page: HTML first, then text, and its private targets.
    static let firefoxText: [SelectionTarget] = [
        "TIMESTAMP", "TARGETS", "MULTIPLE", "text/html", "text/_moz_htmlcontext", "text/_moz_htmlinfo",
        "UTF8_STRING", "COMPOUND_TEXT", "TEXT", "STRING", "text/plain;charset=utf-8", "text/plain",
        "text/x-moz-url-priv",
    ]
    /// Firefox copying an image: its HTML, its native image, then the image formats.
    static let firefoxImage: [SelectionTarget] = [
        "TIMESTAMP", "TARGETS", "MULTIPLE", "text/html", "text/_moz_htmlinfo", "text/_moz_htmlcontext",
        "application/x-moz-nativeimage", "image/png", "image/jpeg", "image/bmp", "text/x-moz-url-priv",
    ]
    /// A file manager's copy (pcmanfm, Nautilus): the file list, and its paths as text.
    static let fileManager: [SelectionTarget] = [
        "TIMESTAMP", "TARGETS", "MULTIPLE", "x-special/gnome-copied-files", "text/uri-list", "UTF8_STRING",
    ]
    /// KeePassXC (Qt) copying a password: the hint, then the text.
    static let passwordManager: [SelectionTarget] = [
        "TIMESTAMP", "TARGETS", "MULTIPLE", "x-kde-passwordManagerHint", "text/plain", "UTF8_STRING", "STRING",
    ]
    /// An HTML-only owner (a web app's rich copy).
    static let htmlOnly: [SelectionTarget] = ["TARGETS", "text/html"]

    static let all: [(String, [SelectionTarget])] = [
        ("xclip", xclip), ("xclip image", xclipImage), ("xsel", xsel), ("GTK 3", gtk3), ("GTK 4", gtk4),
        ("Qt 5", qt5), ("Firefox text", firefoxText), ("Firefox image", firefoxImage),
        ("file manager", fileManager), ("password manager", passwordManager), ("HTML only", htmlOnly),
        ("nothing but meta targets", ["TIMESTAMP", "TARGETS", "MULTIPLE"]),
    ]
}

@Suite("The paste ladder (wl-paste's mime_type_to_request, conformance-aware)")
struct PasteLadderTests {
    private func choose(_ request: PasteLadder.Request, _ offered: [SelectionTarget]) -> ClipboardType? {
        PasteLadder.choose(request, offered: offered, converters: .standard)
    }

    @Test("nothing asked: the best text by meaning, whatever the owner's order")
    func unspecifiedPicksTheBestText() {
        for offer in [Offers.xclip, Offers.xsel, Offers.gtk3, Offers.gtk4, Offers.qt5, Offers.firefoxText, Offers.fileManager,
                      Offers.passwordManager]
        {
            #expect(choose(.unspecified(inferred: nil), offer)?.target == "UTF8_STRING", "\(offer)")
            #expect(choose(.text, offer)?.target == "UTF8_STRING", "\(offer)")
        }
        // Without UTF8_STRING, the UTF-8 MIME name; then COMPOUND_TEXT, STRING, TEXT, bare text/plain.
        #expect(choose(.text, ["TARGETS", "text/plain", "text/plain;charset=utf-8"])?.target == "text/plain;charset=utf-8")
        #expect(choose(.text, ["TEXT", "STRING"])?.target == "STRING")
        #expect(choose(.text, ["text/plain", "TEXT"])?.target == "TEXT")
    }

    @Test("nothing asked and no text: the owner's richest type, never a meta target, a password hint or KDE's cut flag")
    func unspecifiedWithoutText() {
        #expect(choose(.unspecified(inferred: nil), Offers.xclipImage)?.target == "image/png")
        // Text made from HTML still comes before the richest type (a bare paste of Firefox's image copy is text).
        #expect(choose(.unspecified(inferred: nil), Offers.firefoxImage)?.sourceTarget == "text/html")
        #expect(choose(.unspecified(inferred: nil), ["TIMESTAMP", "TARGETS", "MULTIPLE"]) == nil)
        #expect(choose(.unspecified(inferred: nil), ["TARGETS", "x-kde-passwordManagerHint", "application/x-kde-cutselection"]) == nil)
        #expect(choose(.unspecified(inferred: nil), ["x-kde-passwordManagerHint", "image/png"])?.target == "image/png")
    }

    @Test("an HTML-only owner gives text through the HTML converter")
    func textByConversion() throws {
        let chosen = try #require(choose(.text, Offers.htmlOnly))
        #expect(chosen.isConverted && chosen.sourceTarget == "text/html" && chosen.contentType == .utf8PlainText)
        // Firefox's image copy has HTML too: its text is converted from the HTML, not read from the image.
        #expect(choose(.text, Offers.firefoxImage)?.sourceTarget == "text/html")
        // Nothing becomes text: nil.
        #expect(choose(.text, Offers.xclipImage) == nil)
    }

    @Test("the output file's type first, then as if nothing was asked")
    func inferredFromTheOutputFile() {
        #expect(choose(.unspecified(inferred: .html), Offers.firefoxText)?.target == "text/html")
        #expect(choose(.unspecified(inferred: .png), Offers.firefoxImage)?.target == "image/png")
        #expect(choose(.unspecified(inferred: .jpeg), Offers.firefoxImage)?.target == "image/jpeg")
        // Not offered: the best text, as for a bare paste (wl-paste gives up here for binary types).
        #expect(choose(.unspecified(inferred: .png), Offers.gtk3)?.target == "UTF8_STRING")
        #expect(choose(.unspecified(inferred: .plainText), Offers.xsel)?.target == "UTF8_STRING")
    }

    @Test("an exact target: that one only, or a converter's under that name")
    func exactTargets() {
        #expect(choose(.target("TEXT"), Offers.xsel)?.target == "TEXT")
        #expect(choose(.target("text/plain"), Offers.qt5)?.target == "text/plain")
        #expect(choose(.target("image/png"), Offers.xclip) == nil)
        // text/uri-list from gnome-copied-files alone, by the converter.
        let converted = choose(.target("text/uri-list"), ["TARGETS", "x-special/gnome-copied-files"])
        #expect(converted?.isConverted == true && converted?.sourceTarget == "x-special/gnome-copied-files")
        // A meta target is never content (`-t TARGETS` is answered before the ladder).
        #expect(choose(.target("TIMESTAMP"), Offers.xsel) == nil)
    }

    @Test("an exact target offered is read verbatim (the owner's bytes); a type asked for by meaning is decoded")
    func verbatimOnlyWhenNamed() {
        for target: SelectionTarget in ["TEXT", "STRING", "UTF8_STRING"] {
            #expect(choose(.target(target), Offers.xsel)?.isVerbatim == true, "\(target)")
        }
        #expect(choose(.target("text/plain"), Offers.qt5)?.isVerbatim == true)
        #expect(choose(.text, Offers.xsel)?.isVerbatim == false)
        #expect(choose(.type(.plainText), ["TARGETS", "STRING"])?.isVerbatim == false)
        #expect(choose(.unspecified(inferred: nil), ["TARGETS", "STRING"])?.isVerbatim == false)
        // An X text target not offered: the owner's text by meaning, decoded (xclip would fail here).
        let string = choose(.target("STRING"), ["TARGETS", "UTF8_STRING"])
        #expect(string?.target == "UTF8_STRING" && string?.isVerbatim == false)
    }

    @Test("a type: the richest offered type conforming, in the owner's order, else a conversion")
    func conformingTypes() {
        #expect(choose(.type(.image), Offers.firefoxImage)?.target == "image/png")
        #expect(choose(.type(.image), Offers.xclip) == nil)
        #expect(choose(.type(.url), Offers.fileManager)?.target == "text/uri-list")
        #expect(choose(.type(.html), Offers.firefoxText)?.target == "text/html")
        // public.text: the owner's order (HTML is text), not the text ranking.
        #expect(choose(.type(.text), Offers.firefoxText)?.target == "text/html")
        // UTF-8 text ranks by meaning too: STRING (Latin-1 by ICCCM) before TEXT (whatever the owner meant).
        #expect(choose(.type(.utf8PlainText), ["TEXT", "STRING"])?.target == "STRING")
        #expect(choose(.type(.utf8PlainText), Offers.qt5)?.target == "UTF8_STRING")
        // A conversion, partial ones included: a colour from text is tried when asked for.
        #expect(choose(.type(TargetMapping.colorType), Offers.xclip)?.sourceTarget == "UTF8_STRING")
    }

    @Test("the quick path, with no converters, chooses what the full path chooses whenever it chooses text")
    func quickPathAgrees() {
        let textFamily = Set(TargetMapping.textTargets)
        for (name, offer) in Offers.all {
            let full = PasteLadder.choose(.unspecified(inferred: nil), offered: offer, converters: .standard)
            let quick = PasteLadder.choose(.unspecified(inferred: nil), offered: offer, converters: .init())
            if let quick, textFamily.contains(quick.target) {
                #expect(full == quick, "\(name)")
            } else {
                // The quick path hands over; the full path may convert (HTML → text).
                #expect(full.map { !textFamily.contains($0.target) || $0.isConverted } ?? true, "\(name)")
            }
        }
    }

    @Test("one ladder: bestType's text and a bare paste agree for every offer")
    func textRequestsAgree() {
        for (name, offer) in Offers.all {
            #expect(choose(.text, offer) == choose(.type(.plainText), offer), "\(name)")
            let bare = choose(.unspecified(inferred: nil), offer)
            if let text = choose(.text, offer) { #expect(bare == text, "\(name)") }
        }
    }
}
