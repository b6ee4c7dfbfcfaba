// SPDX-License-Identifier: Apache-2.0
// ClipBridge — errors of the clipboard layer

/// A failure of the clipboard layer. Failures of the X11 protocol itself (nothing copied, timeouts, an
/// unreachable display, a lost connection) are thrown as `SelectionError` by the engine and pass through
/// unchanged, so a caller can tell "the owner has no PNG" from "the display is gone".
public struct ClipboardError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The owner offers nothing the asked type can import, or the asked type is not offered.
        public static let typeUnavailable = Code("typeUnavailable")
        /// An importer or decoder threw while building the pasted value.
        public static let importFailed = Code("importFailed")
        /// An exporter threw while copying or serving.
        public static let exportFailed = Code("exportFailed")
        /// A converter rejected the bytes (e.g. text that is not a color).
        public static let conversionFailed = Code("conversionFailed")
        /// A raw item was unusable: no representation, or a file that cannot be read.
        public static let invalidItem = Code("invalidItem")
        /// Writing pasted bytes to a file or descriptor failed (disk full, closed pipe, bad descriptor).
        public static let writeFailed = Code("writeFailed")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// A sentence for people: what, and with which type.
    public var message: String
    /// For ``Code/typeUnavailable``: what the owner does offer, richest first.
    public var availableTypes: [ClipboardType]
    /// The error that caused this one (an importer's, an exporter's, a converter's), if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, availableTypes: [ClipboardType] = [], underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.availableTypes = availableTypes
        self.underlying = underlying
    }

    /// Equality is on the code only, so callers can match `error == ClipboardError(.typeUnavailable, "")`.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The message, then the underlying error and the available types when there are any.
    public var description: String {
        var text = message
        if let underlying { text += ": \(underlying)" }
        if !availableTypes.isEmpty { text += "; available: " + availableTypes.map(\.description).joined(separator: ", ") }
        return text
    }
}
