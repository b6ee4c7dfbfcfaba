// fuzz-html-text: HTMLText.plainText(fromHTML:) (Sources/ClipBridge/Formats/HTMLText.swift), the HTML → plain
// text renderer behind pasting text/html as text, and the HTML → text converter (StandardConverters.htmlToText,
// which first autodetects UTF-8 or UTF-16 as Firefox writes it).
//
// Input: the HTML's bytes, as a peer offers them.
// Checked: no trap; the text has no white space at either end (the renderer trims it), and the converter
// produces the same text from the same bytes.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
@testable import ClipBridge

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(fuzzBytes(start, count))
    let html = TextDecoding.autodetected(data)
    let text = HTMLText.plainText(fromHTML: html)
    fuzzCheck(text.first?.isWhitespace != true && text.last?.isWhitespace != true, "untrimmed text \(text.debugDescription)")
    do {
        let converted = try StandardConverters.htmlToText.convert(data)
        fuzzCheck(converted == Data(text.utf8), "the converter and the renderer disagree")
    } catch {
        fuzzCheck(false, "the HTML converter threw \(error)")
    }
    return 0
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_html_text_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
