// Seed: PhotoItem (JSON, then an export-only proxy to String)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
// Not in issue 2's list but a non-SwiftUI model of the same seed; the snippet has no import line.
import TransferKit

struct PhotoItem: Identifiable, Codable, Transferable {
    let id: UUID
    var name: String
    var imageName: String

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .json)
        ProxyRepresentation(exporting: \.name) // Fallback for text editors
    }
}
