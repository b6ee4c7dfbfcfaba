extension Owner {
    /// A real server timestamp, fresh from the server (`XDisplay.requestServerTime(on:)`).
    func serverTime(on connection: isolated X11Connection) async throws -> X11Timestamp {
        let display = try connection.requireDisplay()
        let id = ids.next()
        display.requestServerTime(on: connection.window)
        connection.deadlines.arm(.owner(.timestamp(id)), at: .now + connection.configuration.readTimeout)
        return try await withCheckedThrowingContinuation { continuation in
            timestampWaiters.append((id, continuation))
        }
    }
}
