// Content types and small helpers shared by the TransferKit tests.
import Foundation
import Testing
import TransferKit

extension UTType {
    static let testCard = UTType(exportedAs: "org.clipbridge.tests.card")
    static let testSticker = UTType(exportedAs: "org.clipbridge.tests.sticker")
    static let testA = UTType(exportedAs: "org.clipbridge.tests.a")
    static let testB = UTType(exportedAs: "org.clipbridge.tests.b")
    static let testVisibleAll = UTType(exportedAs: "org.clipbridge.tests.visible-all")
    static let testVisibleTeam = UTType(exportedAs: "org.clipbridge.tests.visible-team")
    static let testVisibleGroup = UTType(exportedAs: "org.clipbridge.tests.visible-group")
    static let testVisibleOwn = UTType(exportedAs: "org.clipbridge.tests.visible-own")
    static let testUnmodified = UTType(exportedAs: "org.clipbridge.tests.unmodified")
}

/// An error a representation closure throws on purpose.
struct PlannedFailure: Error, Equatable {
    var tag: String
}

/// A private temporary directory, removed by the caller.
func makeTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("TransferKitTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// The identifiers of a list of types, for readable expectation failures.
func ids(_ types: [UTType]) -> [String] { types.map(\.identifier) }
