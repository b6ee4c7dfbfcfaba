// SPDX-License-Identifier: Apache-2.0
// ClipBridge — the converter search's frontier

/// A binary min-heap: the frontier of ``ConverterRegistry``'s cheapest-chain search. An offer may hold a
/// million distinct types, so taking the next candidate must cost O(log n), not a sort of the whole frontier.
struct SearchFrontier<Element: Comparable> {
    private var elements: [Element] = []

    var isEmpty: Bool { elements.isEmpty }

    /// The smallest element, left in place.
    var min: Element? { elements.first }

    /// Adds an element.
    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest element; nil when empty. Among equal elements the order is unspecified.
    mutating func popMin() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let smallest = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var least = parent
            if left < elements.count, elements[left] < elements[least] { least = left }
            if right < elements.count, elements[right] < elements[least] { least = right }
            guard least != parent else { return smallest }
            elements.swapAt(parent, least)
            parent = least
        }
    }
}
