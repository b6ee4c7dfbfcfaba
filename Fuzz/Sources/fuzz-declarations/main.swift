// fuzz-declarations: the reader of UTType declaration files (Info.plist-style: XML or binary property lists,
// or JSON): DeclarationFileReader (Sources/UniformTypes/Declarations/DeclarationFileReader.swift) and the
// PropertyListValue tree it decodes through FoundationEssentials' PropertyListDecoder / JSONDecoder
// (PropertyListValue.swift).
//
// Input: the file's bytes. An in-memory JSON decode of the tree and the reader proper (which takes a file:
// the bytes are written to a scratch file first) run on every input.
// Checked: no trap; the reader fails only with UTTypeDeclarationError; every declaration it returns has a
// valid identifier outside the dyn. domain, valid MIME types and filename extensions, and a key path naming
// where it came from.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
@testable import UniformTypes

private let scratch = ScratchFile(name: "declarations")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let data = Data(bytes)
    // The tree as JSONDecoder sees it, whatever the file's first byte says, with the reader's bounds (the
    // reader below decodes the rest as a property list).
    let json = JSONDecoder()
    json.userInfo[PropertyListValue.Budget.key] = PropertyListValue.Budget()
    if let tree = try? json.decode(PropertyListValue.self, from: data) { walk(tree.tree, depth: 0) }

    scratch.write(bytes)
    let located: [DeclarationFileReader.Located]
    do {
        located = try DeclarationFileReader(file: scratch.url).read()
    } catch let error as UTTypeDeclarationError {
        _ = error.description
        return 0
    } catch {
        fuzzCheck(false, "DeclarationFileReader threw \(error), not a UTTypeDeclarationError")
        return 0
    }
    for entry in located {
        let declaration = entry.declaration
        fuzzCheck(UTType.isValidIdentifier(declaration.identifier), "invalid identifier \(declaration.identifier)")
        fuzzCheck(!declaration.identifier.lowercased().hasPrefix("dyn."), "a dyn. identifier \(declaration.identifier)")
        fuzzCheck(
            entry.keyPath.hasPrefix(declaration.kind.propertyListKey + "["), "key path \(entry.keyPath) for \(declaration.kind)")
        for tag in declaration.tags[.mimeType] ?? [] {
            fuzzCheck(MIMEType(tag) != nil, "an invalid MIME type tag \(tag)")
        }
        for tag in declaration.tags[.filenameExtension] ?? [] {
            fuzzCheck(!tag.isEmpty && !tag.hasPrefix(".") && !tag.contains("/"), "an invalid extension tag \(tag)")
        }
    }
    return 0
}

/// Visits the whole decoded tree (the reader's `Any` tree), as the reader's type checks do.
private func walk(_ value: Any, depth: Int) {
    fuzzCheck(depth <= PropertyListValue.maximumDepth, "a tree \(depth) deep")
    switch value {
    case let dictionary as [String: Any]:
        for (key, element) in dictionary {
            _ = key.count
            walk(element, depth: depth + 1)
        }
    case let array as [Any]:
        for element in array { walk(element, depth: depth + 1) }
    default:
        _ = "\(value)"
    }
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_declarations_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
