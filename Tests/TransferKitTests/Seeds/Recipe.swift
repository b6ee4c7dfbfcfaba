// Seed: Recipe (custom exported UTType as a computed property)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
import TransferKit

extension UTType {
    static var recipe: UTType {
        UTType(exportedAs: "com.yourcompany.recipe")
    }
}

struct Recipe: Codable, Transferable {
    var name: String
    var ingredients: [String]
    var steps: [String]

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .recipe)
    }
}
