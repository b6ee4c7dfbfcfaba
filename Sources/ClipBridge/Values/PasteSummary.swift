// SPDX-License-Identifier: Apache-2.0
// ClipBridge — the result of a streamed read

/// What a streamed read delivered.
public struct PasteSummary: Sendable, Equatable {
    /// The type that was read.
    public var type: ClipboardType
    /// How many bytes went to the sink.
    public var byteCount: Int

    /// Creates a summary.
    public init(type: ClipboardType, byteCount: Int) {
        self.type = type
        self.byteCount = byteCount
    }
}
