// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests

import Foundation
import Testing
import UniformTypes

/// Runs against the copy under Fixtures/shared-mime-info, loaded explicitly, so results do not depend on
/// the machine. (If the machine also has the database, loading it too changes nothing: the first
/// declaration of a MIME type wins and both agree.)
@Suite("freedesktop shared-mime-info")
struct SharedMIMEInfoTests {
    @discardableResult
    static func load() throws -> [UTType] {
        try UTType.loadSharedMIMEInfo(from: Fixtures.sharedMIMEInfo)
    }

    @Test func openDocumentTextConformsToZipAndData() throws {
        try Self.load()
        let odt = try #require(UTType(mimeType: "application/vnd.oasis.opendocument.text"))
        #expect(!odt.isDynamic)
        #expect(odt.isDeclared)
        #expect(odt.conforms(to: .zip))
        #expect(odt.conforms(to: .archive))
        #expect(odt.conforms(to: .data))
        #expect(!odt.conforms(to: .text))
        #expect(odt.identifier == "org.freedesktop.mime.application.vnd.oasis.opendocument.text")
        #expect(odt.preferredMIMEType == "application/vnd.oasis.opendocument.text")
        #expect(odt.preferredFilenameExtension == "odt")
        #expect(odt.localizedDescription == "ODT document", "the untranslated comment, not a translation")
        #expect(UTType(filenameExtension: "odt") == odt)
        #expect(UTType(filenameExtension: "ODT", conformingTo: .zip) == odt)
        #expect(UTType(odt.identifier) == odt)
        #expect(UTType(mimeType: "application/vnd.oasis.opendocument.spreadsheet")?.conforms(to: .zip) == true)
    }

    @Test func aliasesAndGlobsResolve() throws {
        try Self.load()
        let excel = try #require(UTType(mimeType: "application/vnd.ms-excel"))
        #expect(!excel.isDynamic)
        #expect(UTType(mimeType: "application/msexcel") == excel)
        #expect(UTType(mimeType: "application/x-msexcel") == excel)
        #expect(excel.preferredMIMEType == "application/vnd.ms-excel")
        #expect(excel.tags[.mimeType]?.contains("application/x-msexcel") == true)
        #expect(UTType(filenameExtension: "xls") == excel)
        #expect(UTType(filenameExtension: "xlt") == excel)
        #expect(excel.conforms(to: .data))
        let sqlite = try #require(UTType(mimeType: "application/x-sqlite3"))
        #expect(sqlite.preferredMIMEType == "application/vnd.sqlite3")
        #expect(UTType(mimeType: "text/x-diff") == UTType(filenameExtension: "patch"))
        #expect(UTType(filenameExtension: "7z")?.preferredMIMEType == "application/x-7z-compressed")
    }

    @Test func subclassChainsAndImplicitParents() throws {
        try Self.load()
        let matroska = try #require(UTType(mimeType: "application/x-matroska"))
        let mkv = try #require(UTType(filenameExtension: "mkv"))
        #expect(mkv.preferredMIMEType == "video/x-matroska")
        #expect(mkv.conforms(to: matroska))
        #expect(mkv.conforms(to: .movie), "video/* conforms to public.movie")
        #expect(mkv.conforms(to: .data))
        let go = try #require(UTType(filenameExtension: "go"))
        #expect(go.conforms(to: .plainText))
        #expect(go.localizedDescription == "Go source code")
        #expect(UTType(mimeType: "text/x-rst")?.conforms(to: .text) == true)
        #expect(UTType(mimeType: "image/x-xcf")?.conforms(to: .image) == true)
        #expect(UTType(mimeType: "image/x-xcf", conformingTo: .image)?.isDynamic == false)
    }

    @Test func builtInTypesAreNotReplaced() throws {
        try Self.load()
        #expect(UTType(mimeType: "image/png") == .png)
        #expect(UTType(mimeType: "application/zip") == .zip)
        #expect(UTType(mimeType: "application/rtf") == .rtf)
        #expect(UTType(mimeType: "inode/directory", conformingTo: .item) == .folder)
        #expect(UTType(filenameExtension: "rtf") == .rtf)
        #expect(UTType.png.localizedDescription == "PNG image")
    }

    @Test func vendorPackageResolvesAcrossPackages() throws {
        let loaded = try Self.load()
        let notebook = try #require(UTType(mimeType: "application/x-clipbridge-notebook"))
        #expect(loaded.contains(notebook))
        #expect(notebook.conforms(to: try #require(UTType(mimeType: "application/vnd.oasis.opendocument.text"))))
        #expect(notebook.conforms(to: .zip))
        #expect(UTType(mimeType: "application/x-cb-notebook") == notebook)
        #expect(UTType(filenameExtension: "cbnote") == notebook)
        #expect(UTType(filenameExtension: "cbnotebook") == notebook, "glob *.CBNOTEBOOK, case-insensitive")
        #expect(notebook.tags[.filenameExtension] == ["cbnote", "CBNOTEBOOK"], "notebook-*.dat is no extension")
        #expect(notebook.localizedDescription == "ClipBridge notebook")
        let palette = try #require(UTType(filenameExtension: "cbpalette"))
        #expect(palette.identifier == "org.freedesktop.mime.application.x-clipbridge-palette-json")
        #expect(palette.conforms(to: .json))
    }

    @Test func loadingReturnsOneTypePerEntryAndIsIdempotent() throws {
        let first = try Self.load()
        let second = try Self.load()
        #expect(first == second)
        #expect(first.count == 19)
        #expect(first.contains(.png))
        #expect(first.contains(.zip))
    }

    @Test func loadsASinglePackageFile() throws {
        let file = Fixtures.sharedMIMEInfo.appendingPathComponent("packages/freedesktop.org.xml")
        let types = try UTType.loadSharedMIMEInfo(from: file)
        #expect(types.count == 17)
        #expect(types.contains(.rtf))
    }

    @Test func brokenPackageThrowsNamingTheFile() throws {
        let broken = Fixtures.sharedMIMEInfo.appendingPathComponent("broken", isDirectory: true)
        let error = try #require(throws: UTTypeDeclarationError.self) {
            try UTType.loadSharedMIMEInfo(from: broken)
        }
        #expect(error.code == .malformedFile)
        #expect(error.file?.lastPathComponent == "unclosed.xml")
        #expect(UTType(mimeType: "application/x-clipbridge-broken")?.isDynamic == true)
    }

    @Test func missingDirectoryThrows() throws {
        let error = try #require(throws: UTTypeDeclarationError.self) {
            try UTType.loadSharedMIMEInfo(from: Fixtures.sharedMIMEInfo.appendingPathComponent("nope"))
        }
        #expect(error.code == .unreadableFile)
    }

    @Test func systemDirectoriesExist() {
        for directory in UTType.systemSharedMIMEInfoDirectories {
            #expect(FileManager.default.fileExists(atPath: directory.path))
            #expect(directory.lastPathComponent == "packages")
        }
    }
}

@Suite("shared-mime-info XML edge cases")
struct SharedMIMEInfoXMLTests {
    @Test func scannerHandlesEntitiesCDATAPrefixesAndDTD() throws {
        let file = Fixtures.sharedMIMEInfo.appendingPathComponent("edge-cases/edge-cases.xml")
        let types = try UTType.loadSharedMIMEInfo(from: file)
        #expect(types.count == 2)
        let edge = try #require(UTType(mimeType: "application/x-clipbridge-edge"))
        #expect(types.first == edge)
        #expect(edge.localizedDescription == "Tom & Jerry <edge> ☺ A <raw> & case")
        #expect(edge.tags[.filenameExtension] == ["cbedge"], "*.[ch] is not a plain extension glob")
        #expect(edge.conforms(to: .plainText))
        #expect(UTType(filenameExtension: "cbedge") == edge)
    }

    @Test func programDeclarationsBeatTheDesktopDatabase() throws {
        let file = Fixtures.sharedMIMEInfo.appendingPathComponent("edge-cases/edge-cases.xml")
        try UTType.loadSharedMIMEInfo(from: file)
        let generic = try #require(UTType(mimeType: "application/x-clipbridge-overridden"))
        #expect(generic.identifier.hasPrefix("org.freedesktop.mime."))
        let own = try UTType.register(
            UTTypeDeclaration(
                identifier: "com.example.tests.overridden",
                conformsTo: [.json],
                tags: [.mimeType: ["application/x-clipbridge-overridden"], .filenameExtension: ["cbover"]]
            )
        )
        #expect(UTType(mimeType: "application/x-clipbridge-overridden") == own)
        #expect(UTType(filenameExtension: "cbover") == own)
        #expect(UTType.types(tag: "application/x-clipbridge-overridden", tagClass: .mimeType, conformingTo: nil)
            == [own, generic])
        #expect(UTType(generic.identifier) == generic, "the desktop type still exists")
    }
}
