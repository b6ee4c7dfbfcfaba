// Seed: SafeNote (explicitly Sendable, JSON)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
// The snippet has no import line; the one below is the only addition.
import TransferKit

struct SafeNote: Codable, Sendable, Transferable {
    let id: UUID
    let title: String
    let content: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .json)
    }
}
