import FoundationEssentials
import Synchronization
import SelectionCore

/// Which copies the history records — one pure decision, before anything is written.
///
/// Never recorded: content marked sensitive (the keeper reads nothing of an offer carrying
/// `x-kde-passwordManagerHint`, whatever its value — presence, the safest reading: arboard sets the target for
/// Bitwarden and 1Password, KeePassXC sets it to `secret`), a selection not asked for (PRIMARY only when
/// asked), a file manager's cut (pasting it again from the history would move files that moved already),
/// copies while paused, copies of an ignored application (by `WM_CLASS`, class or instance, without case), and
/// copies whose text an ignore pattern matches. The keeper hands the recorder every copy it kept and accepted;
/// this is the one place that decides what of it is recorded. (The store's own bounds — an empty copy, one over
/// `HistoryLimits.maximumEntryBytes` — are what it can hold, not a choice of what to record.)
public struct CapturePolicy: Sendable {
    /// The selections recorded.
    public var selections: Set<SelectionName>
    /// Applications whose copies are never recorded (`WM_CLASS` class or instance: `KeePassXC`, `Bitwarden`).
    public var ignoredApplications: [String]
    /// Patterns: a copy whose text one matches (anywhere) is never recorded.
    public var ignoredText: [TextPattern]

    /// A regular expression an ignore rule matches text with.
    public struct TextPattern: Sendable {
        /// As written.
        public let source: String
        private let compiled: Compiled

        /// The compiled expression, shared by copies of the pattern; `Regex` is not `Sendable`, so each use
        /// takes it under a lock.
        private final class Compiled: Sendable {
            let regex: Mutex<Regex<AnyRegexOutput>>
            init(_ regex: sending Regex<AnyRegexOutput>) { self.regex = Mutex(regex) }
        }

        /// Compiles `source` (Swift's regular expression syntax, a superset of POSIX extended and PCRE's common
        /// forms).
        /// - Throws: ``HistoryError`` naming the pattern and the syntax error.
        public init(_ source: String) throws {
            self.source = source
            do {
                compiled = Compiled(try Regex(source))
            } catch {
                throw HistoryError("the pattern '\(source)' is not a regular expression: \(error)")
            }
        }

        func matches(_ text: String) -> Bool {
            compiled.regex.withLock { regex in (try? regex.firstMatch(in: text)) != nil }
        }
    }

    /// Records CLIPBOARD only, every application, every text.
    public init(selections: Set<SelectionName> = [.clipboard], ignoredApplications: [String] = [],
                ignoredText: [TextPattern] = []) {
        self.selections = selections
        self.ignoredApplications = ignoredApplications
        self.ignoredText = ignoredText
    }

    /// Whether copies to `selection` are recorded at all (a daemon gives its other selections' keepers no
    /// recorder).
    public func records(_ selection: SelectionName) -> Bool {
        selections.contains(selection)
    }

    /// Why `copy` is not recorded, or nil when it is.
    /// - Parameters:
    ///   - copy: the copy.
    ///   - application: the copying application, when known.
    ///   - pausedUntil: until when recording is paused (nil: it is not).
    ///   - now: the time the pause is judged at.
    public func refusal(_ copy: CapturedCopy, application: WindowClass?, pausedUntil: Date?, now: Date = Date())
        -> String?
    {
        guard records(copy.selection) else { return "\(copy.selection) is not recorded" }
        if copy.isCut { return "a cut is not recorded (pasting it moves the files)" }
        if let pausedUntil, pausedUntil > now { return "recording is paused" }
        if let application, let name = ignoredApplications.first(where: { application.matches($0) }) {
            return "copies of \(name) are ignored"
        }
        if !copy.text.isEmpty, let pattern = ignoredText.first(where: { $0.matches(copy.text) }) {
            return "the text matches the ignore pattern '\(pattern.source)'"
        }
        return nil
    }
}
