// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

/// A class of tags that identify a type in another tagging system, such as filename extensions or
/// MIME types.
///
/// Filename-extension tags never include the leading period.
public struct UTTagClass: RawRepresentable, Hashable, Sendable, Codable {
    /// The tag class identifier, for example `public.mime-type`.
    public let rawValue: String

    /// Creates a tag class from its identifier.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The tag class for filename extensions (`public.filename-extension`).
    public static var filenameExtension: UTTagClass { UTTagClass(rawValue: "public.filename-extension") }

    /// The tag class for MIME types (`public.mime-type`).
    public static var mimeType: UTTagClass { UTTagClass(rawValue: "public.mime-type") }
}

extension UTTagClass: CustomStringConvertible, CustomDebugStringConvertible {
    /// The raw value.
    public var description: String { rawValue }

    /// The raw value, labelled as a tag class.
    public var debugDescription: String { "UTTagClass(\(rawValue))" }
}
