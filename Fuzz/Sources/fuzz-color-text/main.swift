// fuzz-color-text: colour text ↔ application/x-color (Sources/ClipBridge/Formats/ColorText.swift, X11Color):
// `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` text to the 8-byte wire form (four little-endian 16-bit values) and
// back, and the two converters built on them (StandardConverters.colorToText and textToColor).
//
// Input: text to parse as a colour; when it is 8 bytes long it is also read as the wire form.
// Checked: no trap; a parsed colour's wire form is 8 bytes that read back to the same colour; its hex text
// is `#` and 6 or 8 lower-case hex digits, reads back, and is stable after one round (text → colour → text
// → colour → text gives the same text twice); the converters fail only with ClipboardError and agree with X11Color.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
@testable import ClipBridge

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(fuzzBytes(start, count))
    let text = TextDecoding.autodetected(data)
    if let color = X11Color(hex: text) {
        check(color)
        fuzzCheck((try? StandardConverters.textToColor.convert(data)) == color.wire, "textToColor disagrees for \(text.debugDescription)")
    } else {
        expectFailure(StandardConverters.textToColor, data)
    }
    if let color = X11Color(wire: data) {
        check(color)
        fuzzCheck(color.wire == data, "wire round trip")
        fuzzCheck((try? StandardConverters.colorToText.convert(data)) == Data(color.hex.utf8), "colorToText disagrees")
    } else {
        fuzzCheck(data.count != 8, "8 bytes that are not a colour")
        expectFailure(StandardConverters.colorToText, data)
    }
    return 0
}

private func check(_ color: X11Color) {
    let wire = color.wire
    fuzzCheck(wire.count == 8, "a wire form of \(wire.count) bytes")
    fuzzCheck(X11Color(wire: wire) == color, "wire round trip of \(color)")
    let hex = color.hex
    fuzzCheck(hex.count == 7 || hex.count == 9, "hex text \(hex)")
    fuzzCheck(hex.first == "#" && hex.dropFirst().allSatisfy { "0123456789abcdef".contains($0) }, "hex text \(hex)")
    fuzzCheck((hex.count == 7) == (color.alpha == .max), "hex text \(hex) for alpha \(color.alpha)")
    guard let reread = X11Color(hex: hex) else {
        fuzzCheck(false, "\(hex) does not parse")
        return
    }
    // Stable after one round: #rrggbbff (alpha just under the maximum, rounded up) reads back as opaque and
    // is written #rrggbb from then on.
    let stable = reread.hex
    fuzzCheck(X11Color(hex: stable)?.hex == stable, "\(hex) → \(stable) → \(String(describing: X11Color(hex: stable)?.hex))")
    fuzzCheck(stable == hex || (hex.hasSuffix("ff") && stable == String(hex.dropLast(2))), "\(hex) became \(stable)")
}

private func expectFailure(_ converter: ContentConverter, _ data: Data) {
    do {
        _ = try converter.convert(data)
        fuzzCheck(false, "\(converter.name) converted what X11Color refuses")
    } catch is ClipboardError {
    } catch {
        fuzzCheck(false, "\(converter.name) threw \(error), not a ClipboardError")
    }
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_color_text_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
