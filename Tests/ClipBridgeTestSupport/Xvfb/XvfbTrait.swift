// ClipBridge test support: the `.xvfb` trait, which gives a suite (or a test) its own X server.

import Glibc
import Testing

/// Gives each suite it is attached to its own `XvfbServer`, available as `XvfbServer.current` inside it.
///
/// The trait is not recursive: a suite gets one server shared by its tests (they run in parallel against it,
/// each on its own connections), and different suites get different servers, so suites run in parallel
/// without `.serialized`. Attached to a single test, that test gets its own server.
///
/// ```swift
/// @Suite(.xvfb, .timeLimit(.minutes(1)))
/// struct OwnerTests {
///     @Test func xclipReadsWhatWeOwn() async throws {
///         let server = try #require(XvfbServer.current)
///         ...
///     }
/// }
/// ```
public struct XvfbTrait: SuiteTrait, TestTrait, TestScoping {
    /// The `-screen 0` geometry passed to the server.
    public var screen: String

    /// A trait starting servers with `screen` as geometry and depth.
    public init(screen: String = "1280x800x24") {
        self.screen = screen
    }

    /// One server per suite, not per test.
    public var isRecursive: Bool { false }

    /// Starts a server, runs the suite or test with it as `XvfbServer.current`, and stops it afterwards
    /// (also when the body throws).
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        _ = Self.brokenPipesIgnored
        try await withXvfb(screen: screen) { _ in try await function() }
    }

    /// The test process talks to X servers its tests kill and to peers that exit: a write to either must be an
    /// error the test sees (EPIPE), not a SIGPIPE that ends every test in the process at once (seen once in a
    /// clean-clone CI run: "exited with unexpected signal code 13"). The `clipbridge` commands that serve do the
    /// same (`Signals.ignoreTerminalSignals`).
    private static let brokenPipesIgnored: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return true
    }()
}

extension Trait where Self == XvfbTrait {
    /// A private Xvfb for this suite (or test): see `XvfbTrait`.
    public static var xvfb: Self { XvfbTrait() }
}
