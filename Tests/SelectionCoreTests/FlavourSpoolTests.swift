import Foundation
import Glibc
import Testing
@testable import SelectionCore

/// A flavour that repeats one read before it is kept once (wl-copy's five names of one text), whatever the sizes and
/// the chunking; one that differs anywhere — first byte, middle, last byte, shorter, longer — is its own, byte-exact.
@Suite struct FlavourSpoolTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-tests-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Spools `bytes` in `chunk`-sized pieces beside `twins`.
    func spool(_ bytes: Data, chunk: Int, twins: [FlavourSpool.Twin], inMemory: Int = 1 << 10) throws -> (SelectionSnapshot.Content, Int) {
        let spool = FlavourSpool(limit: 1 << 30, inMemoryLimit: inMemory, directory: directory, twins: twins)
        var offset = 0
        while offset < bytes.count {
            try spool.append(bytes.subdata(in: offset..<min(bytes.count, offset + chunk)))
            offset += chunk
        }
        return (try spool.finish(), spool.byteCount)
    }

    func bytes(of content: SelectionSnapshot.Content) throws -> Data {
        switch content {
        case .bytes(let data): return data
        case .file(let url): return try Data(contentsOf: url)
        case .opened(let file): return try Data(contentsOf: URL(fileURLWithPath: file.path))
        }
    }

    /// Distinct bytes (a pattern that does not repeat within the sizes used).
    static func pattern(_ count: Int, seed: UInt32 = 1) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: (UInt32($0) &* 2_654_435_761 &+ seed) >> 13) })
    }

    @Test("a repeat is the twin's content, in memory and in a file, however it is chunked",
          arguments: [(100, 7), (5_000, 1_000), (300_000, 65_536), (300_000, 299_999)])
    func repeatIsShared(size: Int, chunk: Int) throws {
        let original = Self.pattern(size)
        let (first, count) = try spool(original, chunk: 4096, twins: [])
        #expect(count == size)
        let (second, secondCount) = try spool(original, chunk: chunk, twins: [.init(content: first, byteCount: count)])
        #expect(second == first && secondCount == size)
        #expect(try bytes(of: second) == original)
    }

    @Test("bytes that differ anywhere are kept as their own, byte-exact; the twin is untouched")
    func differencesAreKept() throws {
        let original = Self.pattern(200_000)
        let (first, count) = try spool(original, chunk: 8192, twins: [])
        let twin = FlavourSpool.Twin(content: first, byteCount: count)
        var variants: [Data] = []
        for index in [0, 1, 100_000, 199_999] {
            var changed = original
            changed[index] ^= 0xFF
            variants.append(changed)
        }
        variants.append(original.prefix(150_000))  // a shorter repeat: equal as far as it goes
        variants.append(original + Data("more".utf8))  // a longer one
        variants.append(Data())  // nothing
        for (index, variant) in variants.enumerated() {
            let (content, variantCount) = try spool(variant, chunk: 8192, twins: [twin])
            #expect(variantCount == variant.count, "variant \(index)")
            #expect(try bytes(of: content) == variant, "variant \(index)")
            #expect(content != first, "variant \(index)")
        }
        #expect(try bytes(of: first) == original)
    }

    @Test("the first twin that matches is taken among several; the size limit still holds for a repeat")
    func severalTwinsAndTheLimit() throws {
        let a = Self.pattern(50_000, seed: 1), b = Self.pattern(50_000, seed: 99)
        let (contentA, countA) = try spool(a, chunk: 4096, twins: [])
        let (contentB, countB) = try spool(b, chunk: 4096, twins: [])
        let twins = [FlavourSpool.Twin(content: contentA, byteCount: countA), .init(content: contentB, byteCount: countB)]
        let (repeatB, _) = try spool(b, chunk: 1000, twins: twins)
        #expect(repeatB == contentB)
        let limited = FlavourSpool(limit: 10_000, inMemoryLimit: 1 << 10, directory: directory, twins: twins)
        #expect(throws: FlavourSpool.TooLarge.self) {
            for offset in stride(from: 0, to: a.count, by: 4096) { try limited.append(a.subdata(in: offset..<min(a.count, offset + 4096))) }
        }
    }
}
