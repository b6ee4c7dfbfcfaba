// Seed: ProfilesArchive (two-way DataRepresentation as CSV)
// Copied verbatim from ../shared/reference/seeds/transferable-reference.txt; only the import line changed.
// The snippet has no import line; the one below is the only addition. toCSV()/init(csvData:) are in
// ProfilesArchive+CSVHelper.swift.
import TransferKit

struct ProfilesArchive: Transferable {
    var profiles: [Profile]

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: .commaSeparatedText) { archive in
            try archive.toCSV()
        } importing: { data in
            try ProfilesArchive(csvData: data)
        }
    }
}
