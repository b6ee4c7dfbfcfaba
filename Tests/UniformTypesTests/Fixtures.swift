// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests

import Foundation

/// Paths of the repository's `Fixtures/` files, found from this source file so tests do not depend on
/// the working directory.
enum Fixtures {
    /// `<repository>/Fixtures`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // UniformTypesTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// A declaration file under `Fixtures/declarations`.
    static func declarations(_ name: String) -> URL {
        root.appendingPathComponent("declarations/\(name)")
    }

    /// The shared-mime-info database copy, `Fixtures/shared-mime-info`.
    static let sharedMIMEInfo = root.appendingPathComponent("shared-mime-info", isDirectory: true)
}
