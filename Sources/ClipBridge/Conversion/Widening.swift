// SPDX-License-Identifier: Apache-2.0
// ClipBridge — what converters add to an offer

import FoundationEssentials
import UniformTypes
import X11Selection

/// Widening an offer: the targets other applications look for that the content lacks, made by the cheapest
/// converter chain from what it has, and offered only when the conversion succeeds for this very content
/// (so every advertised target is servable). Used by a copy (``CopyOptions``) and by the daemon's `widen`
/// rule on kept content (``ContentRewriter``).
///
/// The destinations, in this order: the text family (terminals, editors), `x-special/gnome-copied-files`
/// (file managers), `text/uri-list`, `application/x-color`.
struct Widening {
    var converters: ConverterRegistry

    static let destinations: [UTType] = [.utf8PlainText, TargetMapping.gnomeCopiedFilesType, .url, TargetMapping.colorType]

    /// One destination added.
    struct Addition {
        /// The chain that made it.
        var chain: ConversionChain
        /// Its representations (the whole text family for text).
        var representations: [SelectionOffer.Representation]
    }

    /// The additions to an offer of `offered` types (richest first); `hasText` says whether the text family
    /// is offered already. `canonicalData` gives an offered type's canonical bytes, nil when they are not
    /// worth converting.
    func additions(
        offered offeredTypes: [UTType], hasText: Bool, canonicalData: (UTType) async throws -> Data?
    ) async rethrows -> [Addition] {
        var offered = offeredTypes
        var additions: [Addition] = []
        for destination in Self.destinations {
            // Text is satisfied by the text family itself, not by a type that merely conforms to plain text
            // (CSV, source code): `clipbridge copy -t text/csv` must still paste in a terminal.
            if destination == .utf8PlainText {
                guard !hasText else { continue }
            } else {
                guard !offered.contains(where: { $0.conforms(to: destination) }) else { continue }
            }
            // Paths typed as text must not turn into files a file manager would paste: text never widens to URLs.
            let sources = offered.filter { !(destination == .url && $0.conforms(to: .plainText)) }
            guard let chain = converters.cheapestChain(from: sources, to: destination), !chain.steps.isEmpty,
                let data = try await canonicalData(chain.source),
                let converted = try? chain.apply(data)
            else { continue }
            additions.append(Addition(chain: chain, representations: Self.representations(of: destination, converted)))
            offered.append(destination)
        }
        return additions
    }

    /// The image formats ``ImageConverters/destinations`` the content lacks, offered lazily: the cheapest
    /// chain of lazy converters from an offered image type, admitted by its first step's header check on the
    /// source's leading bytes (`header`), converted when an application asks — the engine caches the result
    /// for the rest of the claim. `data` gives an offered type's full canonical bytes.
    func lazyAdditions(
        offered: [UTType], header: (UTType) async throws -> Data?,
        data: @escaping @Sendable (UTType) async throws -> Data
    ) async rethrows -> [SelectionOffer.Representation] {
        let sources = offered.filter { $0.conforms(to: .image) }
        guard !sources.isEmpty else { return [] }
        var headers: [UTType: Data] = [:]
        var additions: [SelectionOffer.Representation] = []
        for destination in ImageConverters.destinations where !offered.contains(where: { $0.conforms(to: destination) }) {
            guard let chain = converters.cheapestChain(from: sources, to: destination, includePartial: false),
                let first = chain.steps.first, chain.steps.allSatisfy(\.isLazy), let check = first.headerCheck
            else { continue }
            if headers[chain.source] == nil { headers[chain.source] = try await header(chain.source) }
            guard let leading = headers[chain.source], check(leading) else { continue }
            let source = chain.source
            let target = TargetMapping.targets(for: destination)[0]
            additions.append(OfferBuilder.rep(target, .provider { try chain.apply(try await data(source)) }))
        }
        return additions
    }

    /// The representations of converted content: text as the whole family, a URL list as `text/uri-list`,
    /// anything else under its type's first target in that target's format.
    static func representations(of destination: UTType, _ converted: Data) -> [SelectionOffer.Representation] {
        switch destination {
        case .utf8PlainText:
            return OfferBuilder.textRepresentations(String(decoding: converted, as: UTF8.self))
        case .url:
            return [OfferBuilder.rep(TargetMapping.uriList, .bytes(converted))]
        default:
            return [OfferBuilder.rep(TargetMapping.targets(for: destination)[0], .bytes(converted))]
        }
    }
}
