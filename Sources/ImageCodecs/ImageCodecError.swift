// SPDX-License-Identifier: Apache-2.0

/// Why an image could not be decoded or encoded.
public struct ImageCodecError: Error, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Code: Sendable, Hashable {
        /// The bytes are not in a format the codecs read, or the type is not one they write.
        case unsupportedFormat
        /// The bytes are corrupt, cut short, or use a variant of the format the library does not read.
        case invalidData
        /// The image has more pixels than the decoder's limit (``ImageDecoder/maximumPixelCount``), or more
        /// than the target format can hold.
        case tooLarge
        /// The image has several frames; converting it to a still format would drop all but one.
        case animated
        /// The task was cancelled.
        case cancelled
        /// Memory ran out.
        case outOfMemory
        /// The format's system library (libpng, libjpeg, giflib, libtiff, libwebp), loaded the first time the
        /// format is used, is not installed.
        case codecUnavailable
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, for people.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
