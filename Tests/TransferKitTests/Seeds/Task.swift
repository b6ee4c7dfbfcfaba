// Seed: Task (CodableRepresentation as JSON)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
// Note: this shadows Swift's concurrency `Task` inside this test module, exactly as it would in an app.
import TransferKit

struct Task: Codable, Transferable {
    var title: String
    var isCompleted: Bool
    var priority: Int

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .json)
    }
}
