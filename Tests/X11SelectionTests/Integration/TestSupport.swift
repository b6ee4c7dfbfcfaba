import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

/// The display of the enclosing `.xvfb` suite.
func currentDisplay() throws -> String {
    try #require(XvfbServer.current, "the suite needs the .xvfb trait").display
}

/// Opens a connection to the suite's Xvfb.
func openConnection(_ configure: (inout Configuration) -> Void = { _ in }) async throws -> X11Connection {
    var configuration = Configuration()
    configure(&configuration)
    return try await X11Connection.open(display: try currentDisplay(), configuration: configuration)
}

/// Deterministic, non-repeating-looking bytes of any size (so an offset error shows up as a mismatch).
/// Generated 8 bytes at a time: tests run unoptimised, and 64 MiB byte by byte would hog a CPU.
func payload(_ count: Int, seed: UInt32 = 0x9E37_79B9) -> Data {
    var state = UInt64(seed) | 1
    var data = Data(count: (count + 7) / 8 * 8)
    data.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in
        let words = raw.bindMemory(to: UInt64.self)
        for index in words.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            words[index] = state ^ (state >> 29)
        }
    }
    return data.prefix(count)
}

/// A unique selection name per test, so tests sharing one Xvfb never race for the same selection.
func uniqueSelection(_ tag: String = #function) -> SelectionName {
    let cleaned = tag.filter { $0.isLetter || $0.isNumber }
    return SelectionName(rawValue: "CLIPBRIDGE_TEST_\(cleaned)_\(UInt32.random(in: 0...UInt32.max))")
}

/// A plain Xlib client (`RawXClient`) that owns a fresh selection named after `tag`. It answers nothing by
/// itself: a silent owner (reads of it can only time out), or one the test drives by hand.
func rawOwner(_ tag: String) async throws -> (RawXClient, SelectionName) {
    let display = try currentDisplay()
    let selection = uniqueSelection(tag)
    let client = try await onThread { () throws -> RawXClient in
        let client = try RawXClient(display)
        guard client.claim(selection.rawValue) else { throw RawXError("the raw owner could not claim \(selection)") }
        return client
    }
    return (client, selection)
}

