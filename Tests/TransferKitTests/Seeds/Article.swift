// Seed: Article (JSON, then an export-only proxy to String)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
// The snippet has no import line; the one below is the only addition.
import TransferKit

struct Article: Codable, Transferable {
    var title: String
    var content: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .json)
        ProxyRepresentation(exporting: \.title)
    }
}
