// SPDX-License-Identifier: Apache-2.0
// ClipBridge — options of one copy

/// Options for one copy.
public struct CopyOptions: Sendable, Equatable {
    /// Marks the copy sensitive (a password): it offers `x-kde-passwordManagerHint` = `secret` (the KDE
    /// convention Klipper, CopyQ and cliphist honour), is never handed to a clipboard manager, and watchers
    /// see `isSensitive`.
    public var isSensitive: Bool
    /// Also offers what the converters can make from the content, after the content's own targets: the text
    /// family for JSON, CSV, HTML, URL lists and colors; gnome-copied-files for file URL lists; x-color for
    /// text that is a `#rrggbb` color. Only conversions that succeed for this content are offered.
    public var widensWithConverters: Bool

    /// Creates options.
    public init(isSensitive: Bool = false, widensWithConverters: Bool = true) {
        self.isSensitive = isSensitive
        self.widensWithConverters = widensWithConverters
    }
}
