/// A min-heap of deadlines with lazy cancellation: re-arming a key just pushes a new entry with a newer
/// generation, and stale entries are skipped when they surface. Bounds the loop's poll timeout.
struct DeadlineQueue<Key: Hashable & Sendable>: Sendable {
    private struct Entry: Sendable {
        var instant: ContinuousClock.Instant
        var key: Key
        var generation: UInt64
    }

    private var heap: [Entry] = []
    private var generations: [Key: UInt64] = [:]
    private var counter: UInt64 = 0

    /// Arms (or re-arms) `key` to fire at `instant`.
    mutating func arm(_ key: Key, at instant: ContinuousClock.Instant) {
        counter += 1
        generations[key] = counter
        push(Entry(instant: instant, key: key, generation: counter))
    }

    /// Disarms `key`.
    mutating func cancel(_ key: Key) {
        generations[key] = nil
    }

    /// The earliest live deadline.
    mutating func nextInstant() -> ContinuousClock.Instant? {
        dropStale()
        return heap.first?.instant
    }

    /// Removes and returns the keys whose deadline is at or before `now`.
    mutating func popExpired(now: ContinuousClock.Instant) -> [Key] {
        var expired: [Key] = []
        while true {
            dropStale()
            guard let first = heap.first, first.instant <= now else { break }
            popFirst()
            generations[first.key] = nil
            expired.append(first.key)
        }
        return expired
    }

    var isEmpty: Bool { generations.isEmpty }

    private mutating func dropStale() {
        while let first = heap.first, generations[first.key] != first.generation {
            popFirst()
        }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].instant < heap[parent].instant else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].instant < heap[smallest].instant { smallest = left }
            if right < heap.count && heap[right].instant < heap[smallest].instant { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
