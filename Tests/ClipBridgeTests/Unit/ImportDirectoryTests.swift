// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — the private receive directory under concurrent clipboards

import Foundation
import Testing
import UniformTypes

@testable import ClipBridge

@Suite("private receive directory")
struct ImportDirectoryTests {
    /// One clipboard shutting down (which removes the directory when it is empty) while another creates a
    /// file in it must never leave the second without a directory: the check and the creation are one step.
    /// Before the fix, `makeFile` looked the directory up, released the lock, and `open` then failed with
    /// ENOENT when a shutdown had removed the empty directory in between.
    @Test("a shutdown removing the empty directory never races a file being created in it")
    func removalRacesCreation() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("import-race-\(UUID())")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var failed = 0
                    for _ in 0..<400 {
                        do {
                            let (url, file) = try ImportDirectory.makeFile(
                                parent: parent, suggestedName: "a.txt", contentType: .plainText)
                            try file.close()
                            try FileManager.default.removeItem(at: url)
                        } catch {
                            failed += 1
                        }
                        ImportDirectory.removeIfEmpty()
                    }
                    return failed
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
