// ClipBridge — the clipbridge command-line tool's option values.
// What `clipbridge daemon` runs with, and the table of its settings.

import ClipBridge
import Logging
import X11Selection

/// The daemon's settings: the defaults, then the settings file, then the command line. Every setting is a
/// ``DaemonSetting`` in ``all``: each long option of `clipbridge daemon` (but `--config`, `--check-config`,
/// `--status` and `--display`) is also a key of the file, spelled the same without its dashes.
public struct DaemonSettings: Sendable, Equatable {
    // One field per setting, starting from its default; each is described by its setting below (the
    // `DaemonSetting` of the same name), which is where options, keys and checks are declared.
    public var selection: [SelectionChoice] = Self.selection.defaultValue
    public var maxFlavourSize: Int = Self.maxFlavourSize.defaultValue
    public var maxSize: Int = Self.maxSize.defaultValue
    public var maxFlavours: Int = Self.maxFlavours.defaultValue
    public var keepType: [TypePattern] = Self.keepType.defaultValue
    public var timeout: Seconds = Self.timeout.defaultValue
    public var sync: SyncDirection? = Self.sync.defaultValue
    public var validate: String? = Self.validate.defaultValue
    public var validateTimeout: Seconds = Self.validateTimeout.defaultValue
    public var rule: [ContentRule] = Self.rule.defaultValue
    public var stripParameter: [String] = Self.stripParameter.defaultValue
    public var logLevel: Logger.Level = Self.logLevel.defaultValue
    public var replace: Bool = Self.replace.defaultValue
    public var noManager: Bool = Self.noManager.defaultValue
    public var noHistory: Bool = Self.noHistory.defaultValue
    public var historyPrimary: Bool = Self.historyPrimary.defaultValue
    public var historyEntries: Int = Self.historyEntries.defaultValue
    public var historySize: Int = Self.historySize.defaultValue
    public var historyIgnoreApp: [String] = Self.historyIgnoreApp.defaultValue
    public var historyIgnoreText: [String] = Self.historyIgnoreText.defaultValue
    public var historyDirectory: String? = Self.historyDirectory.defaultValue
    public var historyEncrypt: Bool = Self.historyEncrypt.defaultValue
    public var historyKeyCommand: String? = Self.historyKeyCommand.defaultValue

    /// The defaults.
    public init() {}

    /// The sizes `max-size` and `max-flavour-size` take, in MiB (up to 1 TiB, so bytes never overflow).
    public static let sizes = 1...(1 << 20)

    /// The counts `max-flavours` takes.
    public static let flavourCounts = 1...(1 << 20)

    // MARK: - The settings, in the order `--check-config` writes them

    /// `-s`/`--selection`, `selection:`: the selections kept.
    public static let selection = DaemonSetting.list(
        "selection", \.selection, .selection, default: [.clipboard],
        help: "A selection to keep: clipboard, primary or secondary. Repeatable.", valueName: "selection",
        short: "s", nonEmpty: true)
    /// `--max-flavour-size`, `max-flavour-size:`: the largest flavour kept, in MiB.
    public static let maxFlavourSize = DaemonSetting.one(
        "max-flavour-size", \.maxFlavourSize, .integer("a size in MiB", sizes, noun: "a size", unit: " MiB"),
        default: 256, help: "The largest flavour kept, in MiB.", valueName: "mib")
    /// `--max-size`, `max-size:`: the most kept of one copy, in MiB.
    public static let maxSize = DaemonSetting.one(
        "max-size", \.maxSize, .integer("a size in MiB", sizes, noun: "a size", unit: " MiB"),
        default: 512, help: "The most kept of one copy, in MiB.", valueName: "mib")
    /// `--max-flavours`, `max-flavours:`: the most flavours read of one copy.
    public static let maxFlavours = DaemonSetting.one(
        "max-flavours", \.maxFlavours, .integer("a number of flavours", flavourCounts, noun: "a number of flavours"),
        default: 256,
        help: "The most flavours (targets) read of one copy, in the owner's order; the rest are not kept.",
        valueName: "count")
    /// `--keep-type`, `keep-type:`: the types kept (none: every type).
    public static let keepType = DaemonSetting.list(
        "keep-type", \.keepType, .typePattern,
        help: "Keep only targets of this type: text, image, text/html, UTF8_STRING, public.image, or a name with * (image/*). Repeatable.",
        valueName: "type", defaultNote: "every type")
    /// `--timeout`, `timeout:`: the wait for each of an owner's answers.
    public static let timeout = DaemonSetting.one(
        "timeout", \.timeout, .seconds, default: Seconds(5),
        help: "Seconds to wait for each of an owner's answers.", valueName: "seconds")
    /// `--sync`, `sync:`: which way a new selection is copied to the other, if any.
    public static let sync = DaemonSetting.optional(
        "sync", \.sync, .direction,
        help: "Copy each new selection to the other: primary-to-clipboard, clipboard-to-primary or both (autocutsel).",
        valueName: "direction")
    /// `--validate`, `validate:`: the command that vets each new clipboard content, if any.
    public static let validate = DaemonSetting.optional(
        "validate", \.validate,
        .text("a shell command", check: { $0.allSatisfy(\.isWhitespace) ? "the command is empty" : nil }),
        help: "A command that vets each new clipboard content (text on stdin): exit 0 accepts, 1 restores the previous content, 2 clears.",
        valueName: "command")
    /// `--validate-timeout`, `validate-timeout:`: how long the `validate` command may take.
    public static let validateTimeout = DaemonSetting.one(
        "validate-timeout", \.validateTimeout, .seconds, default: Seconds(2),
        help: "Seconds the --validate command may take, then it is killed and the change accepted.", valueName: "seconds")
    /// `--rule`, `rule:` (or `rules:`): the rules applied to kept content when it is served.
    public static let rule = DaemonSetting.list(
        "rule", \.rule, .rule,
        help: "A rule applied to kept content when the daemon serves it: strip-tracking, trim-whitespace, plain-text or widen. Repeatable.",
        valueName: "rule", aliases: ["rules"])
    /// `--strip-parameter`, `strip-parameter:`: query parameters strip-tracking removes besides its own.
    public static let stripParameter = DaemonSetting.list(
        "strip-parameter", \.stripParameter,
        .text("a query parameter name", check: { name in
            name.isEmpty || name.contains("=") || name.contains("&")
                ? "expected a query parameter name (without = or &), found '\(name)'" : nil
        }),
        help: "A query parameter strip-tracking removes besides the standard ones (utm_*, fbclid, gclid, …). Repeatable.",
        valueName: "name")
    /// `--log-level`, `log-level:`: the least important event logged.
    public static let logLevel = DaemonSetting.one(
        "log-level", \.logLevel, .logLevel, default: .info,
        help: "trace, debug, info, notice, warning, error or critical.", valueName: "level")
    /// `--replace`, `replace:`: take over from a running clipboard manager.
    public static let replace = DaemonSetting.one(
        "replace", \.replace, .flag, default: false,
        help: "Take over from a running clipboard manager (ICCCM manager selection).", valueName: "flag",
        defaultNote: "")
    /// `--no-manager`, `no-manager:`: do not be the clipboard manager.
    public static let noManager = DaemonSetting.one(
        "no-manager", \.noManager, .flag, default: false,
        help: "Do not be the clipboard manager (no SAVE_TARGETS): keep content alive only.", valueName: "flag",
        defaultNote: "")

    /// `--no-history`, `no-history:`: record no history.
    public static let noHistory = DaemonSetting.one(
        "no-history", \.noHistory, .flag, default: false,
        help: "Record no clipboard history (clipbridge history).", valueName: "flag", defaultNote: "")
    /// `--history-primary`, `history-primary:`: record PRIMARY copies too.
    public static let historyPrimary = DaemonSetting.one(
        "history-primary", \.historyPrimary, .flag, default: false,
        help: "Record PRIMARY selections in the history too (when kept: -s primary).", valueName: "flag", defaultNote: "")
    /// `--history-entries`, `history-entries:`: the most entries the history keeps.
    public static let historyEntries = DaemonSetting.one(
        "history-entries", \.historyEntries, .integer("a number of entries", 1...10_000_000, noun: "a number of entries"),
        default: 1000, help: "The most entries the history keeps; the oldest unpinned go first.", valueName: "count")
    /// `--history-size`, `history-size:`: the most the history keeps, in MiB.
    public static let historySize = DaemonSetting.one(
        "history-size", \.historySize, .integer("a size in MiB", sizes, noun: "a size", unit: " MiB"),
        default: 1024, help: "The most the history keeps, every entry together, in MiB.", valueName: "mib")
    /// `--history-ignore-app`, `history-ignore-app:`: applications whose copies are never recorded.
    public static let historyIgnoreApp = DaemonSetting.list(
        "history-ignore-app", \.historyIgnoreApp,
        .text("an application's WM_CLASS", check: { $0.isEmpty ? "the application name is empty" : nil }),
        help: "Never record copies of this application (its WM_CLASS class or instance, any case: KeePassXC). Repeatable.",
        valueName: "class")
    /// `--history-ignore-text`, `history-ignore-text:`: patterns of text never recorded.
    public static let historyIgnoreText = DaemonSetting.list(
        "history-ignore-text", \.historyIgnoreText,
        .text("a regular expression", check: { pattern in
            do { _ = try Regex(pattern); return nil } catch { return "'\(pattern)' is not a regular expression: \(error)" }
        }),
        help: "Never record a copy whose text this regular expression matches (anywhere in it). Repeatable.",
        valueName: "regex")
    /// `--history-directory`, `history-directory:`: where the history lives.
    public static let historyDirectory = DaemonSetting.optional(
        "history-directory", \.historyDirectory,
        .text("a directory", check: { $0.hasPrefix("/") ? nil : "expected an absolute path, found '\($0)'" }),
        help: "Where the history lives (default: $XDG_DATA_HOME/clipbridge).", valueName: "path")
    /// `--history-encrypt`, `history-encrypt:`: encrypt the history, its key in the Secret Service.
    public static let historyEncrypt = DaemonSetting.one(
        "history-encrypt", \.historyEncrypt, .flag, default: false,
        help: "Encrypt the history at rest with a key kept in the Secret Service (GNOME Keyring, KeePassXC; made on "
            + "first use, through secret-tool).", valueName: "flag", defaultNote: "")
    /// `--history-key-command`, `history-key-command:`: encrypt the history with the key a command prints.
    public static let historyKeyCommand = DaemonSetting.optional(
        "history-key-command", \.historyKeyCommand,
        .text("a shell command", check: { $0.allSatisfy(\.isWhitespace) ? "the command is empty" : nil }),
        help: "Encrypt the history at rest with the key this shell command prints (pass show clipbridge).",
        valueName: "command")

    /// Every setting, in the order `--check-config` writes them.
    public static let all: [any AnyDaemonSetting] = [
        selection, maxFlavourSize, maxSize, maxFlavours, keepType, timeout, sync, validate, validateTimeout,
        rule, stripParameter, logLevel, replace, noManager, noHistory, historyPrimary, historyEntries, historySize,
        historyIgnoreApp, historyIgnoreText, historyDirectory, historyEncrypt, historyKeyCommand,
    ]

    // MARK: - Derived

    /// The kept selections, in the order given, without duplicates.
    public var selections: [SelectionName] {
        var seen = Set<SelectionName>()
        return selection.map(\.name).filter { seen.insert($0).inserted }
    }
}
