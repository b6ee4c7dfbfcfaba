// ClipBridge — the clipbridge command-line tool's option values.
// `--keep-type`: which of an owner's targets the daemon keeps.

import ArgumentParser
import ClipBridge
import Glibc
import UniformTypes
import X11Selection

/// A type as `--keep-type` takes it: a ``TypeName`` (`text`, `image`, `text/html`, `UTF8_STRING`,
/// `public.image`, `png`), which keeps the targets of that type or of a type conforming to it (`image` keeps
/// `image/png` and `image/jpeg`; `text` the whole text family), or a name with `*` wildcards matched against
/// target names, ignoring case (`image/*`, `application/x-kde-*`).
public struct TypePattern: ExpressibleByArgument, Sendable, Equatable, CustomStringConvertible {
    /// What the user typed.
    public let text: String
    private let type: TypeName?

    public init?(argument: String) {
        text = argument
        if argument.contains("*") {
            type = nil
        } else if let resolved = TypeName.resolve(argument) {
            type = resolved
        } else {
            return nil
        }
    }

    public var description: String { text }

    public static func == (lhs: TypePattern, rhs: TypePattern) -> Bool { lhs.text == rhs.text }

    /// Whether `target` is of this type, or matches this wildcard name.
    public func matches(_ target: SelectionTarget) -> Bool {
        guard let type else { return fnmatch(text.lowercased(), target.rawValue.lowercased(), 0) == 0 }
        if let exact = type.exactTarget { return exact == target }
        return TargetMapping.contentType(for: target).conforms(to: type.contentType)
    }

    /// A snapshot's target filter keeping what any of `patterns` matches; nil when there are none (keep all).
    public static func filter(_ patterns: [TypePattern]) -> (@Sendable (SelectionTarget) -> Bool)? {
        guard !patterns.isEmpty else { return nil }
        return { @Sendable target in patterns.contains { $0.matches(target) } }
    }
}
