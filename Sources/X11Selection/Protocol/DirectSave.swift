import FoundationEssentials

/// The Direct Save Protocol (XDS, version 0: freedesktop.org's "Saving Files Via Drag-and-Drop"), target side, as
/// pure rules. A drag source that can save its data itself (Chromium, for an image dragged from a page) offers the
/// target `XdndDirectSave0` and puts a file name (no path) in its window's `XdndDirectSave0` property, of type
/// `text/plain` (with a charset parameter, else ISO-8859-1). At the drop the target writes a `file://` URI back
/// into that property, converts `XdndSelection` to `XdndDirectSave0`, and the source answers one byte: `S` it saved
/// the file there, `F` it could not and the target is to read `application/octet-stream` and save that itself, `E`
/// it failed (and told its user).
///
/// Everything in the property is the source's, so untrusted: the name is used only when it is one plain file name.
public enum DirectSave {
    /// The target a source offers, and the property on its window.
    public static let target: SelectionTarget = "XdndDirectSave0"
    /// The action a source that saves itself asks for (a target that takes the save answers with it).
    public static let action: SelectionTarget = "XdndActionDirectSave"
    /// What a target reads after an `F`.
    public static let dataTarget: SelectionTarget = "application/octet-stream"
    /// The longest name taken (bytes of UTF-8): the usual file-name limit.
    public static let maximumNameBytes = 255

    /// The source's answer to the conversion.
    public enum Reply: Sendable, Equatable {
        /// `S`: the source saved the file at the URI.
        case saved
        /// `F`: the source could not save it; read ``DirectSave/dataTarget`` and save that.
        case fallBack
        /// `E`, or anything else: the source failed.
        case failed
    }

    /// The reply a conversion's bytes mean.
    public static func reply(_ bytes: Data) -> Reply {
        switch bytes.first {
        case UInt8(ascii: "S"): .saved
        case UInt8(ascii: "F"): .fallBack
        default: .failed
        }
    }

    /// The file name a source proposes in its property, decoded by the property type's charset (ISO-8859-1
    /// without one, UTF-8 named as such or otherwise), or nil unless it is one plain name: not empty, not `.` or
    /// `..`, no `/`, no NUL or other control character, at most ``maximumNameBytes``, not starting with `.` (a
    /// dropped download does not become a hidden file) or `-`.
    public static func fileName(fromProperty bytes: Data, type: String) -> String? {
        let lowered = type.lowercased()
        let name: String
        if lowered.contains("charset=") && !lowered.contains("charset=iso-8859-1") && !lowered.contains("charset=latin1") {
            guard let decoded = TextEncodings.fromUTF8(bytes) else { return nil }
            name = decoded
        } else {
            name = TextEncodings.fromLatin1(bytes)
        }
        guard !name.isEmpty, name.utf8.count <= maximumNameBytes, name != ".", name != "..",
            !name.hasPrefix("."), !name.hasPrefix("-"),
            !name.unicodeScalars.contains(where: { $0 == "/" || $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return name
    }

    /// `name` made unique in a directory: itself, then `stem (2).ext`, `stem (3).ext`, … as `exists` says.
    public static func uniqueName(_ name: String, exists: (String) -> Bool) -> String? {
        guard exists(name) else { return name }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        for number in 2...999 {
            let candidate = "\(stem) (\(number))\(suffix)"
            if candidate.utf8.count <= maximumNameBytes, !exists(candidate) { return candidate }
        }
        return nil
    }

    /// The `file://` URI of an absolute `path` on `host`, each byte outside the unreserved set and `/`
    /// percent-encoded (RFC 3986), as the property carries it (ASCII, so its type is plain `text/plain`).
    public static func fileURI(path: String, host: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        var encoded = ""
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            } else {
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return "file://" + host + encoded
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
