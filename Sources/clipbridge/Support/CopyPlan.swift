// ClipBridge — the clipbridge command-line tool.
// What one `copy` offers, as a value that crosses the re-exec into the detached server.

import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import UniformTypes
import X11Selection

/// Everything a server needs to own the selection, except the payload descriptors themselves (those
/// are passed alongside, in `payloads` order: in-process in the foreground, as descriptors 4, 5, … in
/// the detached server).
struct CopyPlan: Codable, Sendable {
    /// One representation of the copied item, in offer order.
    struct Representation: Codable, Sendable, Equatable {
        /// The TYPE as typed (resolved again with `TypeName.resolve`); nil means "the text family".
        var typeName: String?
        /// Index into the payloads.
        var payload: Int
    }

    /// --display.
    var display: String?
    /// The selection's atom name.
    var selection: String
    /// --sensitive.
    var isSensitive: Bool
    /// --loops N / --paste-once (1); nil = serve until ownership is lost.
    var loops: Int?
    /// The representations of the one item, richest first; empty when `files` is set.
    var representations: [Representation]
    /// --files: absolute paths, copied as a file manager does.
    var files: [String]
    /// --cut.
    var isCut: Bool

    /// A flavour offered exactly as it was kept (`history restore`): target, property type and format as the
    /// owner wrote them, no conversion.
    struct RawFlavour: Codable, Sendable, Equatable {
        var target: String
        var type: String
        var format: Int
        /// Index into the payloads.
        var payload: Int
    }

    /// Exact flavours, in order (a history entry); when set, neither `representations` nor `files` are.
    var flavours: [RawFlavour] = []

    /// A short human description ("3 types", "2 files") for messages.
    var summary: String {
        if !flavours.isEmpty { return "\(flavours.count) flavour(s)" }
        return files.isEmpty ? "\(representations.count) representation(s)" : "\(files.count) file(s)"
    }
}

/// Builds the representations for one payload: detection by name and content, never hiding text.
enum Detection {
    /// The representations for `payload`.
    ///
    /// - Parameters:
    ///   - explicitType: `-t TYPE` (or the TYPE of `--add TYPE=PATH`): used as given, no detection.
    ///   - fileName: the file's name when the payload is `--file PATH`, for detection by extension.
    ///   - index: the payload's index in the plan.
    /// - Returns: the typed representation (when there is one) followed by the text family when the
    ///   bytes read as text, whatever the type says (bugaevc/wl-clipboard#289, #266).
    static func representations(for payload: SpooledPayload, explicitType: TypeName?, fileName: String?,
                                index: Int) -> [CopyPlan.Representation] {
        let sniffed = ContentSniffer(prefix: payload.prefix, size: payload.size)
        var result: [CopyPlan.Representation] = []
        if let explicitType {
            if !isTextFamily(explicitType) {
                result.append(.init(typeName: explicitType.text, payload: index))
            }
        } else if let detected = detectedType(fileName: fileName, sniffed: sniffed) {
            result.append(.init(typeName: detected, payload: index))
        }
        if sniffed.isTextLike || (explicitType.map(isTextFamily) ?? false) {
            result.append(.init(typeName: nil, payload: index))
        }
        if result.isEmpty {
            result.append(.init(typeName: "application/octet-stream", payload: index))
        }
        return result
    }

    /// The type detected from the file name, then from the content's signature; nil for plain text
    /// (which the text family already covers) and for unrecognised bytes.
    static func detectedType(fileName: String?, sniffed: ContentSniffer) -> String? {
        if let fileName, let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex {
            let ext = String(fileName[fileName.index(after: dot)...])
            if let type = MIMEDatabase.resolving({ UTType(filenameExtension: ext) }, isKnown: { !$0.isDynamic }),
               !type.isDynamic,
               !isPlainText(type) {
                // A binary extension on text-like bytes (a ".png" that is really a note) is not
                // believed: the text family is offered instead, so nothing unpasteable is claimed.
                if sniffed.isTextLike && !type.conforms(to: .text) && sniffed.binaryMIMEType == nil
                    && !type.conforms(to: .xml) {
                    return nil
                }
                return type.preferredMIMEType ?? type.identifier
            }
        }
        return sniffed.binaryMIMEType
    }

    /// True for the plain-text types (the text family stands for them).
    static func isPlainText(_ type: UTType) -> Bool {
        type == .plainText || type == .utf8PlainText || type == .text
    }

    /// True when TYPE names plain text or one of the text-family targets.
    static func isTextFamily(_ name: TypeName) -> Bool {
        if let target = name.exactTarget { return TargetMapping.textTargets.contains(target) }
        return isPlainText(name.contentType)
    }
}
