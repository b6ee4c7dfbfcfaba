// App helper for the ProfilesArchive seed: the `toCSV()` / `init(csvData:)` its snippet calls but does not
// show, plus `supportsCSV` from the guide's `exportingCondition` snippet. RFC 4180 CSV with a header row
// `id,name,phoneNumber`; fields are quoted when they contain a comma, quote or line break.
import TransferKit

struct CSVError: Error, Equatable {
    var line: Int
    var reason: String
}

extension ProfilesArchive {
    /// Whether every profile can be written as CSV (the guide's `exportingCondition` example): names and
    /// phone numbers must be non-empty.
    var supportsCSV: Bool {
        profiles.allSatisfy { !$0.name.isEmpty && !$0.phoneNumber.isEmpty }
    }

    func toCSV() throws -> Data {
        var lines = ["id,name,phoneNumber"]
        for profile in profiles {
            let fields = [profile.id.uuidString, profile.name, profile.phoneNumber]
            lines.append(fields.map(Self.quoted).joined(separator: ","))
        }
        return Data((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    init(csvData: Data) throws {
        guard let text = String(data: csvData, encoding: .utf8) else {
            throw CSVError(line: 0, reason: "not UTF-8")
        }
        let records = try Self.records(text)
        guard let header = records.first, header == ["id", "name", "phoneNumber"] else {
            throw CSVError(line: 1, reason: "missing header id,name,phoneNumber")
        }
        var profiles: [Profile] = []
        for (offset, fields) in records.dropFirst().enumerated() {
            guard fields.count == 3, let id = UUID(uuidString: fields[0]) else {
                throw CSVError(line: offset + 2, reason: "expected a UUID and two fields")
            }
            profiles.append(Profile(id: id, name: fields[1], phoneNumber: fields[2]))
        }
        self.init(profiles: profiles)
    }

    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Splits CSV text into records of fields, honouring quoted fields.
    private static func records(_ text: String) throws -> [[String]] {
        var records: [[String]] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var iterator = Array(text).makeIterator()
        var pending: Character? = nil
        while let character = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if character == "\"" {
                    let next = iterator.next()
                    if next == "\"" { field.append("\"") } else { inQuotes = false; pending = next }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else if character.isNewline {
                fields.append(field)
                records.append(fields)
                fields = []
                field = ""
            } else {
                field.append(character)
            }
        }
        if inQuotes { throw CSVError(line: records.count + 1, reason: "unterminated quoted field") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append(fields)
        }
        return records
    }
}
