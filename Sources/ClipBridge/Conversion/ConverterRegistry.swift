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
    /// cost then of the source's richness. Offered types themselves are not included, nor types an offered
    /// type already conforms to.
    ///
    /// Linear in the number of offered types: an X client chooses what it lists in TARGETS, and one listing a
    /// million distinct atoms must cost a million steps, not a million squared.
    public func reachableTypes(from offered: [UTType], includePartial: Bool = false) -> [ConversionChain] {
        var best: [UTType: (cost: Int, rank: Int, chain: ConversionChain)] = [:]
        // Built on the first converted type only (most offers reach few types): every offered type and every
        // type it conforms to, so "already offered" is one lookup instead of a pass over the offer.
        var covered: Set<UTType>?
        search(from: offered, includePartial: includePartial) { node, chain, rank in
            guard !chain.steps.isEmpty else { return }
            if covered == nil { covered = Self.conformanceClosure(of: offered) }
            guard covered?.contains(node) == false else { return }
            if let existing = best[node], (existing.cost, existing.rank) <= (chain.cost, rank) { return }
            best[node] = (chain.cost, rank, chain)
        }
        return best.values.sorted { ($0.cost, $0.rank) < ($1.cost, $1.rank) }.map(\.chain)
    }

    /// The types and all their supertypes: `closure.contains(t)` is "some type conforms to t".
    static func conformanceClosure(of types: [UTType]) -> Set<UTType> {
        var closure = Set<UTType>()
        for type in types where closure.insert(type).inserted {
            closure.formUnion(type.supertypes)
        }
        return closure
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

    /// One candidate of the search: a type reached by a chain from the offered type of rank `rank`.
    private struct Entry: Comparable {
        var node: UTType
        var chain: ConversionChain
        var cost: Int
        var rank: Int
        /// Insertion order, the last tie-breaker: converters are tried latest first, so on a tie the later
        /// registration wins, as ``register(_:)`` promises.
        var sequence: Int

        private var order: (Int, Int, Int, Int) { (cost, rank, chain.steps.count, sequence) }
        static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.order < rhs.order }
        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.order == rhs.order }
    }

    /// Uniform-cost search over types; calls `visit` for every (type, cheapest chain so far, source rank).
    ///
    /// Linear in the distinct offered types: each is expanded once (a repeated one only at its richest place).
    /// They are the search's first entries — cost 0, in rank order — so they are taken in turn from their list,
    /// and only converted types, a handful, go through the heap. A sorted array re-sorted per step, and a check
    /// of every offered type per visited one, made a peer listing 3,000 distinct atoms cost seconds.
    private func search(
        from offered: [UTType], includePartial: Bool, visit: (UTType, ConversionChain, Int) -> Void
    ) {
        var distinct = Set<UTType>(minimumCapacity: offered.count)
        var sources: [(rank: Int, type: UTType)] = []
        for (rank, type) in offered.enumerated() where distinct.insert(type).inserted { sources.append((rank, type)) }
        let usable = converters.reversed().filter { includePartial || !$0.isPartial }
        // The converters by the type they read: a type's candidates are found from its own few conformances
        // (one lookup per supertype) rather than by asking every converter.
        var readers: [String: [Int]] = [:]
        for (index, converter) in usable.enumerated() { readers[converter.source.registryKey, default: []].append(index) }
        var frontier = SearchFrontier<Entry>()
        // Sources take the sequence numbers 0..<count, in their order; converted entries the ones after.
        var sequence = sources.count
        var nextSource = 0
        var settled: [UTType: (cost: Int, rank: Int)] = [:]
        while true {
            let entry: Entry
            if nextSource < sources.count {
                let (rank, type) = sources[nextSource]
                let candidate = Entry(
                    node: type, chain: ConversionChain(source: type, steps: []), cost: 0, rank: rank, sequence: nextSource)
                if let converted = frontier.min, converted < candidate {
                    entry = frontier.popMin()!
                } else {
                    entry = candidate
                    nextSource += 1
                }
            } else if let converted = frontier.popMin() {
                entry = converted
            } else {
                return
            }
            if let done = settled[entry.node], (done.cost, done.rank) <= (entry.cost, entry.rank) { continue }
            settled[entry.node] = (entry.cost, entry.rank)
            visit(entry.node, entry.chain, entry.rank)
            guard entry.chain.steps.count < maximumChainLength else { continue }
            let conformances = entry.node.conformances
            var candidates: [Int] = []
            for key in conformances.keys { candidates += readers[key] ?? [] }
            // In the converters' order (latest registration first), as asking each in turn would find them.
            for index in candidates.sorted() where usable[index].accepts(conformances) {
                let converter = usable[index]
                // Never convert back into a type already on this chain: a → b → a is never cheaper.
                guard converter.destination != entry.chain.source,
                    !entry.chain.steps.contains(where: { $0.destination == converter.destination })
                else { continue }
                let chain = ConversionChain(source: entry.chain.source, steps: entry.chain.steps + [converter])
                frontier.insert(Entry(
                    node: converter.destination, chain: chain, cost: entry.cost + converter.cost, rank: entry.rank,
                    sequence: sequence))
                sequence += 1
            }
        }
    }
}
