// ClipboardExample: what an app outside ClipBridge writes — a Transferable type copied and pasted back through
// the X clipboard, and the engine used on its own. With no X display it says so and exits 1.

import ClipBridge
import Foundation
import ImageCodecs
import TransferKit
import UniformTypes
import X11Selection

extension UTType {
    static let note = UTType(exportedAs: "com.example.clipboard-example.note", conformingTo: .json)
}

struct Note: Codable, Transferable, Equatable {
    var title: String
    var body: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .note)
        ProxyRepresentation(exporting: \.title)
    }
}

// Images through the system codecs, no display needed: a 2×1 picture to PNG and back, then exported as JPEG by
// TransferKit's Image made with the system transcoder.
let picture = try PixelImage(width: 2, height: 1, hasAlpha: true, pixels: Data([255, 0, 0, 255, 0, 0, 255, 128]))
let png: Data = try ImageEncoder().encode(picture, as: .png)
let jpeg = try await Image(data: png, transcoder: SystemImageTranscoder()).exported(as: .jpeg)
let decoded: PixelImage = try ImageDecoder().decode(png)
print("image round trip: \(decoded.pixels == picture.pixels), exported as \(ImageProperties(data: jpeg)?.contentType.identifier ?? "?")")

do {
    let clipboard = try await Clipboard.open(.clipboard)
    let note = Note(title: "Groceries", body: "eggs, milk")
    let lease = try await clipboard.copy(note)
    let pasted = try await clipboard.paste(Note.self)
    let connection = try await X11Connection.open()
    let targets = try await connection.targets(of: .clipboard)
    print("pasted \(pasted.count) note(s), equal: \(pasted.first == note); the owner offers \(targets.count) targets")
    print("copied at server time \(lease.timestamp.rawValue)")
    await connection.shutdown()
    await clipboard.shutdown()
} catch let error as SelectionError where error.code == .displayUnavailable {
    print("no X display: \(error.message)")
    exit(1)
}
