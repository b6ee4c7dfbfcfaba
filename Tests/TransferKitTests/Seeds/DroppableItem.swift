// Seed: DroppableItem (enum of import-only ProxyRepresentations, to Image and String)
// Copied verbatim from ../shared/reference/seeds/transferable-reference.txt; only the import line changed.
// `Image` is TransferKit's Linux counterpart of SwiftUI's Image.
import TransferKit

enum DroppableItem: Transferable {
    case image(Image)
    case text(String)

    static var transferRepresentation: some TransferRepresentation {
        ProxyRepresentation { (image: Image) in DroppableItem.image(image) }
        ProxyRepresentation { (text: String) in DroppableItem.text(text) }
    }
}
