// fuzz-dropped-content: what a paste or a drop decodes from a peer's bytes in Sources/ClipBridge:
// - DroppedContent.decode (Formats/DroppedContent.swift): text/uri-list (RFC 2483), text/x-moz-url (UTF-16, URL
//   and title lines), _NETSCAPE_URL, and text, as `clipbridge drop` prints them; preferredTarget over an
//   offered target list; fileName for a dropped type;
// - URIList (Formats/URIList.swift): parse, path(ofFileURI:), uris(fromPathsOrURIs:), hasScheme, and
//   GnomeCopiedFiles (x-special/gnome-copied-files);
// - TextDecoding (Formats/TextDecoding.swift): UTF-16 with or without a byte-order mark, autodetection,
//   Latin-1, strict UTF-8; CharsetDecoding (iconv) for a few charsets;
// - the wire codecs (Mapping/WireCodec.swift, TargetMapping.codec(for:)) that turn a target's bytes into
//   canonical text, for the target names a peer may offer, `text/plain;charset=…` parsed from the name;
// - the converters of Conversion/StandardConverters.swift between text, UTF-16, URL lists, x-moz-url and
//   gnome-copied-files.
//
// Input: byte 0 picks the target the data was read as (one of `targets`, or past them: a name given by the
// input up to its first NUL byte), byte 1 the property type the owner wrote and a charset; the rest is data.
// Checked: no trap; local paths are absolute; URIs parsed from a list are non-empty, trimmed and survive a
// format/parse round trip; gnome-copied-files round-trips; every text codec produces valid UTF-8; converters
// fail only with ClipboardError, write UTF-8, and gnome-copied-files that parses.

import CFuzzerDriver
import ClipBridge
import FoundationEssentials
import FuzzSupport
@testable import ClipBridge
import UniformTypes
import X11Selection

private let targets: [SelectionTarget] = [
    "text/uri-list", "text/x-moz-url", "_NETSCAPE_URL", "UTF8_STRING", "text/plain;charset=utf-8", "STRING", "TEXT",
    "COMPOUND_TEXT", "text/plain", "text/html", "x-special/gnome-copied-files", "application/x-color",
    "text/plain;charset=iso-8859-15", "text/plain;charset=utf-16", "text/plain;charset=windows-1252",
    "text/plain;charset=\"Shift_JIS\"", "image/png", "TEXT/URI-LIST",
]
private let propertyTypes: [SelectionTarget] = ["UTF8_STRING", "STRING", "COMPOUND_TEXT", "TEXT", "ATOM", "INCR"]
private let charsets = ["UTF-8", "ISO-8859-1", "WINDOWS-1252", "UTF-16", "UTF-16BE", "SHIFT_JIS", "EUC-JP", "GB18030", "ISO-2022-JP", "UTF-7"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzReader(fuzzBytes(start, count))
    let targetChoice = Int(input.byte())
    let typeChoice = Int(input.byte())
    var rest = input.rest()
    let target: SelectionTarget
    if targetChoice < targets.count {
        target = targets[targetChoice]
    } else {
        let (name, data) = splitOnce(rest, at: 0)
        target = SelectionTarget(rawValue: String(decoding: name.prefix(200), as: UTF8.self))
        rest = data ?? []
    }
    let data = Data(rest)
    let propertyType = propertyTypes[typeChoice % propertyTypes.count]

    checkDropped(DroppedContent.decode(data, as: target, propertyType: propertyType), target: target)
    checkTextDecoding(data)
    checkWireCodec(data, target: target, propertyType: propertyType)
    if typeChoice & 0x80 != 0 { _ = CharsetDecoding.decode(data, charset: charsets[typeChoice % charsets.count]) }
    checkURIs(TextDecoding.autodetected(data))
    checkConverters(data)

    // A drag's offer: the data as a NUL-separated target list.
    let offered = rest.split(separator: 0, maxSplits: 64).prefix(64).map {
        SelectionTarget(rawValue: String(decoding: $0.prefix(200), as: UTF8.self))
    }
    for takesData in [false, true] {
        if let chosen = DroppedContent.preferredTarget(offered: offered, takesData: takesData) {
            fuzzCheck(offered.contains(chosen), "chose \(chosen), not offered")
        }
    }
    _ = DroppedContent.preferredTarget(offered: offered, accepting: [target], takesData: true)
    let name = DroppedContent.fileName(index: targetChoice, type: target)
    fuzzCheck(name.hasPrefix("drop-\(targetChoice).") && !name.contains("/") && !name.hasSuffix("."), "file name \(name)")
    return 0
}

private func checkDropped(_ content: DroppedContent, target: SelectionTarget) {
    switch content {
    case .paths(let paths):
        fuzzCheck(!paths.isEmpty, "an empty path list")
        for path in paths { fuzzCheck(path.hasPrefix("/"), "a relative path \(path.debugDescription) from \(target)") }
    case .urls(let urls):
        for url in urls { fuzzCheck(!url.isEmpty, "an empty URL from \(target)") }
    case .text(let text):
        _ = text.utf8.count
    case .data(let bytes, let type):
        fuzzCheck(type == target, "data typed \(type), read as \(target)")
        _ = bytes.count
    }
}

private func checkTextDecoding(_ data: Data) {
    let latin1 = TextDecoding.latin1(data)
    fuzzCheck(latin1.unicodeScalars.count == data.count, "Latin-1 decoded \(data.count) bytes to \(latin1.unicodeScalars.count) scalars")
    if let utf16 = TextDecoding.utf16(data) {
        // Re-encoded without a BOM: as many code units as were decoded (a BOM or the odd byte aside).
        fuzzCheck(TextDecoding.utf16LittleEndian(utf16).count <= data.count, "UTF-16 grew")
    }
    let text = TextDecoding.autodetected(data)
    // NUL terminators are dropped (all of them from UTF-8, one from UTF-16).
    if !TextDecoding.looksLikeUTF16(data) { fuzzCheck(!text.hasSuffix("\0"), "autodetected text keeps a trailing NUL") }
    if let utf8 = TextDecoding.utf8(data) { fuzzCheck(Data(utf8.utf8) == data, "strict UTF-8 changed the bytes") }
}

private func checkWireCodec(_ data: Data, target: SelectionTarget, propertyType: SelectionTarget) {
    let codec = TargetMapping.codec(for: target)
    guard let canonical = codec.decode(data, propertyType: propertyType) else { return }
    if codec == .bytes {
        fuzzCheck(canonical == data, "the bytes codec changed the bytes")
    } else {
        fuzzCheck(String(validating: canonical, as: UTF8.self) != nil, "\(codec) produced invalid UTF-8")
    }
    fuzzCheck(TargetMapping.canonicalText(data, target: target, propertyType: propertyType) == canonical, "canonicalText differs")
}

private func checkURIs(_ text: String) {
    let uris = URIList.parse(text)
    for uri in uris {
        fuzzCheck(!uri.isEmpty && !uri.hasPrefix("#"), "parsed URI \(uri.debugDescription)")
        fuzzCheck(
            !uri.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) && uri.first != " " && uri.last != " ",
            "parsed URI \(uri.debugDescription) keeps a line break or a space")
        if let path = URIList.path(ofFileURI: uri) { fuzzCheck(path.hasPrefix("/"), "file URI \(uri) gave path \(path)") }
    }
    fuzzCheck(URIList.parse(URIList.format(uris)) == uris, "uri-list round trip of \(uris)")
    _ = URIList.pathsText(uris)
    if let converted = URIList.uris(fromPathsOrURIs: text) {
        fuzzCheck(!converted.isEmpty, "no URIs from a text that lists some")
        for uri in converted { fuzzCheck(URIList.hasScheme(uri), "a URI without a scheme: \(uri.debugDescription)") }
    }
    if let files = GnomeCopiedFiles(text) {
        fuzzCheck(GnomeCopiedFiles(files.text) == files, "gnome-copied-files round trip of \(files)")
    }
}

private let converters: [ContentConverter] = [
    StandardConverters.utf16ToUTF8, StandardConverters.plainToUTF8, StandardConverters.textToUTF8,
    StandardConverters.urlsToText, StandardConverters.urlsToGnome, StandardConverters.gnomeToURLs,
    StandardConverters.mozURLToURLs, StandardConverters.textToURLs,
]

private func checkConverters(_ data: Data) {
    for converter in converters {
        let output: Data
        do {
            output = try converter.convert(data)
        } catch is ClipboardError {
            continue
        } catch {
            fuzzCheck(false, "\(converter.name) threw \(error), not a ClipboardError")
            continue
        }
        let text = String(validating: output, as: UTF8.self)
        fuzzCheck(text != nil || converter.destination == TargetMapping.gnomeCopiedFilesType, "\(converter.name) wrote invalid UTF-8")
        if converter.destination == TargetMapping.gnomeCopiedFilesType {
            fuzzCheck(GnomeCopiedFiles(TextDecoding.autodetected(output)) != nil, "\(converter.name) wrote unparsable gnome-copied-files")
        }
    }
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_dropped_content_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
