/// Why this client listens to events of other clients' windows, and the event mask that follows.
///
/// X keeps one event mask per window *and client*: `XSelectInput` replaces it. The owner side watches a
/// requestor's window during an INCR transfer (PropertyNotify to send the next chunk, DestroyNotify to drop
/// it, ICCCM 2.7.2); the requestor side watches an owner's window while it waits on it (DestroyNotify:
/// "owner gone"). One window can be both — a client reading from us while we read from it — so the reasons
/// are counted here and the mask is their union.
struct WindowInterests: Sendable {
    enum Interest: Sendable {
        /// A requestor of one of our INCR transfers: PropertyNotify and StructureNotify.
        case requestor
        /// The owner of one of our reads: StructureNotify.
        case owner
    }

    struct Mask: Sendable, Equatable {
        var propertyChanges: Bool
        var structureChanges: Bool
    }

    private var counts: [X11Window: (requestor: Int, owner: Int)] = [:]

    /// Whether any interest in `window` is counted.
    func contains(_ window: X11Window) -> Bool { counts[window] != nil }

    /// The mask the counted interests in `window` need.
    func mask(of window: X11Window) -> Mask {
        let count = counts[window] ?? (0, 0)
        return Mask(propertyChanges: count.requestor > 0, structureChanges: count.requestor > 0 || count.owner > 0)
    }

    /// Counts one more `interest` in `window`; the new mask when it changed (select it), else nil.
    mutating func add(_ interest: Interest, on window: X11Window) -> Mask? {
        let before = mask(of: window)
        var count = counts[window] ?? (0, 0)
        switch interest {
        case .requestor: count.requestor += 1
        case .owner: count.owner += 1
        }
        counts[window] = count
        let after = mask(of: window)
        return after == before ? nil : after
    }

    /// Counts one `interest` in `window` less; the new mask when it changed (select it), else nil.
    mutating func remove(_ interest: Interest, on window: X11Window) -> Mask? {
        guard var count = counts[window] else { return nil }
        let before = mask(of: window)
        switch interest {
        case .requestor: count.requestor = max(0, count.requestor - 1)
        case .owner: count.owner = max(0, count.owner - 1)
        }
        counts[window] = count.requestor == 0 && count.owner == 0 ? nil : count
        let after = mask(of: window)
        return after == before ? nil : after
    }

    /// Forgets `window` (it was destroyed: there is no mask left to change).
    mutating func forget(_ window: X11Window) { counts[window] = nil }
}
