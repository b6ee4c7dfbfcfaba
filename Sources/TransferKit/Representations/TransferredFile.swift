// SPDX-License-Identifier: Apache-2.0

/// A file an exporting ``FileRepresentation`` hands over.
///
/// The file stays owned by the exporter: TransferKit reads or copies it but never moves or deletes it.
public struct SentTransferredFile: Sendable {
    /// The file's location.
    public let file: URL
    /// Whether a receiver that asks to open files in place may use this very file. When false (the
    /// default) receivers get a copy.
    public let allowAccessingOriginalFile: Bool

    /// Describes a file being sent.
    ///
    /// - Parameters:
    ///   - file: The file's location.
    ///   - allowAccessingOriginalFile: Whether receivers may read and write the original rather than a copy.
    public init(_ file: URL, allowAccessingOriginalFile: Bool = false) {
        self.file = file
        self.allowAccessingOriginalFile = allowAccessingOriginalFile
    }
}

/// A file an importing ``FileRepresentation`` receives.
///
/// A copy (``isOriginalFile`` false) lives in a temporary directory that is removed when the importing
/// closure returns — copy the file somewhere of your own if you need it afterwards, exactly as on Apple
/// platforms.
public struct ReceivedTransferredFile: Sendable {
    /// The received file on disk; valid only inside the importing closure unless it is the original.
    public let file: URL
    /// Whether ``file`` is the sender's original rather than a copy.
    public let isOriginalFile: Bool

    /// Describes a received file. Apple documents no public initializer; TransferKit offers one so that
    /// importing closures can be unit-tested directly.
    public init(file: URL, isOriginalFile: Bool) {
        self.file = file
        self.isOriginalFile = isOriginalFile
    }
}
