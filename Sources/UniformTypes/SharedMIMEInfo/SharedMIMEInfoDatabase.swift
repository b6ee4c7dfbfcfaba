// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads freedesktop shared-mime-info source packages (`<prefix>/share/mime/packages/*.xml`).
///
/// The format is the "Shared MIME-info Database" specification
/// (https://specifications.freedesktop.org/shared-mime-info-spec/): a `<mime-info>` root holding
/// `<mime-type type="…">` elements with `<comment>`, `<alias type="…"/>`, `<sub-class-of type="…"/>` and
/// `<glob pattern="…"/>` children. Only those four matter for types; magic, icons and XML root rules are
/// skipped. We read the source packages rather than the compiled `mime.cache`, because they are the
/// stable, documented format and carry the comments.
enum SharedMIMEInfoDatabase {
    /// One `<mime-type>` element.
    struct Entry: Sendable, Equatable {
        /// The `type` attribute, e.g. `application/vnd.oasis.opendocument.text`.
        var mimeType: String
        /// `<alias type>` values.
        var aliases: [String] = []
        /// `<sub-class-of type>` values, in document order.
        var parents: [String] = []
        /// Extensions from simple `*.ext` glob patterns, in document order.
        var filenameExtensions: [String] = []
        /// The untranslated `<comment>`.
        var comment: String?
    }

    /// The package directories of the XDG base directories, most important first
    /// (`$XDG_DATA_HOME`, then each of `$XDG_DATA_DIRS`), that exist on this machine.
    static func systemPackageDirectories() -> [URL] {
        let environment = ProcessInfo.processInfo.environment
        var bases: [String] = []
        if let home = environment["XDG_DATA_HOME"], !home.isEmpty {
            bases.append(home)
        } else if let home = environment["HOME"], !home.isEmpty {
            bases.append(home + "/.local/share")
        }
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        bases += dataDirs.split(separator: ":").map(String.init)
        var seen: Set<String> = []
        return bases.compactMap { base in
            let path = base + "/mime/packages"
            var isDirectory: ObjCBool = false
            guard seen.insert(path).inserted, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { return nil }
            return URL(fileURLWithPath: path, isDirectory: true)
        }
    }

    /// The package files to read for `location`: the file itself, the `*.xml` files of a directory, or
    /// those of its `packages` subdirectory (so both `/usr/share/mime` and `/usr/share/mime/packages`
    /// work). Sorted by name, as update-mime-database reads them.
    static func packageFiles(at location: URL) throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location.path, isDirectory: &isDirectory) else {
            throw UTTypeDeclarationError(.unreadableFile, file: location, reason: "no such file or directory")
        }
        guard isDirectory.boolValue else { return [location] }
        let packages = location.appendingPathComponent("packages", isDirectory: true)
        var packagesIsDirectory: ObjCBool = false
        let directory =
            FileManager.default.fileExists(atPath: packages.path, isDirectory: &packagesIsDirectory)
                && packagesIsDirectory.boolValue ? packages : location
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw UTTypeDeclarationError(.unreadableFile, file: directory, reason: "\(error)")
        }
        return names.filter { $0.hasSuffix(".xml") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Parses every package at `location` (see ``packageFiles(at:)``).
    static func parsePackages(in location: URL) throws -> [Entry] {
        try packageFiles(at: location).flatMap(parsePackage(at:))
    }

    /// Parses one package file.
    static func parsePackage(at file: URL) throws -> [Entry] {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw UTTypeDeclarationError(.unreadableFile, file: file, reason: "\(error)")
        }
        let delegate = PackageParserDelegate()
        let parser = XMLParser(data: blankingDocumentTypeDeclaration(in: data))
        parser.delegate = delegate
        // The packages carry an internal DTD subset only; never fetch anything.
        parser.shouldResolveExternalEntities = false
        // swift-corelibs-foundation's parse() can return true for a document that is not well-formed
        // (an unclosed element) while setting parserError, so both are checked.
        guard parser.parse(), parser.parserError == nil, delegate.failure == nil else {
            let reason =
                delegate.failure
                ?? "XML error at line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "unknown")"
            throw UTTypeDeclarationError(.malformedFile, file: file, key: delegate.currentKey, reason: reason)
        }
        return delegate.entries
    }

    /// The document with its `<!DOCTYPE …>` declaration (and internal subset) replaced by spaces.
    ///
    /// freedesktop.org.xml carries an internal DTD whose attribute defaults (`#FIXED xmlns`,
    /// `glob weight "50"`) crash swift-corelibs-foundation's XMLParser (a NULL attribute value reaches
    /// `strlen` in its libxml2 SAX glue; reproduced with Swift 6.3.1 on Debian 12). The DTD only serves
    /// validation, so we blank it out, keeping newlines so parser line numbers stay right.
    static func blankingDocumentTypeDeclaration(in data: Data) -> Data {
        var bytes = [UInt8](data)
        let marker = Array("<!DOCTYPE".utf8)
        guard let start = bytes.firstRange(of: marker)?.lowerBound else { return data }
        var index = start + marker.count
        var inSubset = false
        var end: Int?
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "["): inSubset = true
            case UInt8(ascii: "]") where inSubset: inSubset = false
            case UInt8(ascii: ">") where !inSubset: end = index
            default: break
            }
            if end != nil { break }
            index += 1
        }
        guard let end else { return data }
        for position in start...end where bytes[position] != UInt8(ascii: "\n") {
            bytes[position] = UInt8(ascii: " ")
        }
        return Data(bytes)
    }

    /// The extension a glob pattern stands for, if it is a plain `*.ext` pattern.
    static func filenameExtension(ofGlob pattern: String) -> String? {
        guard pattern.hasPrefix("*."), pattern.count > 2 else { return nil }
        let tail = pattern.dropFirst(2)
        guard !tail.contains(where: { "*?[]/".contains($0) }) else { return nil }
        return String(tail)
    }
}

/// SAX delegate collecting `<mime-type>` elements. XMLParser calls it synchronously on the parsing
/// thread, and each delegate serves one parse, so it needs no locking.
private final class PackageParserDelegate: NSObject, XMLParserDelegate {
    var entries: [SharedMIMEInfoDatabase.Entry] = []
    var failure: String?
    private var current: SharedMIMEInfoDatabase.Entry?
    private var commentText: String?
    private var sawRoot = false

    /// Where the parser is, as a key path for error messages.
    var currentKey: String? {
        current.map { "mime-type[\($0.mimeType)]" }
    }

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let name = elementName.split(separator: ":").last.map(String.init) ?? elementName
        switch name {
        case "mime-info":
            sawRoot = true
        case "mime-type":
            guard let type = attributes["type"], MIMEType(type) != nil else {
                fail(parser, "<mime-type> without a valid type attribute (\(attributes["type"] ?? "missing"))")
                return
            }
            current = SharedMIMEInfoDatabase.Entry(mimeType: type)
        case "comment" where current != nil:
            // Only the untranslated comment: translations carry xml:lang.
            commentText = attributes.keys.contains(where: { $0.hasSuffix("lang") }) ? nil : ""
        case "alias":
            if let type = attributes["type"] { current?.aliases.append(type) }
        case "sub-class-of":
            if let type = attributes["type"] { current?.parents.append(type) }
        case "glob":
            if let pattern = attributes["pattern"],
                let ext = SharedMIMEInfoDatabase.filenameExtension(ofGlob: pattern)
            {
                current?.filenameExtensions.append(ext)
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        commentText?.append(string)
    }

    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName: String?
    ) {
        let name = elementName.split(separator: ":").last.map(String.init) ?? elementName
        switch name {
        case "comment":
            if let text = commentText, current?.comment == nil { current?.comment = text.trimmingWhitespace() }
            commentText = nil
        case "mime-type":
            if let entry = current { entries.append(entry) }
            current = nil
        case "mime-info":
            if !sawRoot { fail(parser, "the root element is not <mime-info>") }
        default:
            break
        }
    }

    func parserDidEndDocument(_ parser: XMLParser) {
        if !sawRoot && failure == nil { failure = "the root element is not <mime-info>" }
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        failure = reason
        parser.abortParsing()
    }
}
