// SPDX-License-Identifier: Apache-2.0
// ClipBridge — the rules a clipboard manager applies to content it serves

/// A rule ``ContentRewriter`` applies to kept content when a clipboard manager serves it (`clipbridge
/// daemon --rule`). Rules apply in the order of `allCases`, whatever order they were given in: first the
/// text is cleaned, then flavours are dropped, then added.
public enum ContentRule: String, Sendable, Hashable, CaseIterable {
    /// Removes tracking parameters (`utm_*`, `fbclid`, `gclid`, … and any the user adds) from the URLs in
    /// the text, the URL lists and the HTML. The original flavours are replaced: keeping them would keep
    /// the trackers.
    case stripTracking = "strip-tracking"
    /// Removes trailing spaces and tabs from every line of the text, and trailing blank lines and newline.
    /// The text flavours are replaced; HTML and other flavours are kept as they are.
    case trimWhitespace = "trim-whitespace"
    /// Paste as plain text: serves only the text family, dropping HTML, images and every other flavour; when
    /// the content has no text, it serves the text the converters make (HTML → text, a URL list → paths,
    /// a colour → `#rrggbb`). Content with no text to make is served as kept.
    case plainText = "plain-text"
    /// Widens the offer with what the converters make from it: text from HTML, URL lists or a colour,
    /// `x-special/gnome-copied-files` from a file URL list and back, `application/x-color` from `#rrggbb`
    /// text. Every original flavour is kept, first and in its order. Ignored with ``plainText``.
    case widen
}
