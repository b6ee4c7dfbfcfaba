// ClipBridge test support: find an executable this package built (e.g. `clipbridge`) next to the tests.

import Foundation
import Glibc

/// Locates executables built by this package, for tests that run the real binary (as argument-parser's
/// `AssertExecuteCommand` does): SwiftPM puts products and the test runner in the same directory.
public enum BuiltProduct {
    /// The build directory holding the running test executable (`.build/debug`, or a custom scratch path's).
    public static var directory: URL {
        // /proc/self/exe names the test runner itself (…/debug/ClipBridgePackageTests.xctest), whatever the
        // working directory or argv[0] are.
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent()
    }

    /// The executable `name` in the build directory, or nil when it has not been built (build it with
    /// `swift build --product name` before the tests; `swift build --build-tests` builds every product).
    public static func url(named name: String) -> URL? {
        let candidate = directory.appendingPathComponent(name)
        return access(candidate.path, X_OK) == 0 ? candidate : nil
    }
}
