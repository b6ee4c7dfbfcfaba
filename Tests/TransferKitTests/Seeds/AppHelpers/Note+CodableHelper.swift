// App helper for the Note seed: the seed declares `struct Note: Transferable` but uses
// `CodableRepresentation`, which needs `Codable`. Swift cannot synthesize `Codable` in an extension in another
// file, so the conformance is written out here, with the keys synthesis would use.
import TransferKit

extension Note: Codable {
    private enum CodingKeys: String, CodingKey {
        case title, body
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try container.decode(String.self, forKey: .title),
            body: try container.decode(String.self, forKey: .body)
        )
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
    }
}
