// SPDX-License-Identifier: Apache-2.0
// ClipBridge — which offered target a paste reads: one pure rule for every paste

import UniformTypes
import X11Selection

/// Which offered target a paste reads, given what the owner offers and what the caller asked for: one rule for
/// ``Clipboard/text()``, ``Clipboard/bestType(for:)``, `clipbridge paste` and its one-thread quick path, so
/// that all of them read the same target from the same offer.
///
/// Modelled on wl-paste's `mime_type_to_request` (wl-clipboard, `src/wl-paste.c`), made conformance-aware and
/// taught X11's text family:
///
/// | asked                    | wl-paste                                  | here                                             |
/// |--------------------------|-------------------------------------------|--------------------------------------------------|
/// | `text`                   | utf-8 text/plain, text/plain, any `text/` | the best text by meaning, else a conversion      |
/// | a MIME type or X name    | that exact type                           | that target as the owner wrote it, else a converter's under that name |
/// | a word (`image`)         | that exact type, else a prefixed one      | the richest offered type conforming, else a conversion |
/// | nothing, output file     | the file's type (then text, for text)     | the file's type, then as for nothing             |
/// | nothing                  | utf-8 text, text/plain, any text, any     | the best text, else the richest type offered     |
///
/// "The best text by meaning" is ``TargetMapping/preferredTextTarget(in:)``: `UTF8_STRING` and the UTF-8
/// `text/plain` first, then COMPOUND_TEXT, STRING, TEXT and bare `text/plain`, whatever the owner's order
/// (xsel lists TEXT first; GTK's bare `text/plain` is ASCII with escapes). It looks at names only, so a paste
/// of text decides without building the type registry.
public enum PasteLadder {
    /// What the caller asked for.
    public enum Request: Sendable, Hashable {
        /// Exactly this target (a MIME type or an X target name spelled out): offered under that name, read as the
        /// owner wrote it (``ClipboardType/isVerbatim``: STRING stays Latin-1), else made by a converter under that
        /// name (`image/png` from a JPEG-only owner).
        case target(SelectionTarget)
        /// The richest offered type conforming to this one (`.image` finds the first image the owner lists),
        /// else the cheapest conversion to it, partial ones included: the caller asked for this type. Plain
        /// and UTF-8 text rank the text family by meaning, as ``text`` does.
        case type(UTType)
        /// The best text: the same as `.type(.plainText)`.
        case text
        /// Nothing named: the type of the file the paste goes to (`inferred`: `-o page.html`) when the owner
        /// has it, else the best text, else the richest type offered (a password hint and KDE's cut flag are
        /// never pasted as content).
        case unspecified(inferred: UTType?)
    }

    /// The target to read for `request`, or nil when nothing offered fits.
    ///
    /// - Parameters:
    ///   - request: What the caller asked for.
    ///   - offered: The owner's TARGETS in its order (meta targets may be included; they are never chosen).
    ///   - converters: The converters a conversion may use; evaluated only when no offered target fits
    ///     (a paste of text never builds them).
    public static func choose(
        _ request: Request, offered: [SelectionTarget], converters: @autoclosure () -> ConverterRegistry
    ) -> ClipboardType? {
        switch request {
        case .target(let exact):
            // The owner's own target, named: its bytes as it wrote them (xclip's rule), never re-encoded.
            if offered.contains(exact), TargetMapping.isContentTarget(exact) { return .verbatim(exact) }
            // An X text target the owner does not offer (`-t STRING` from a UTF-8-only owner): its text, converted.
            if TargetMapping.textTargets.contains(exact), exact != .utf8String, bestText(in: offered) != nil {
                return choose(.type(TargetMapping.contentType(for: exact)), offered: offered, converters: converters())
            }
            let content = TargetMapping.contentTargets(in: offered)
            return Clipboard.types(for: content, converters: converters()).first { $0.isConverted && $0.target == exact }
        case .text:
            return choose(.type(.plainText), offered: offered, converters: converters())
        case .type(let wanted):
            if wanted == .plainText || wanted == .utf8PlainText, let text = bestText(in: offered),
                TargetMapping.target(text, satisfies: wanted)
            {
                return offeredType(text)
            }
            let content = TargetMapping.contentTargets(in: offered)
            if let target = content.first(where: { TargetMapping.target($0, satisfies: wanted) }) {
                return offeredType(target)
            }
            return conversion(to: wanted, from: content, converters: converters())
        case .unspecified(let inferred):
            if let inferred, !inferred.isDynamic,
                let chosen = choose(.type(inferred), offered: offered, converters: converters())
            {
                return chosen
            }
            if let text = choose(.text, offered: offered, converters: converters()) { return text }
            let notContent: Set<SelectionTarget> = [TargetMapping.passwordManagerHint, TargetMapping.kdeCutSelection]
            return TargetMapping.contentTargets(in: offered).first { !notContent.contains($0) }.map(offeredType)
        }
    }

    // MARK: - Rungs

    /// The text rung alone: the best text target offered, by meaning (UTF-8 first), found by the targets' names
    /// without the type registry when the X text family or a `text/plain…` name is offered. It is what the ladder
    /// answers for text and for an unspecified request whenever the owner offers text; the bare `clipbridge
    /// paste` asks only this rung, so its start-up builds no UTType.
    public static func bestText(in offered: [SelectionTarget]) -> SelectionTarget? {
        TargetMapping.preferredTextTarget(in: offered)
    }

    private static func offeredType(_ target: SelectionTarget) -> ClipboardType {
        ClipboardType(target: target, contentType: TargetMapping.contentType(for: target))
    }

    /// The cheapest chain from an offered type to `wanted` (partial converters included), from the richest
    /// target of its source type.
    private static func conversion(
        to wanted: UTType, from targets: [SelectionTarget], converters: ConverterRegistry
    ) -> ClipboardType? {
        let offeredTypes = targets.map(TargetMapping.contentType(for:))
        guard let chain = converters.cheapestChain(from: offeredTypes, to: wanted),
            let index = offeredTypes.firstIndex(of: chain.source)
        else { return nil }
        return ClipboardType(
            target: TargetMapping.targets(for: chain.destination)[0], contentType: chain.destination,
            convertedFrom: targets[index], through: chain)
    }
}
