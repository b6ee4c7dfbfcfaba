// ClipBridge test support: waiting for a state another process reaches on its own.

/// Polls `condition` until it holds or `timeout` passes; for states another process reaches on its own (a server
/// releasing after --paste-once, a compositor's new offer), where there is no event to wait on. The pause between
/// polls grows from 1 ms to 20 ms: a state reached at once costs no wait, a slow one few polls. A cancelled
/// wait asks once more and returns.
public func eventually(
    timeout: Duration = .seconds(10), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    while ContinuousClock.now < deadline, !Task.isCancelled {
        if try await condition() { return true }
        try? await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(20))
    }
    return try await condition()
}
