// Seed: Profile (Codable + export-only ProxyRepresentation to String)
// Copied verbatim from ../shared/reference/seeds/making-a-view-into-a-drag-source.md (Apple's article); only the
// import line changed.
// The guide's second Profile (with `var avatar: Image`) is not Codable yet uses CodableRepresentation, so it
// compiles nowhere; this is the complete model from Apple's article.
import TransferKit

struct Profile: Codable, Identifiable {
    var id: UUID = UUID()
    var name: String
    var phoneNumber: String
}

extension Profile: Transferable {
    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .profile)
        ProxyRepresentation(exporting: \.name)
    }
}

extension UTType {
    static var profile = UTType(exportedAs: "com.example.profile")
}
