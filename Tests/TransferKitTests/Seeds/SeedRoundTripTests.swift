// Round trips of every seed model through Apple's extension API: `exported(as:)` then
// `init(importing:contentType:)`, plus the content types each one offers, in order.
//
// This target compiles in the Swift 5 language mode (with complete concurrency checking as warnings): the
// seeds are Apple-era sample code, and two of them (Todo, Profile) declare `static var` UTTypes, which the
// Swift 6 mode rejects as global mutable state. Nothing else in the seeds needs Swift 5.
import Foundation
import Testing
import TransferKit

@Suite("Seed models round-trip")
struct SeedRoundTripTests {
    @Test func todoRoundTripsAsItsCustomType() async throws {
        let todo = Todo(text: "Buy milk", isDone: true)
        #expect(todo.exportedContentTypes() == [.todo])
        #expect(UTType.todo.identifier == "com.example.todo")
        let data = try await todo.exported(as: .todo)
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(json?["text"] as? String == "Buy milk")
        let back = try await Todo(importing: data, contentType: .todo)
        #expect(back.text == "Buy milk" && back.isDone)
    }

    @Test func profilesArchiveRoundTripsAsCSV() async throws {
        let archive = ProfilesArchive(profiles: [
            Profile(name: "Juan Chavez", phoneNumber: "(408) 555-4301"),
            Profile(name: "Chen, \"Mei\"", phoneNumber: "(919) 555-2481"),
        ])
        #expect(ProfilesArchive.exportedContentTypes() == [.commaSeparatedText])
        let data = try await archive.exported(as: .commaSeparatedText)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("id,name,phoneNumber\r\n"))
        let back = try await ProfilesArchive(importing: data, contentType: .commaSeparatedText)
        #expect(back.profiles.map(\.name) == archive.profiles.map(\.name))
        #expect(back.profiles.map(\.id) == archive.profiles.map(\.id))
        #expect(back.profiles.map(\.phoneNumber) == archive.profiles.map(\.phoneNumber))
    }

    @Test func profilesArchiveRejectsMalformedCSV() async {
        await #expect(throws: TransferError.self) {
            _ = try await ProfilesArchive(importing: Data("name\r\nx\r\n".utf8), contentType: .commaSeparatedText)
        }
    }

    @Test func videoRoundTripsThroughAFile() async throws {
        let source = try Self.temporaryFile(named: "clip.mp4", bytes: Array(0..<255) + [0, 1, 2])
        defer { try? FileManager.default.removeItem(at: source.deletingLastPathComponent()) }
        let video = Video(file: source)
        let data = try await video.exported(as: .mpeg4Movie)
        #expect(data == (try Data(contentsOf: source)))
        let back = try await Video(importing: data, contentType: .mpeg4Movie)
        defer { try? FileManager.default.removeItem(at: back.file) }
        #expect(back.file != source)
        #expect(try Data(contentsOf: back.file) == data)
        #expect(back.file.pathExtension == "mp4")
    }

    @Test func videoImportsFromAFileOnDiskAndExportsToADirectory() async throws {
        let source = try Self.temporaryFile(named: "movie.mp4", bytes: [1, 2, 3, 4])
        defer { try? FileManager.default.removeItem(at: source.deletingLastPathComponent()) }
        let imported = try await Video(importing: source, contentType: nil)
        defer { try? FileManager.default.removeItem(at: imported.file) }
        #expect(try Data(contentsOf: imported.file) == Data([1, 2, 3, 4]))
        #expect(FileManager.default.fileExists(atPath: source.path), "the caller's file is left alone")

        let directory = source.deletingLastPathComponent()
        let exported = try await imported.export(to: directory, contentType: .mpeg4Movie)
        #expect(exported.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        #expect(try Data(contentsOf: exported) == Data([1, 2, 3, 4]))
    }

    @Test func videoClipRoundTripsThroughAFile() async throws {
        let source = try Self.temporaryFile(named: "clip-\(UUID().uuidString).mp4", bytes: [9, 8, 7])
        defer { try? FileManager.default.removeItem(at: source.deletingLastPathComponent()) }
        let clip = VideoClip(fileURL: source)
        let data = try await clip.exported(as: .mpeg4Movie)
        // The seed copies into the temporary directory under the received file's own name, so the
        // received file must have a name of its own: it does (the sender's name is kept).
        let back = try await VideoClip(importing: source, contentType: .mpeg4Movie)
        defer { try? FileManager.default.removeItem(at: back.fileURL) }
        #expect(back.fileURL.lastPathComponent == source.lastPathComponent)
        #expect(try Data(contentsOf: back.fileURL) == data)
    }

    @Test func profileOffersItsTypeThenTheNameAsText() async throws {
        let profile = Profile(name: "Mei Chen", phoneNumber: "(919) 555-2481")
        #expect(profile.exportedContentTypes() == [.profile, .utf8PlainText, .plainText])
        #expect(try await profile.exported(as: .plainText) == Data("Mei Chen".utf8))
        let data = try await profile.exported(as: .profile)
        let back = try await Profile(importing: data, contentType: .profile)
        #expect(back.id == profile.id && back.name == profile.name && back.phoneNumber == profile.phoneNumber)
        // Export-only proxy: text cannot be imported as a profile.
        #expect(Profile.importedContentTypes() == [.profile])
        await #expect(throws: TransferError.self) {
            _ = try await Profile(importing: Data("Mei".utf8), contentType: .utf8PlainText)
        }
    }

    @Test func droppableItemImportsImagesAndText() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])
        let image = try await DroppableItem(importing: png, contentType: .png)
        guard case .image(let received) = image else {
            Issue.record("expected an image, got \(image)")
            return
        }
        #expect(received.contentType == .png && received.data == png)

        let text = try await DroppableItem(importing: Data("hello".utf8), contentType: .utf8PlainText)
        guard case .text(let string) = text else {
            Issue.record("expected text, got \(text)")
            return
        }
        #expect(string == "hello")
        #expect(DroppableItem.importedContentTypes().contains(.jpeg))
        #expect(DroppableItem.exportedContentTypes().isEmpty, "both proxies are import-only")
        // The offer's richest type wins: an image before text.
        #expect(DroppableItem.resolvedImporter(forOfferedTypes: [.png, .utf8PlainText])?.offeredType == .png)
    }

    @Test func noteRoundTripsAsJSON() async throws {
        let note = Note(title: "Groceries", body: "Milk, eggs")
        let data = try await note.exported(as: .json)
        let back = try await Note(importing: data, contentType: .json)
        #expect(back.title == note.title && back.body == note.body)
    }

    @Test func taskRoundTripsAsJSON() async throws {
        let task = Task(title: "Ship", isCompleted: false, priority: 2)
        let back = try await Task(importing: try await task.exported(as: .json), contentType: .json)
        #expect(back.title == "Ship" && !back.isCompleted && back.priority == 2)
        await #expect(throws: TransferError.self) {
            _ = try await Task(importing: Data("{\"title\": 1}".utf8), contentType: .json)
        }
    }

    @Test func sketchRoundTripsAsARealPNG() async throws {
        let sketch = Sketch(strokes: [CGPoint(x: 1, y: 2), CGPoint(x: 30.5, y: 40), CGPoint(x: 64, y: 0)])
        let data = try await sketch.exported(as: .png)
        // The bytes are a PNG any image reader recognises.
        #expect(try Image(data: data).contentType == .png)
        let back = try await Sketch(importing: data, contentType: .png)
        #expect(back.strokes == sketch.strokes)
        // Asking for `.image` finds the PNG representation by conformance.
        #expect(try await sketch.exported(as: .image) == data)
    }

    @Test func articleRoundTripsAsJSONAndOffersItsTitle() async throws {
        let article = Article(title: "Transferable", content: "A long text")
        #expect(article.exportedContentTypes() == [.json, .utf8PlainText, .plainText])
        #expect(try await article.exported(as: .utf8PlainText) == Data("Transferable".utf8))
        let back = try await Article(importing: try await article.exported(as: .json), contentType: .json)
        #expect(back.title == article.title && back.content == article.content)
    }

    @Test func recipeRoundTripsAsItsCustomType() async throws {
        let recipe = Recipe(name: "Pancakes", ingredients: ["flour", "milk"], steps: ["mix", "fry"])
        #expect(recipe.exportedContentTypes() == [.recipe])
        #expect(UTType.recipe.conforms(to: .data))
        let back = try await Recipe(importing: try await recipe.exported(as: .recipe), contentType: .recipe)
        #expect(back.name == recipe.name && back.ingredients == recipe.ingredients && back.steps == recipe.steps)
    }

    @Test func richNoteOffersJSONThenHTMLThenText() async throws {
        let note = RichNote(
            title: "T", htmlContent: "<b>Bold</b>", plainText: "Bold",
            attachmentURL: URL(string: "https://example.com/a.pdf")
        )
        #expect(note.exportedContentTypes() == [.json, .html, .utf8PlainText, .plainText])
        #expect(try await note.exported(as: .html) == Data("<b>Bold</b>".utf8))
        #expect(try await note.exported(as: .plainText) == Data("Bold".utf8))
        let back = try await RichNote(importing: try await note.exported(as: .json), contentType: .json)
        #expect(back.attachmentURL == note.attachmentURL && back.htmlContent == note.htmlContent)
        #expect(RichNote.importedContentTypes() == [.json])
    }

    @Test func paletteColorRoundTripsAndItsColorParses() async throws {
        let color = PaletteColor(name: "Ocean Blue", hex: "#0077B6")
        #expect(color.color == Color(red: 0, green: 0x77 / 255, blue: 0xB6 / 255))
        #expect(try await color.exported(as: .plainText) == Data("#0077B6".utf8))
        let back = try await PaletteColor(importing: try await color.exported(as: .json), contentType: .json)
        #expect(back == color)
    }

    @Test func safeNoteRoundTripsAsJSON() async throws {
        let note = SafeNote(id: UUID(), title: "Swift 6", content: "Sendable")
        let back = try await SafeNote(importing: try await note.exported(as: nil), contentType: nil)
        #expect(back.id == note.id && back.title == note.title && back.content == note.content)
    }

    @Test func colorItemRoundTripsAsItsCustomType() async throws {
        for item in ColorItem.sampleColors {
            let data = try await item.exported(as: .color)
            let back = try await ColorItem(importing: data, contentType: .color)
            #expect(back.id == item.id && back.name == item.name)
            #expect(back.red == item.red && back.green == item.green && back.blue == item.blue)
        }
        #expect(UTType.color.identifier == "com.gabrieltheodoropoulos.TransferableDemo.color")
    }

    @Test func photoItemAndPhotoExportTheirRepresentations() async throws {
        let item = PhotoItem(id: UUID(), name: "Sunset", imageName: "sun.max")
        let back = try await PhotoItem(importing: try await item.exported(as: .json), contentType: .json)
        #expect(back.id == item.id && back.imageName == item.imageName)
        #expect(try await item.exported(as: .utf8PlainText) == Data("Sunset".utf8))

        let pngBytes = try Sketch(strokes: [CGPoint(x: 3, y: 4)]).renderToPNGData()
        let photo = Photo(id: UUID(), caption: "Dot", image: try Image(data: pngBytes), imageData: pngBytes)
        #expect(photo.exportedContentTypes() == [.png, .utf8PlainText, .plainText])
        #expect(try await photo.exported(as: .png) == pngBytes)
        #expect(Photo.importedContentTypes().isEmpty)
    }

    static func temporaryFile(named name: String, bytes: [UInt8]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("TransferKitSeedTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }
}
