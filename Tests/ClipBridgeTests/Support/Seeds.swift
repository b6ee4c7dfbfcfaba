// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — the seed models (../shared/reference/seeds), as an app would write them.
// Copied from the seeds; `static var` custom types became `static let` (Swift 6 mode), Profile's helpers are
// inlined, and DroppableItem/PaletteColor gained Equatable for the assertions.

import Foundation
import TransferKit

extension UTType {
    /// transferable-reference.txt: `UTType(exportedAs: "com.example.todo")`.
    static let todo = UTType(exportedAs: "com.example.todo")
    /// making-a-view-into-a-drag-source.md: `UTType(exportedAs: "com.example.profile")`.
    static let profile = UTType(exportedAs: "com.example.profile")
}

struct Todo: Codable, Transferable, Equatable {
    var text: String
    var isDone: Bool

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .todo)
    }
}

struct Profile: Codable, Identifiable, Equatable {
    var id: UUID = UUID()
    var name: String
    var phoneNumber: String
}

extension Profile: Transferable {
    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .profile)
        ProxyRepresentation(exporting: \.name)
    }
}

struct ProfilesArchive: Transferable, Equatable {
    var profiles: [Profile]

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .commaSeparatedText) { archive in
            try archive.toCSV()
        } importing: { data in
            try ProfilesArchive(csvData: data)
        }
    }

    func toCSV() throws -> Data {
        Data(
            (["id,name,phoneNumber"] + profiles.map { "\($0.id.uuidString),\($0.name),\($0.phoneNumber)" })
                .joined(separator: "\n").utf8)
    }

    init(profiles: [Profile]) { self.profiles = profiles }

    init(csvData: Data) throws {
        let lines = String(decoding: csvData, as: UTF8.self).split(separator: "\n").dropFirst()
        profiles = try lines.map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3, let id = UUID(uuidString: fields[0]) else {
                throw CocoaError(.coderReadCorrupt)
            }
            return Profile(id: id, name: fields[1], phoneNumber: fields[2])
        }
    }
}

struct Video: Transferable {
    let file: URL

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(contentType: .mpeg4Movie) { video in
            SentTransferredFile(video.file)
        } importing: { received in
            // MUST copy — sandbox extension is temporary
            let dest = FileManager.default.temporaryDirectory
                .appendingPathComponent(UUID().uuidString)
                .appendingPathExtension("mp4")
            try FileManager.default.copyItem(at: received.file, to: dest)
            return Video(file: dest)
        }
    }
}

enum DroppableItem: Transferable, Equatable {
    case image(Image)
    case text(String)

    static var transferRepresentation: some TransferRepresentation {
        ProxyRepresentation { (image: Image) in DroppableItem.image(image) }
        ProxyRepresentation { (text: String) in DroppableItem.text(text) }
    }
}

struct RichNote: Codable, Transferable, Equatable {
    var title: String
    var htmlContent: String
    var plainText: String
    var attachmentURL: URL?

    static var transferRepresentation: some TransferRepresentation {
        // Full fidelity: custom Codable format
        CodableRepresentation(contentType: .json)
        // Medium fidelity: HTML string
        DataRepresentation(exportedContentType: .html) { note in
            Data(note.htmlContent.utf8)
        }
        // Low fidelity: plain text fallback
        ProxyRepresentation(exporting: \.plainText)
    }
}

struct PaletteColor: Identifiable, Codable, Hashable, Transferable {
    let id: UUID
    var name: String
    var hex: String

    init(name: String, hex: String) {
        self.id = UUID()
        self.name = name
        self.hex = hex
    }

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .json)
        ProxyRepresentation(exporting: \.hex)
    }
}

/// A model with a representation that must never leave the process, and a conditional one.
struct Secretive: Codable, Transferable, Equatable {
    var body: String
    var isPublic: Bool

    static let inProcessType = UTType(exportedAs: "com.example.bridge-tests.secretive", conformingTo: .json)

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: inProcessType)
            .visibility(.ownProcess)
        ProxyRepresentation(exporting: \.body)
            .exportingCondition { $0.isPublic }
    }
}
