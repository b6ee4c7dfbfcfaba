// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials

// The Foundation extensions Apple ships in the UniformTypeIdentifiers Swift module (reference §4).
extension URL {
    /// Returns the URL with a path component appended, giving it the type's preferred filename
    /// extension unless the name already has an extension valid for the type.
    ///
    /// `"puppy.jpg"` with ``UTType/image`` stays `puppy.jpg`; with ``UTType/plainText`` it becomes
    /// `puppy.jpg.txt`. A type that conforms to ``UTType/directory`` gives a directory URL. A type
    /// without a filename extension appends the name unchanged.
    public func appendingPathComponent(_ partialName: String, conformingTo contentType: UTType) -> URL {
        let isDirectory = contentType.conforms(to: .directory)
        return appendingPathComponent(
            FilenameExtensionRule.name(partialName, for: contentType),
            isDirectory: isDirectory
        )
    }

    /// Appends a path component, giving it the type's preferred filename extension unless the name
    /// already has one valid for the type (see ``appendingPathComponent(_:conformingTo:)``).
    public mutating func appendPathComponent(_ partialName: String, conformingTo contentType: UTType) {
        self = appendingPathComponent(partialName, conformingTo: contentType)
    }

    /// Returns the URL with the type's preferred filename extension appended, unless its last path
    /// component already has an extension valid for the type or the type has no extension. On failure
    /// (for example an empty path) the URL is returned unchanged.
    public func appendingPathExtension(for contentType: UTType) -> URL {
        let name = lastPathComponent
        guard !name.isEmpty, name != "/", !FilenameExtensionRule.hasValidExtension(name, for: contentType),
            let preferred = contentType.preferredFilenameExtension
        else { return self }
        return appendingPathExtension(preferred)
    }

    /// Appends the type's preferred filename extension unless the URL already has one valid for the
    /// type (see ``appendingPathExtension(for:)``).
    public mutating func appendPathExtension(for contentType: UTType) {
        self = appendingPathExtension(for: contentType)
    }
}

/// The "already has a valid extension" rule shared by the URL extensions.
package enum FilenameExtensionRule {
    /// The extension of a file name: the text after the last period, if the period is neither first nor
    /// last (`.bashrc` has none).
    package static func pathExtension(of name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex
        else { return nil }
        return String(name[name.index(after: dot)...])
    }

    /// Whether `name`'s extension belongs to a declared type conforming to `contentType`.
    static func hasValidExtension(_ name: String, for contentType: UTType) -> Bool {
        guard let ext = pathExtension(of: name) else { return false }
        return UTType.types(tag: ext, tagClass: .filenameExtension, conformingTo: contentType)
            .contains { !$0.isDynamic }
    }

    /// `name`, with the type's preferred extension appended when it needs one.
    static func name(_ name: String, for contentType: UTType) -> String {
        guard !hasValidExtension(name, for: contentType), let preferred = contentType.preferredFilenameExtension
        else { return name }
        return name + "." + preferred
    }
}
