// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials

/// Reads freedesktop shared-mime-info source packages (`<prefix>/share/mime/packages/*.xml`).
///
/// The format is the "Shared MIME-info Database" specification
/// (https://specifications.freedesktop.org/shared-mime-info-spec/): a `<mime-info>` root holding
/// `<mime-type type="…">` elements with `<comment>`, `<alias type="…"/>`, `<sub-class-of type="…"/>` and
/// `<glob pattern="…"/>` children. Only those four matter for types; magic, icons and XML root rules are
/// skipped. We read the source packages rather than the compiled `mime.cache`, because they are the
/// stable, documented format and carry the comments. See `PackageXMLScanner` for why not XMLParser.
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
            var isDirectory = false
            guard seen.insert(path).inserted, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                isDirectory
            else { return nil }
            return URL(fileURLWithPath: path, isDirectory: true)
        }
    }

    /// The package files to read for `location`: the file itself, the `*.xml` files of a directory, or
    /// those of its `packages` subdirectory (so both `/usr/share/mime` and `/usr/share/mime/packages`
    /// work). Sorted by name, as update-mime-database reads them.
    static func packageFiles(at location: URL) throws -> [URL] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: location.path, isDirectory: &isDirectory) else {
            throw UTTypeDeclarationError(.unreadableFile, file: location, reason: "no such file or directory")
        }
        guard isDirectory else { return [location] }
        let packages = location.appendingPathComponent("packages", isDirectory: true)
        var packagesIsDirectory = false
        let directory =
            FileManager.default.fileExists(atPath: packages.path, isDirectory: &packagesIsDirectory)
                && packagesIsDirectory ? packages : location
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw UTTypeDeclarationError(.unreadableFile, file: directory, reason: "cannot list the directory", underlying: error)
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
            throw UTTypeDeclarationError(.unreadableFile, file: file, reason: "cannot read the file", underlying: error)
        }
        let scanner = PackageXMLScanner([UInt8](data))
        var collector = PackageCollector()
        do {
            try scanner.scan { event in try collector.handle(event, scanner: scanner) }
        } catch let failure as PackageXMLScanner.Failure {
            throw UTTypeDeclarationError(
                .malformedFile,
                file: file,
                key: collector.currentKey,
                reason: "not well-formed XML at line \(failure.line): \(failure.reason)"
            )
        } catch let error as UTTypeDeclarationError {
            var located = error
            located.file = file
            throw located
        }
        return collector.entries
    }

    /// The extension a glob pattern stands for, if it is a plain `*.ext` pattern.
    static func filenameExtension(ofGlob pattern: String) -> String? {
        guard pattern.hasPrefix("*."), pattern.count > 2 else { return nil }
        let tail = pattern.dropFirst(2)
        guard !tail.contains(where: { "*?[]/".contains($0) }) else { return nil }
        return String(tail)
    }
}

/// Collects `<mime-type>` elements from scanner events.
private struct PackageCollector {
    var entries: [SharedMIMEInfoDatabase.Entry] = []
    private var current: SharedMIMEInfoDatabase.Entry?
    private var commentText: String?
    private var collectingComment = false
    private var sawRoot = false

    /// Where the scanner is, as a key path for error messages.
    var currentKey: String? {
        current.map { "mime-type[\($0.mimeType)]" }
    }

    mutating func handle(_ event: PackageXMLScanner.Event, scanner: PackageXMLScanner) throws {
        switch event {
        case .start(let qualifiedName, let attributes):
            let name = Self.localName(qualifiedName)
            guard sawRoot || name == "mime-info" else {
                throw UTTypeDeclarationError(.malformedFile, key: name, reason: "the root element is not <mime-info>")
            }
            sawRoot = true
            switch name {
            case "mime-type":
                guard let type = attributes["type"], MIMEType(type) != nil else {
                    throw UTTypeDeclarationError(
                        .invalidValue,
                        key: "mime-type.type",
                        reason: "<mime-type> without a valid type attribute (\(attributes["type"] ?? "missing"))"
                    )
                }
                current = SharedMIMEInfoDatabase.Entry(mimeType: type)
            case "comment" where current != nil:
                // Only the first untranslated comment: translations carry xml:lang.
                collectingComment = !attributes.keys.contains { $0.hasSuffix("lang") } && current?.comment == nil
                commentText = ""
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
        case .text(let range):
            if collectingComment { commentText?.append(try scanner.text(range)) }
        case .end(let qualifiedName):
            switch Self.localName(qualifiedName) {
            case "comment":
                if collectingComment, let text = commentText { current?.comment = text.trimmingWhitespace() }
                collectingComment = false
                commentText = nil
            case "mime-type":
                if let entry = current { entries.append(entry) }
                current = nil
            default:
                break
            }
        }
    }

    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }
}
