import FoundationEssentials
import Synchronization

/// The private mode (`clipbridge history pause` / `resume`): a row of the database's `state` table, so every
/// process recording into this history sees it at its next copy.
extension HistoryStore {
    /// Until when recording is paused: `.distantFuture` for "until resumed", nil when it is not.
    public func pausedUntil(now: Date = Date()) throws -> Date? {
        let value = try database.withLock { database in
            try database.integer("SELECT coalesce((SELECT value FROM state WHERE key = 'paused_until'), 0)")
        }
        guard value != 0 else { return nil }
        let until = Self.date(value)
        return until > now ? until : nil
    }

    /// Pauses recording until `until` (`.distantFuture`: until ``resume()``). Every process recording into this
    /// history sees it at its next copy.
    public func pause(until: Date = .distantFuture) throws {
        try database.withLock { database in
            try database.run(
                "INSERT OR REPLACE INTO state (key, value) VALUES ('paused_until', ?)", [.integer(Self.milliseconds(until))])
        }
    }

    /// Records again.
    public func resume() throws {
        try database.withLock { database in try database.run("DELETE FROM state WHERE key = 'paused_until'") }
    }
}
