// ClipBridge test support: waiting for a state another process reaches on its own.

/// Polls `condition` until it holds or `timeout` passes; for states another process reaches on its own (a server
/// releasing after --paste-once, a compositor's new offer), where there is no event to wait on.
public func eventually(timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
