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

    /// One entry as `--json` writes it.
    struct JSON: Encodable {
        var id: Int64
        var time: String
        var selection: String
        var application: String?
        var pinned: Bool
        var bytes: Int
        var summary: String
        var targets: [String]
    }

    /// One JSON object, on one line.
    static func json(_ entry: HistoryEntry) throws -> String {
        let object = JSON(
            id: entry.id, time: iso(entry.copiedAt), selection: entry.selection.rawValue, application: entry.ownerClass,
            pinned: entry.isPinned, bytes: entry.byteCount, summary: entry.summary, targets: entry.targets.map(\.rawValue))
        return String(decoding: try TypeListing.encoder().encode(object), as: UTF8.self)
    }

    /// The local time, `YYYY-MM-DD HH:MM:SS`.
    static func time(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1))-\(pad(Int(parts.tm_mday))) "
            + "\(pad(Int(parts.tm_hour))):\(pad(Int(parts.tm_min))):\(pad(Int(parts.tm_sec)))"
    }

    /// UTC, ISO 8601 with milliseconds, as `watch --json` writes its timestamps.
    static func iso(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `value` in decimal, zero-padded to `width` digits.
    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
