// ClipBridge — the clipbridge command-line tool's option values.
// TYPE arguments: a MIME type, a uniform type identifier, an X target name, a filename extension, or
// one of a few generic words — the same everywhere (copy -t, --add, paste -t, type).

import ArgumentParser
import ClipBridge
import FoundationEssentials
import UniformTypes
import X11Selection

/// A type named on the command line.
///
/// The spelling decides how exact the name is (the rule wl-paste uses, §3.3 of architecture.md):
/// - a name with a `/` is a MIME type, and an all-upper-case name (`UTF8_STRING`, `PIXMAP`) is an X
///   target: both are used as that exact target when copying, and matched exactly when pasting;
/// - a uniform type identifier (`public.png`) or an extension (`png`, `.png`) names a type: copying
///   offers every target the type maps to, pasting picks the richest offered type that conforms;
/// - `text`, `image`, `audio`, `video`, `url` and `files` are generic words for those families.
public struct TypeName: ExpressibleByArgument, Sendable, CustomStringConvertible {
    /// What the user typed.
    public var text: String
    /// The type it means.
    public var contentType: UTType
    /// The exact X target, when the user named one (a MIME type or an X target name).
    public var exactTarget: SelectionTarget?

    public init?(argument: String) {
        guard let resolved = Self.resolve(argument) else { return nil }
        self = resolved
    }

    public init(text: String, contentType: UTType, exactTarget: SelectionTarget?) {
        self.text = text
        self.contentType = contentType
        self.exactTarget = exactTarget
    }

    public var description: String { text }

    public static var defaultCompletionKind: CompletionKind {
        .list(["text", "image", "text/plain", "text/html", "image/png", "image/jpeg", "application/json",
               "UTF8_STRING", "public.image", "public.plain-text"])
    }

    /// Generic words and what they stand for.
    public static let genericWords: [String: UTType] = [
        "text": .plainText, "image": .image, "audio": .audio, "video": .movie, "url": .url,
        "file": .fileURL, "files": .fileURL,
    ]

    /// Resolves a name, or nil when it means nothing known.
    public static func resolve(_ name: String) -> TypeName? {
        MIMEDatabase.resolving({ resolveNow(name) }, isKnown: { !$0.contentType.isDynamic })
    }

    private static func resolveNow(_ name: String) -> TypeName? {
        let trimmed = name.trimming { $0 == " " || $0 == "\t" }
        guard !trimmed.isEmpty else { return nil }
        // An X target name first: `TEXT` is the ICCCM target xclip users name (`xclip -o -t TEXT`), `text` the
        // generic word.
        if let generic = genericWords[trimmed.lowercased()], !isXTargetName(trimmed) {
            return TypeName(text: trimmed, contentType: generic, exactTarget: nil)
        }
        if trimmed.contains("/") || isXTargetName(trimmed) {
            let target = SelectionTarget(rawValue: trimmed)
            return TypeName(text: trimmed, contentType: TargetMapping.contentType(for: target), exactTarget: target)
        }
        if let type = TargetMapping.contentType(named: trimmed) {
            return TypeName(text: trimmed, contentType: type, exactTarget: nil)
        }
        // An identifier nothing declares (a custom type of another ClipBridge app): keep it, as the
        // bridge does for custom types without a MIME type (they travel by identifier).
        if trimmed.contains("."), !trimmed.hasPrefix("."), let type = UTType(identifier: trimmed, allowUndeclared: true) {
            return TypeName(text: trimmed, contentType: type, exactTarget: nil)
        }
        return nil
    }

    /// ICCCM target names are upper case with digits and underscores (STRING, UTF8_STRING, PIXMAP).
    public static func isXTargetName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The targets a copy offers for this name: the exact one, or every target the type maps to.
    public var copyTargets: [SelectionTarget] {
        exactTarget.map { [$0] } ?? TargetMapping.targets(for: contentType)
    }
}

/// When the machine's shared-mime-info database is read.
///
/// UniformTypes reads the system shared-mime-info database (a large XML parse) on its first lookup miss;
/// ClipBridge's static type tables miss on every start. The CLI turns that automatic read off for the whole
/// process and reads the database only when a name the user typed is not answered by the built-in tables, so
/// a plain copy or paste starts as fast as it can. Nothing is switched back on.
public enum MIMEDatabase {
    /// Turns automatic reading off; call before the libraries are used. (Not at process start: setting the
    /// flag builds UniformTypes' registry, which a bare `copy` parent or `--help` never needs.)
    public static func restrict() {
        UTType.loadsSystemSharedMIMEInfo = false
    }

    /// Answers `lookUp` from what is loaded; when that is nil, or `isKnown` says the answer is only a
    /// placeholder (a dynamic type), reads the system database once and asks again.
    ///
    /// Used where a name comes from the user (a TYPE argument, a file name to detect): knowing
    /// `application/vnd.oasis.opendocument.text` or the `.odt` extension is worth the parse there. Lookups
    /// the libraries make on their own (their static type tables) never trigger it: the parse costs far more
    /// than the whole `paste` of a short text.
    public static func resolving<Result>(_ lookUp: () -> Result?, isKnown: (Result) -> Bool) -> Result? {
        if let found = lookUp(), isKnown(found) { return found }
        UTType.loadSystemSharedMIMEInfo()
        return lookUp()
    }

    /// Reads the system database now (once per process), for commands that describe types in full.
    public static func load() {
        UTType.loadSystemSharedMIMEInfo()
    }
}
