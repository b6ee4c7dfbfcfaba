// SPDX-License-Identifier: Apache-2.0
// ClipBridge — converting kept content on the fly, as a clipboard manager serves it

import FoundationEssentials
import UniformTypes
import X11Selection

/// Applies ``ContentRule``s to what a clipboard manager kept, when it serves it: the rewriter of
/// `clipbridge daemon`'s keeper (`SelectionKeeper`), usable by any app that embeds one.
///
/// ```swift
/// let rewriter = ContentRewriter(rules: [.stripTracking, .widen])
/// let keeper = SelectionKeeper(connection: connection, rewriter: rewriter.rewriter)
/// ```
///
/// Text is read the way paste reads it (`UTF8_STRING` first, `STRING` as Latin-1, …) and written back under
/// the same targets in their encodings (`STRING` only while the text stays Latin-1). Flavours over
/// ``maximumBytes`` are never loaded: they are served as kept. Every change is reported as one line.
public struct ContentRewriter: Sendable {
    /// The rules applied (in `ContentRule.allCases` order).
    public var rules: Set<ContentRule>
    /// Query parameters removed by ``ContentRule/stripTracking`` besides the standard ones (`si`, `ref`, …).
    public var extraTrackingParameters: [String]
    /// The converters ``ContentRule/widen`` and ``ContentRule/plainText`` use.
    public var converters: ConverterRegistry
    /// The largest flavour read to be rewritten or converted (16 MiB by default); larger ones are served as
    /// kept.
    public var maximumBytes: Int = 16 << 20

    /// Creates a rewriter.
    /// - Parameters:
    ///   - rules: the rules to apply.
    ///   - extraTrackingParameters: parameter names ``ContentRule/stripTracking`` removes besides the standard ones.
    ///   - converters: the converters for ``ContentRule/widen`` and ``ContentRule/plainText``.
    public init(
        rules: Set<ContentRule>, extraTrackingParameters: [String] = [], converters: ConverterRegistry = .standard
    ) {
        self.rules = rules
        self.extraTrackingParameters = extraTrackingParameters
        self.converters = converters
    }

    /// This rewriter as a keeper's.
    public var rewriter: SelectionKeeper.Rewriter {
        let rewriter = self
        return { await rewriter.rewrite($0) }
    }

    typealias Rep = SelectionOffer.Representation

    /// The offer to serve for `snapshot`, and what was changed.
    public func rewrite(_ snapshot: SelectionSnapshot) async -> SelectionKeeper.Rewrite {
        var reps = snapshot.offer.representations
        var changes: [String] = []
        for rule in ContentRule.allCases where rules.contains(rule) {
            switch rule {
            case .stripTracking: stripTracking(&reps, changes: &changes)
            case .trimWhitespace: trimWhitespace(&reps, changes: &changes)
            case .plainText: plainText(&reps, changes: &changes)
            case .widen: if !rules.contains(.plainText) { await widen(&reps, changes: &changes) }
            }
        }
        return SelectionKeeper.Rewrite(offer: SelectionOffer(reps), changes: changes)
    }

    // MARK: - Rules

    private func stripTracking(_ reps: inout [Rep], changes: inout [String]) {
        let parameters = TrackingParameters.standard.adding(extraTrackingParameters)
        var removed: [String] = []
        func note(_ result: TrackingParameters.Result) -> String {
            for name in result.removed where !removed.contains(name) { removed.append(name) }
            return result.text
        }
        if let text = text(in: reps), let result = parameters.strip(text) {
            replaceText(&reps, with: note(result))
        }
        for (index, rep) in reps.enumerated() where Self.urlBearingTargets.contains(rep.target) {
            let html = rep.target == TargetMapping.html
            if let rewritten = rewritingText(of: rep, { parameters.strip($0, html: html).map(note) }) {
                reps[index] = rewritten
            }
        }
        if !removed.isEmpty { changes.append("strip-tracking: removed \(removed.joined(separator: ", "))") }
    }

    /// Targets besides the text family whose URLs ``ContentRule/stripTracking`` cleans.
    static let urlBearingTargets: Set<SelectionTarget> = [TargetMapping.html, TargetMapping.uriList, TargetMapping.mozURL]

    private func trimWhitespace(_ reps: inout [Rep], changes: inout [String]) {
        guard let text = text(in: reps), let trimmed = TrailingWhitespace.trimmed(text) else { return }
        replaceText(&reps, with: trimmed)
        changes.append("trim-whitespace: \(text.utf8.count - trimmed.utf8.count) bytes of trailing whitespace removed")
    }

    private func plainText(_ reps: inout [Rep], changes: inout [String]) {
        if text(in: reps) != nil {
            let dropped = reps.filter { !Self.isText($0) }.map(\.target.rawValue)
            guard !dropped.isEmpty else { return }
            reps.removeAll { !Self.isText($0) }
            changes.append("plain-text: dropped \(dropped.joined(separator: " "))")
            return
        }
        let offered = reps.map { TargetMapping.contentType(for: $0.target) }
        guard let chain = converters.cheapestChain(from: offered, to: .utf8PlainText), !chain.steps.isEmpty,
            let data = canonicalData(of: chain.source, in: reps), let converted = try? chain.apply(data)
        else {
            changes.append("plain-text: no text in the content and none could be made; served as kept")
            return
        }
        let dropped = reps.map(\.target.rawValue)
        reps = Widening.representations(of: .utf8PlainText, converted)
        changes.append("plain-text: text made by \(chain.steps.map(\.name).joined(separator: ", ")); dropped \(dropped.joined(separator: " "))")
    }

    private func widen(_ reps: inout [Rep], changes: inout [String]) async {
        let current = reps
        let additions = await Widening(converters: converters).additions(
            offered: current.map { TargetMapping.contentType(for: $0.target) },
            hasText: current.contains { $0.target == .utf8String }
        ) { canonicalData(of: $0, in: current) }
        for addition in additions {
            let targets = addition.representations.map(\.target).filter { target in !reps.contains { $0.target == target } }
            guard !targets.isEmpty else { continue }
            reps += addition.representations.filter { targets.contains($0.target) }
            changes.append(
                "widen: added \(targets.map(\.rawValue).joined(separator: " ")) (\(addition.chain.steps.map(\.name).joined(separator: ", ")))")
        }
        // Image formats, converted when an application asks (kept flavours up to maximumBytes).
        let rewriter = self
        let images =
            (try? await Widening(converters: converters).lazyAdditions(
                offered: current.map { TargetMapping.contentType(for: $0.target) },
                header: { rewriter.canonicalData(of: $0, in: current) },
                data: { type in
                    guard let data = rewriter.canonicalData(of: type, in: current) else {
                        throw ClipboardError(.conversionFailed, "the kept image is no longer readable")
                    }
                    return data
                })) ?? []
        let added = images.filter { image in !reps.contains { $0.target == image.target } }
        if !added.isEmpty {
            reps += added
            changes.append("widen: added \(added.map(\.target.rawValue).joined(separator: " ")) (converted on request)")
        }
    }

    // MARK: - Text

    /// True for the text family and `text/plain` with a charset: the targets paste reads text from.
    private static func isText(_ rep: Rep) -> Bool {
        TextReadOrder.rank(of: rep.target) != nil
    }

    /// The text of the offer, read as paste reads it (best text target first); nil when there is none, or
    /// none that decodes.
    private func text(in reps: [Rep]) -> String? {
        let candidates = reps.filter { Self.isText($0) && TargetMapping.codec(for: $0.target) != .bytes }
            .sorted { (TextReadOrder.rank(of: $0.target) ?? .max) < (TextReadOrder.rank(of: $1.target) ?? .max) }
        for rep in candidates {
            guard let data = bytes(of: rep),
                let canonical = TargetMapping.canonicalText(data, target: rep.target, propertyType: rep.type ?? rep.target),
                let text = TextDecoding.utf8(canonical)
            else { continue }
            return text
        }
        return nil
    }

    /// Every text target replaced by `text` in its encoding, in place. A target that cannot carry the new
    /// text (STRING with a character beyond Latin-1, a charset other than UTF-8) is dropped, never served stale.
    private func replaceText(_ reps: inout [Rep], with text: String) {
        var family: [SelectionTarget: Rep] = [:]
        for rep in OfferBuilder.textRepresentations(text) where family[rep.target] == nil { family[rep.target] = rep }
        reps = reps.compactMap { rep in
            guard Self.isText(rep) else { return rep }
            if let replacement = family[rep.target] { return replacement }
            guard TargetMapping.codec(for: rep.target) == .utf8Text else { return nil }
            return Rep(target: rep.target, type: rep.type, format: 8, source: .bytes(Data(text.utf8)))
        }
    }

    /// `rep` with its text transformed, in the encoding it had (UTF-8, or UTF-16 as Firefox writes HTML and
    /// `text/x-moz-url`); nil when it is unchanged, too large, or not text.
    private func rewritingText(of rep: Rep, _ transform: (String) -> String?) -> Rep? {
        guard let data = bytes(of: rep) else { return nil }
        let isUTF16 = TextDecoding.looksLikeUTF16(data)
        guard let text = isUTF16 ? TextDecoding.utf16(data) : TextDecoding.utf8(data), let changed = transform(text)
        else { return nil }
        var encoded = Data(changed.utf8)
        if isUTF16 {
            let hasBOM = data.prefix(2) == Data([0xFF, 0xFE]) || data.prefix(2) == Data([0xFE, 0xFF])
            // The decoded text starts with no mark; little-endian, as every X11 peer writes it.
            encoded = (hasBOM ? Data([0xFF, 0xFE]) : Data()) + TextDecoding.utf16LittleEndian(changed)
        }
        return Rep(target: rep.target, type: rep.type, format: rep.format, source: .bytes(encoded))
    }

    // MARK: - Bytes

    /// The canonical bytes of the first flavour of `type`, for a converter.
    private func canonicalData(of type: UTType, in reps: [Rep]) -> Data? {
        guard let rep = reps.first(where: { TargetMapping.contentType(for: $0.target) == type }),
            let data = bytes(of: rep)
        else { return nil }
        return TargetMapping.canonicalText(data, target: rep.target, propertyType: rep.type ?? rep.target)
    }

    /// A flavour's bytes, when it is at most ``maximumBytes``.
    private func bytes(of rep: Rep) -> Data? {
        switch rep.source {
        case .bytes(let data):
            return data.count <= maximumBytes ? data : nil
        case .file(let url):
            guard let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int,
                size <= maximumBytes
            else { return nil }
            return try? Data(contentsOf: url)
        case .openedFile(let file):
            guard let size = file.size, size <= maximumBytes else { return nil }
            return try? SelectionSnapshot.Content.opened(file).wholeBytes()
        case .provider, .relay:
            return nil
        }
    }
}
