// SPDX-License-Identifier: Apache-2.0
// ClipBridge — the converter registry and the cheapest-chain search

import FoundationEssentials
import UniformTypes

/// The converters a ``Clipboard`` may use on paste (when the owner lacks the asked type) and on copy (to widen
/// what is offered). Modelled on GTK's serializer registry (`gdk_content_register_serializer`), with chains.
public struct ConverterRegistry: Sendable {
    /// Every registered converter, in registration order.
    public private(set) var converters: [ContentConverter]

    /// Chains are at most this long; longer chains lose too much to be worth offering.
    public var maximumChainLength = 3

    /// A registry holding `converters`.
    public init(_ converters: [ContentConverter] = []) {
        self.converters = converters
    }

    /// Adds a converter; later registrations win ties against earlier ones of equal cost.
    public mutating func register(_ converter: ContentConverter) {
        converters.append(converter)
    }

    /// The cheapest chain from any of `offered` to a type that conforms to `destination`.
    ///
    /// Offered types are given richest first; among chains of equal cost the one starting from the richer
    /// offered type wins. A type that already conforms to `destination` gives an empty chain (cost 0).
    /// - Parameters:
    ///   - offered: the types on offer, richest first.
    ///   - destination: the type wanted.
    ///   - includePartial: whether partial converters (which only work for some inputs) may be used.
    public func cheapestChain(
        from offered: [UTType], to destination: UTType, includePartial: Bool = true
    )
        -> ConversionChain?
    {
        cheapestChains(from: offered, includePartial: includePartial) { $0.conforms(to: destination) }
    }

    /// Every type reachable from `offered` through non-partial chains, with its cheapest chain, in order of
    /// cost then of the source's richness. Offered types themselves are not included.
    public func reachableTypes(from offered: [UTType], includePartial: Bool = false) -> [ConversionChain] {
        var best: [UTType: (cost: Int, rank: Int, chain: ConversionChain)] = [:]
        search(from: offered, includePartial: includePartial) { node, chain, rank in
            guard !offered.contains(where: { $0.conforms(to: node) }), !chain.steps.isEmpty else { return }
            if let existing = best[node], (existing.cost, existing.rank) <= (chain.cost, rank) { return }
            best[node] = (chain.cost, rank, chain)
        }
        return best.values.sorted { ($0.cost, $0.rank) < ($1.cost, $1.rank) }.map(\.chain)
    }

    // MARK: - Search

    private func cheapestChains(
        from offered: [UTType], includePartial: Bool, satisfies: (UTType) -> Bool
    ) -> ConversionChain? {
        var winner: (cost: Int, rank: Int, chain: ConversionChain)?
        search(from: offered, includePartial: includePartial) { node, chain, rank in
            guard satisfies(node) else { return }
            if let current = winner, (current.cost, current.rank) <= (chain.cost, rank) { return }
            winner = (chain.cost, rank, chain)
        }
        return winner?.chain
    }

    /// Uniform-cost search over types; calls `visit` for every (type, cheapest chain so far, source rank).
    /// Graphs here are tiny (a dozen converters), so a sorted frontier array is plenty.
    private func search(
        from offered: [UTType], includePartial: Bool, visit: (UTType, ConversionChain, Int) -> Void
    ) {
        struct Entry {
            var node: UTType
            var chain: ConversionChain
            var rank: Int
        }
        var frontier = offered.enumerated().map {
            Entry(node: $1, chain: ConversionChain(source: $1, steps: []), rank: $0)
        }
        var settled: [UTType: (cost: Int, rank: Int)] = [:]
        while !frontier.isEmpty {
            frontier.sort {
                ($0.chain.cost, $0.rank, $0.chain.steps.count) < ($1.chain.cost, $1.rank, $1.chain.steps.count)
            }
            let entry = frontier.removeFirst()
            if let done = settled[entry.node], (done.cost, done.rank) <= (entry.chain.cost, entry.rank) { continue }
            settled[entry.node] = (entry.chain.cost, entry.rank)
            visit(entry.node, entry.chain, entry.rank)
            guard entry.chain.steps.count < maximumChainLength else { continue }
            for converter in converters.reversed() where converter.accepts(entry.node) {
                guard includePartial || !converter.isPartial else { continue }
                // Never convert back into a type already on this chain: a → b → a is never cheaper.
                guard converter.destination != entry.chain.source,
                    !entry.chain.steps.contains(where: { $0.destination == converter.destination })
                else { continue }
                let chain = ConversionChain(source: entry.chain.source, steps: entry.chain.steps + [converter])
                frontier.append(Entry(node: converter.destination, chain: chain, rank: entry.rank))
            }
        }
    }
}
