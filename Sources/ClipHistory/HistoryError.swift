import Glibc

/// A history operation that failed, with a message that names what (the file, the entry) and why.
public struct HistoryError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String
    /// The disk or quota was full: the entry was dropped, and the store is still readable.
    public var isDiskFull = false
    /// There is no entry of the id asked for.
    public var isNoSuchEntry = false

    init(_ description: String, isDiskFull: Bool = false) {
        self.description = description
        self.isDiskFull = isDiskFull
    }

    /// No entry has `id`.
    static func noSuchEntry(_ id: Int64) -> HistoryError {
        var error = HistoryError("no history entry \(id)")
        error.isNoSuchEntry = true
        return error
    }

    /// `what` failed with the system's `errno`.
    static func system(_ what: String) -> HistoryError {
        let code = errno
        return HistoryError("\(what): \(String(cString: strerror(code)))", isDiskFull: code == ENOSPC || code == EDQUOT)
    }
}
