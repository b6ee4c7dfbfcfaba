// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — every seed model through a real X selection: pasted back as itself by another client,
// and read by xclip as each advertised target.

import ClipBridge
import ClipBridgeTestSupport
import Foundation
import Testing
import TransferKit
import X11Selection

@Suite(.xvfb, .serialized, .timeLimit(.minutes(2)))
struct SeedRoundTripTests {
    @Test("Todo: its custom type travels by identifier and comes back as a Todo")
    func todo() async throws {
        try await withTwoApps { apps in
            let todo = Todo(text: "buy milk", isDone: false)
            try await apps.owner.copy(todo)
            #expect(try await apps.reader.paste(Todo.self) == [todo])
            let targets = contentTargets(try await apps.xclipTargets())
            #expect(targets.first == "com.example.todo")
            let json = try await apps.xclip("com.example.todo").stdout
            #expect(try JSONDecoder().decode(Todo.self, from: json) == todo)
        }
    }

    @Test("Profile: Codable first, its name as the text family after; xclip pastes the name")
    func profile() async throws {
        try await withTwoApps { apps in
            let profile = Profile(name: "Ada Lovelace", phoneNumber: "+44 1815")
            try await apps.owner.copy(profile)
            #expect(try await apps.reader.paste(Profile.self) == [profile])
            #expect(try await apps.reader.paste(String.self) == ["Ada Lovelace"])
            let targets = contentTargets(try await apps.xclipTargets())
            #expect(
                Array(targets.prefix(7)) == [
                    "com.example.profile", "text/plain;charset=utf-8", "UTF8_STRING", "COMPOUND_TEXT", "TEXT", "STRING",
                    "text/plain",
                ])
            for target in ["UTF8_STRING", "text/plain;charset=utf-8", "STRING", "TEXT", "text/plain"] {
                #expect(try await apps.xclip(target).stdoutText == "Ada Lovelace", "\(target)")
            }
        }
    }

    @Test("ProfilesArchive: CSV under text/csv, widened to the text family, pasted back exactly")
    func profilesArchive() async throws {
        try await withTwoApps { apps in
            let archive = ProfilesArchive(profiles: [
                Profile(name: "Ada", phoneNumber: "1"), Profile(name: "Grace", phoneNumber: "2"),
            ])
            try await apps.owner.copy(archive)
            #expect(try await apps.reader.paste(ProfilesArchive.self) == [archive])
            let targets = contentTargets(try await apps.xclipTargets())
            #expect(targets.first == "text/csv")
            #expect(targets.contains("UTF8_STRING"))
            let csv = try archive.toCSV()
            #expect(try await apps.xclip("text/csv").stdout == csv)
            #expect(try await apps.xclip("UTF8_STRING").stdout == csv)
        }
    }

    @Test("RichNote: JSON, HTML, then text — in that order — each readable by xclip")
    func richNote() async throws {
        try await withTwoApps { apps in
            let note = RichNote(
                title: "Plan", htmlContent: "<p>Buy <b>milk</b></p>", plainText: "Buy milk",
                attachmentURL: URL(string: "https://example.org/a"))
            try await apps.owner.copy(note)
            #expect(try await apps.reader.paste(RichNote.self) == [note])
            #expect(try await apps.reader.paste(String.self) == ["Buy milk"])
            let targets = contentTargets(try await apps.xclipTargets())
            #expect(Array(targets.prefix(3)) == ["application/json", "text/html", "text/plain;charset=utf-8"])
            #expect(
                try JSONDecoder().decode(RichNote.self, from: try await apps.xclip("application/json").stdout) == note)
            #expect(try await apps.xclip("text/html").stdoutText == note.htmlContent)
            #expect(try await apps.xclip("UTF8_STRING").stdoutText == "Buy milk")
            // The type list is what the owner advertised, richest first.
            let types = try await apps.reader.contentTypes()
            #expect(Array(types.prefix(3)) == [.json, .html, .utf8PlainText])
        }
    }

    @Test("PaletteColor: JSON and #rrggbb text, and x-color for color pickers (converted on copy)")
    func paletteColor() async throws {
        try await withTwoApps { apps in
            let color = PaletteColor(name: "Sunset", hex: "#ff8000")
            try await apps.owner.copy(color)
            #expect(try await apps.reader.paste(PaletteColor.self) == [color])
            #expect(try await apps.xclip("UTF8_STRING").stdoutText == "#ff8000")
            let targets = contentTargets(try await apps.xclipTargets())
            #expect(targets.contains("application/x-color"))
            let wire = try await apps.xclip("application/x-color").stdout
            #expect(wire == Data([0xFF, 0xFF, 0x80, 0x80, 0, 0, 0xFF, 0xFF]))
            // TransferKit's Color speaks x-color: a color picker's paste.
            #expect(try await apps.reader.paste(Color.self).first?.hexString.lowercased() == "#ff8000")
        }
    }

    @Test("DroppableItem pastes text as .text and an image as .image")
    func droppableItem() async throws {
        try await withTwoApps { apps in
            try await apps.owner.copy("dropped words")
            #expect(try await apps.reader.paste(DroppableItem.self) == [.text("dropped words")])
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 32)
            try await apps.owner.copy(Image(data: png, contentType: .png))
            #expect(contentTargets(try await apps.xclipTargets()).first == "image/png")
            #expect(try await apps.xclip("image/png").stdout == png)
            #expect(try await apps.reader.paste(DroppableItem.self) == [.image(Image(data: png, contentType: .png))])
        }
    }

    @Test("Video: the file's content type, uri-list and gnome-copied-files when the original may be shared")
    func video() async throws {
        try await withTwoApps { apps in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-video-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("clip one.mp4")
            let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try bytes.write(to: file)

            try await apps.owner.copy(Video(file: file))
            let pasted = try #require(try await apps.reader.paste(Video.self).first)
            defer { try? FileManager.default.removeItem(at: pasted.file) }
            #expect(try Data(contentsOf: pasted.file) == bytes)
            #expect(pasted.file != file)
            #expect(contentTargets(try await apps.xclipTargets()) == ["video/mp4"])
            #expect(try await apps.xclip("video/mp4").stdout == bytes)

            // A sender that allows access to the original also offers its location.
            try await apps.owner.copy(SharedVideo(file: file))
            let targets = contentTargets(try await apps.xclipTargets())
            #expect(Array(targets.prefix(3)) == ["video/mp4", "text/uri-list", "x-special/gnome-copied-files"])
            let uri = "file://" + directory.path + "/clip%20one.mp4"
            #expect(try await apps.xclip("text/uri-list").stdoutText == uri + "\r\n")
            #expect(try await apps.xclip("x-special/gnome-copied-files").stdoutText == "copy\n" + uri)
            #expect(try await apps.xclip("UTF8_STRING").stdoutText == file.path)
        }
    }
}

/// Video whose sender lets receivers use the original file.
struct SharedVideo: Transferable {
    let file: URL

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(exportedContentType: .mpeg4Movie) { video in
            SentTransferredFile(video.file, allowAccessingOriginalFile: true)
        }
    }
}
