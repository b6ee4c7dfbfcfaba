// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — wire encodings become canonical bytes

import Foundation
import Testing
import X11Selection

@testable import ClipBridge

@Suite("Wire encodings")
struct WireCodecTests {
    private func decode(_ target: SelectionTarget, _ bytes: [UInt8], type: SelectionTarget? = nil) -> String? {
        TargetMapping.codec(for: target).decode(Data(bytes), propertyType: type ?? target)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("STRING is ISO-8859-1")
    func latin1() {
        #expect(decode("STRING", [0x63, 0x61, 0x66, 0xE9]) == "café")
    }

    @Test("text/plain is UTF-8 when valid, else Latin-1")
    func unlabelled() {
        #expect(decode("text/plain", Array("café".utf8)) == "café")
        #expect(decode("text/plain", [0x63, 0x61, 0x66, 0xE9]) == "café")
    }

    @Test("TEXT follows the reply's property type")
    func textByType() {
        #expect(decode("TEXT", Array("ü".utf8), type: "UTF8_STRING") == "ü")
        #expect(decode("TEXT", [0xFC], type: "STRING") == "ü")
        #expect(decode("TEXT", Array("plain".utf8), type: "COMPOUND_TEXT") == "plain")
        // Non-ASCII compound text needs Xlib: the codec says so instead of guessing.
        #expect(decode("COMPOUND_TEXT", [0x1B, 0x2D, 0x41, 0xFC], type: "COMPOUND_TEXT") == nil)
    }

    @Test("UTF-16 HTML from Firefox is detected, with and without a BOM")
    func utf16HTML() {
        let html = "<b>hé</b>"
        var le = Data()
        for unit in html.utf16 {
            le.append(UInt8(unit & 0xFF))
            le.append(UInt8(unit >> 8))
        }
        #expect(decode("text/html", Array(le)) == html)
        #expect(decode("text/html", [0xFF, 0xFE] + Array(le)) == html)
        var be = Data([0xFE, 0xFF])
        for unit in html.utf16 {
            be.append(UInt8(unit >> 8))
            be.append(UInt8(unit & 0xFF))
        }
        #expect(decode("text/html", Array(be)) == html)
        #expect(decode("text/html", Array(html.utf8)) == html)
    }

    @Test("text/x-moz-url is UTF-16")
    func mozURL() {
        let text = "https://example.org/\nExample"
        #expect(decode("text/x-moz-url", Array(TextDecoding.utf16LittleEndian(text))) == text)
    }

    @Test("trailing NULs are dropped from text, bytes are left alone")
    func nulTermination() {
        #expect(decode("UTF8_STRING", Array("hi".utf8) + [0]) == "hi")
        #expect(TargetMapping.codec(for: "image/png").decode(Data([1, 0]), propertyType: "image/png") == Data([1, 0]))
    }

    @Test("charset parameters pick the decoder")
    func charsets() {
        #expect(decode("text/plain;charset=ISO-8859-1", [0xE9]) == "é")
        #expect(decode("text/plain;charset=utf-8", Array("é".utf8)) == "é")
    }
}
