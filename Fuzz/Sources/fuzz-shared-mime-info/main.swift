// fuzz-shared-mime-info: PackageXMLScanner (Sources/UniformTypes/SharedMIMEInfo/PackageXMLScanner.swift), the
// XML scanner of shared-mime-info packages (/usr/share/mime/packages/*.xml, ~/.local/share/mime/packages), and
// SharedMIMEInfoDatabase.parsePackage, which collects <mime-type> entries from its events.
//
// Input: the package's bytes. The scanner runs on them in memory, decoding every text event; parsePackage (it
// takes a file) reads them from a scratch file.
// Checked: no trap; the scanner fails only with PackageXMLScanner.Failure, on a line of the document; start
// and end events nest (every end names the innermost open element, none is left open after a successful
// scan); text ranges lie inside the document; parsePackage fails only with UTTypeDeclarationError and returns
// entries whose MIME types parse.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
@testable import UniformTypes

private let scratch = ScratchFile(name: "package.xml")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let lines = bytes.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    let scanner = PackageXMLScanner(bytes)
    var open: [String] = []
    var sawRoot = false
    do {
        try scanner.scan { event in
            switch event {
            case .start(let name, let attributes):
                fuzzCheck(!name.isEmpty, "a start tag without a name")
                fuzzCheck(!open.isEmpty || !sawRoot, "a second root element <\(name)>")
                sawRoot = true
                open.append(name)
                _ = attributes.count
            case .end(let name):
                fuzzCheck(open.last == name, "</\(name)> closes <\(open.last ?? "nothing")>")
                open.removeLast()
            case .text(let range):
                fuzzCheck(range.lowerBound >= 0 && range.upperBound <= bytes.count, "text range \(range) of \(bytes.count)")
                fuzzCheck(!open.isEmpty, "text outside the root element")
                _ = try scanner.text(range)
            }
        }
        fuzzCheck(open.isEmpty && sawRoot, "a successful scan left \(open) open (root seen: \(sawRoot))")
    } catch let failure as PackageXMLScanner.Failure {
        fuzzCheck(failure.line >= 1 && failure.line <= lines, "failure line \(failure.line) of \(lines)")
    } catch {
        fuzzCheck(false, "the scanner threw \(error), not a PackageXMLScanner.Failure")
    }

    scratch.write(bytes)
    do {
        for entry in try SharedMIMEInfoDatabase.parsePackage(at: scratch.url) {
            fuzzCheck(MIMEType(entry.mimeType) != nil, "an entry for the invalid MIME type \(entry.mimeType)")
        }
    } catch is UTTypeDeclarationError {
    } catch {
        fuzzCheck(false, "parsePackage threw \(error), not a UTTypeDeclarationError")
    }
    return 0
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_shared_mime_info_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
