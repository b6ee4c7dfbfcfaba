import Glibc

extension ContinuousClock.Instant {
    /// The time left until this instant as a `poll(2)` timeout in milliseconds: 0 once it has passed,
    /// otherwise rounded up, so a wait never ends just before the deadline and spins. Package-wide: the
    /// CLI's waits use it too.
    package var pollTimeoutFromNow: Int32 {
        let remaining = ContinuousClock.now.duration(to: self)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}
