// Seed: Todo (CodableRepresentation with a custom exported type)
// Copied verbatim from ../shared/reference/seeds/transferable-reference.txt; only the import line changed.
import TransferKit

extension UTType {
    static var todo: UTType = UTType(exportedAs: "com.example.todo")
}

struct Todo: Codable, Transferable {
    var text: String
    var isDone: Bool

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .todo)
    }
}
