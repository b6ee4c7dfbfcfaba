/// An error whose message alone reads well in a report — without the code a description puts before it (X11's
/// `SelectionError`).
package protocol ReportedError: Error {
    var reportedMessage: String { get }
}

/// How a bridge or a keeper names `error` in a report.
package func reportedMessage(of error: any Error) -> String {
    if let error = error as? any ReportedError { return error.reportedMessage }
    if let error = error as? any CustomStringConvertible { return error.description }
    return "\(error)"
}
