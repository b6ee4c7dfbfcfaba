// Seed: Note (CodableRepresentation as JSON)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
// The seed omits `Codable` (so it would not compile on Apple platforms either); Note+CodableHelper.swift
// supplies the conformance without touching this file.
import TransferKit
struct Note: Transferable {
    var title: String
    var body: String
    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .json)
    }
}
