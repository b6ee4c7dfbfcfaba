extension X11Connection {
    /// A real server timestamp, fresh from the server (`XDisplay.requestServerTime(on:)`).
    func serverTime() async throws -> X11Timestamp {
        let display = try requireDisplay()
        let id = nextID()
        display.requestServerTime(on: window)
        deadlines.arm(.owner(.timestamp(id)), at: .now + configuration.readTimeout)
        return try await withCheckedThrowingContinuation { continuation in
            owner.timestampWaiters.append((id, continuation))
        }
    }
}
