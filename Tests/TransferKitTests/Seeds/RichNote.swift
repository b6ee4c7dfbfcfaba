// Seed: RichNote (JSON, export-only HTML DataRepresentation, proxy to String)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
// The snippet has no import line; the one below is the only addition.
import TransferKit

struct RichNote: Codable, Transferable {
    var title: String
    var htmlContent: String
    var plainText: String
    var attachmentURL: URL?

    static var transferRepresentation: some TransferRepresentation {
        // Full fidelity: custom Codable format
        CodableRepresentation(contentType: .json)
        // Medium fidelity: HTML string
        DataRepresentation(exportedContentType: .html) { note in
            Data(note.htmlContent.utf8)
        }
        // Low fidelity: plain text fallback
        ProxyRepresentation(exporting: \.plainText)
    }
}
