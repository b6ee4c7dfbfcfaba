// Seed: Photo (export-only PNG DataRepresentation, proxy to String)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
// Not in issue 2's list; its `Image` property is TransferKit's Image. The snippet has no import line.
import TransferKit

struct Photo: Identifiable, Transferable {
    let id: UUID
    var caption: String
    var image: Image
    var imageData: Data

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(exportedContentType: .png) { photo in
            photo.imageData
        }
        ProxyRepresentation(exporting: \.caption)
    }
}
