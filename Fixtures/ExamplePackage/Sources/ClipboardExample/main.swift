// ClipboardExample: what an app outside ClipBridge writes — a Transferable type copied and pasted back through
// the X clipboard, and the engine used on its own. With no X display it says so and exits 1.

import ClipBridge
import Foundation
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
