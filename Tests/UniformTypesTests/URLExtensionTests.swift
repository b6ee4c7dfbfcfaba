// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests

import Foundation
import Testing
import UniformTypes
import UniformTypesFoundation

@Suite("Foundation URL extensions")
struct URLExtensionTests {
    let base = URL(fileURLWithPath: "/tmp/clipbridge-tests", isDirectory: true)

    @Test(arguments: [
        ("puppy.jpg", UTType.image, "puppy.jpg"),
        ("puppy.jpg", UTType.plainText, "puppy.jpg.txt"),
        ("puppy.JPG", UTType.jpeg, "puppy.JPG"),
        ("notes", UTType.plainText, "notes.txt"),
        ("page", UTType.html, "page.html"),
        ("data", UTType.data, "data"),
        ("archive.tar", UTType.zip, "archive.tar.zip"),
        (".bashrc", UTType.shellScript, ".bashrc.sh"),
    ])
    func appendingPathComponent(_ name: String, _ type: UTType, _ expected: String) {
        let url = base.appendingPathComponent(name, conformingTo: type)
        #expect(url.lastPathComponent == expected)
        #expect(url.deletingLastPathComponent().path == base.path)
        #expect(!url.hasDirectoryPath)
    }

    @Test func directoryTypesGiveDirectoryURLs() {
        let folder = base.appendingPathComponent("Pictures", conformingTo: .folder)
        #expect(folder.hasDirectoryPath)
        #expect(folder.lastPathComponent == "Pictures")
        let app = base.appendingPathComponent("Viewer", conformingTo: .applicationBundle)
        #expect(app.hasDirectoryPath)
        #expect(app.lastPathComponent == "Viewer.app")
    }

    @Test func mutatingAppendPathComponent() {
        var url = base
        url.appendPathComponent("report", conformingTo: .pdf)
        #expect(url.lastPathComponent == "report.pdf")
    }

    @Test(arguments: [
        ("picture", UTType.png, "picture.png"),
        ("picture.png", UTType.png, "picture.png"),
        ("picture.PNG", UTType.image, "picture.PNG"),
        ("picture.png", UTType.pdf, "picture.png.pdf"),
        ("thing", UTType.data, "thing"),
    ])
    func appendingPathExtension(_ name: String, _ type: UTType, _ expected: String) {
        #expect(base.appendingPathComponent(name).appendingPathExtension(for: type).lastPathComponent == expected)
    }

    @Test func mutatingAppendPathExtension() {
        var url = base.appendingPathComponent("movie")
        url.appendPathExtension(for: .quickTimeMovie)
        #expect(url.lastPathComponent == "movie.mov")
    }

    @Test func resourceValuesContentType() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("clipbridge-uti-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("image.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: png)
        let plain = directory.appendingPathComponent("README")
        try Data("hi".utf8).write(to: plain)
        let keys: Set<URLResourceKey> = [.nameKey, .isDirectoryKey, .isRegularFileKey, .isSymbolicLinkKey]
        #expect(try png.resourceValues(forKeys: keys).contentType == .png)
        #expect(try plain.resourceValues(forKeys: keys).contentType == .data)
        #expect(try directory.resourceValues(forKeys: keys).contentType == .folder)
    }
}
