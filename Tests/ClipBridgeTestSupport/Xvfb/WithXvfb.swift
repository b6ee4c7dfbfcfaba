// ClipBridge test support: run a block of code with a private X server.

/// Starts an `XvfbServer`, runs `body` with it (also as `XvfbServer.current`), then stops the server whether
/// `body` returned or threw. `body` runs in the caller's isolation, so it may capture non-Sendable state.
///
/// ```swift
/// try await withXvfb { server in
///     let result = try await runPeer(["xclip", "-o"], display: server.display)
/// }
/// ```
public func withXvfb<Result>(
    screen: String = "1280x800x24",
    isolation: isolated (any Actor)? = #isolation,
    _ body: (XvfbServer) async throws -> Result
) async throws -> Result {
    let server = try await XvfbServer.start(screen: screen)
    let result: Result
    do {
        result = try await XvfbServer.$current.withValue(server) { try await body(server) }
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
    return result
}
