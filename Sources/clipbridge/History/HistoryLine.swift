// ClipBridge — the clipbridge command-line tool.
// One history entry as a line: tab-separated for pickers (cliphist's convention), or JSON.

import ClipHistory
import FoundationEssentials
import Glibc
import X11Selection

enum HistoryLine {
    /// `ID<TAB>TIME<TAB>SUMMARY`: the id first, so `cut -f1` of a picker's choice gives it back.
    static func text(_ entry: HistoryEntry) -> String {
        "\(entry.id)\t\(time(entry.copiedAt))\t\(entry.isPinned ? "📌 " : "")\(entry.summary)"
    }

    /// One JSON object.
    static func json(_ entry: HistoryEntry) -> String {
        var fields = [
            "\"id\":\(entry.id)",
            "\"time\":\(string(iso(entry.copiedAt)))",
            "\"selection\":\(string(entry.selection.rawValue))",
            "\"pinned\":\(entry.isPinned)",
            "\"bytes\":\(entry.byteCount)",
            "\"summary\":\(string(entry.summary))",
            "\"targets\":[\(entry.targets.map { string($0.rawValue) }.joined(separator: ","))]",
        ]
        if let application = entry.ownerClass { fields.insert("\"application\":\(string(application))", at: 3) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The local time, `YYYY-MM-DD HH:MM:SS`.
    static func time(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1))-\(pad(Int(parts.tm_mday))) "
            + "\(pad(Int(parts.tm_hour))):\(pad(Int(parts.tm_min))):\(pad(Int(parts.tm_sec)))"
    }

    /// UTC, ISO 8601 with milliseconds.
    static func iso(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1))-\(pad(Int(parts.tm_mday)))T"
            + "\(pad(Int(parts.tm_hour))):\(pad(Int(parts.tm_min))):\(pad(Int(parts.tm_sec))).\(pad(Int(milliseconds % 1000), 3))Z"
    }

    /// `value` in decimal, zero-padded to `width` digits.
    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A JSON string literal.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
