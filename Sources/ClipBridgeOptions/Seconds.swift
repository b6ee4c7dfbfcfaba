// ClipBridge — the clipbridge command-line tool's option values.
// A positive, finite number of seconds: every --timeout, --exit-after and the daemon's timeouts.

import ArgumentParser

/// A time limit given in seconds, positive and finite: checked once, here, wherever it is written (an option,
/// the daemon's settings file), and turned into milliseconds or a `Duration` in one place.
public struct Seconds: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByArgument {
    /// The seconds; always positive and finite.
    public let value: Double

    /// Nil unless `value` is positive and finite.
    public init?(_ value: Double) {
        guard value > 0, value.isFinite else { return nil }
        self.value = value
    }

    /// Parses `1`, `0.5`, `2.5e0`; nil for anything that is not a positive, finite number.
    public init?(argument: String) {
        guard let value = Double(argument) else { return nil }
        self.init(value)
    }

    /// The whole milliseconds nearest the value (at least 1: a positive limit never becomes none).
    public var milliseconds: Int64 {
        max(1, Int64(min((value * 1000).rounded(), Double(Int64.max / 2))))
    }

    /// The value as a `Duration`, to the millisecond.
    public var duration: Duration { .milliseconds(milliseconds) }

    /// `5`, `0.25`: the shortest text that parses back to the same value.
    public var description: String {
        value == value.rounded() && value < 1e15 ? String(Int64(value)) : "\(value)"
    }

    public static func < (lhs: Seconds, rhs: Seconds) -> Bool { lhs.value < rhs.value }
}

extension Seconds {
    /// A literal known to be valid (`Seconds(5)` in defaults); traps on one that is not, a programming error.
    public init(_ literal: Int) {
        self.init(Double(literal))!
    }
}
