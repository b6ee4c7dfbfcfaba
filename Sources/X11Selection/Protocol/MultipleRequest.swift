/// MULTIPLE (ICCCM 2.6.2): the parameter property holds (target, property) atom pairs of type ATOM_PAIR.
/// The owner converts each pair, writes None over the property of each failed pair, and sends one
/// SelectionNotify when all are done.
struct MultipleRequest: Sendable, Equatable {
    /// The most pairs an owner converts in one MULTIPLE request; a larger request is refused whole. GTK and
    /// Qt ask for a handful, a clipboard manager for every target of an offer (tens); the count is the
    /// requestor's to choose, and each pair costs the owner a conversion and a property write.
    static let maximumPairs = 16384

    struct Pair: Sendable, Equatable {
        var target: X11Atom
        var property: X11Atom
    }

    /// The pairs in request order.
    private(set) var pairs: [Pair]
    /// Which pairs failed (written back as None).
    private(set) var failed: Set<Int> = []
    /// Conversions not finished yet (GTK's pending-notify counter).
    private(set) var pending: Int

    /// Parses the parameter property's items (format 32). An odd trailing atom is ignored (as GTK does).
    init(items: [UInt]) {
        var pairs: [Pair] = []
        var index = 0
        while index + 1 < items.count {
            pairs.append(Pair(target: X11Atom(rawValue: items[index]), property: X11Atom(rawValue: items[index + 1])))
            index += 2
        }
        self.pairs = pairs
        pending = pairs.count
    }

    /// Pairs the owner must not convert: a nested MULTIPLE (ICCCM forbids recursion), or a property None
    /// (a MULTIPLE pair must name a property). These are marked failed right away.
    mutating func rejectInvalid(multipleAtom: X11Atom) -> [Int] {
        var rejected: [Int] = []
        for (index, pair) in pairs.enumerated() where pair.target == multipleAtom || pair.property.isNone {
            rejected.append(index)
            complete(index, success: false)
        }
        return rejected
    }

    /// Records the outcome of one pair. Returns true when this was the last pending one.
    @discardableResult
    mutating func complete(_ index: Int, success: Bool) -> Bool {
        guard pairs.indices.contains(index), pending > 0 else { return pending == 0 }
        if !success { failed.insert(index) }
        pending -= 1
        return pending == 0
    }

    var isComplete: Bool { pending == 0 }

    /// The items to write back: failed pairs get property None (ICCCM 2.6.2).
    var writeBackItems: [UInt] {
        var items: [UInt] = []
        items.reserveCapacity(pairs.count * 2)
        for (index, pair) in pairs.enumerated() {
            items.append(pair.target.rawValue)
            items.append(failed.contains(index) ? 0 : pair.property.rawValue)
        }
        return items
    }

    /// Parses the owner's write-back on the requestor side: the properties left non-None succeeded.
    static func succeededProperties(writeBack items: [UInt]) -> Set<X11Atom> {
        var result = Set<X11Atom>()
        var index = 0
        while index + 1 < items.count {
            if items[index + 1] != 0 { result.insert(X11Atom(rawValue: items[index + 1])) }
            index += 2
        }
        return result
    }
}
