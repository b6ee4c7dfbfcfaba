// fuzz-history-sealed: what an encrypted history reads back from its own disk, which anyone with write access to
// it may have changed (Sources/ClipHistory/Crypto/HistoryCipher.swift, Store/BlobStore.swift):
// - a sealed blob file: the header, the 64 KiB segments, the last-segment flag, a file cut or extended anywhere;
// - a sealed small value (a summary, an inline payload).
//
// Input: byte 0 picks the case; the rest is
// - 0: a blob file's whole content, read by BlobStore.contents(of:) — which must throw (no input forges a tag);
// - 1: a sealed value, opened with HistoryCipher.open — which must throw;
// - 2: plaintext, sealed as a blob in pieces whose sizes the input gives (segment boundaries met in any way), then
//   read back — equal to the input — then one byte of the file changed, or the file cut, at a place the input
//   picks: then it must throw, never yield other bytes.
// Checked: no trap; nothing but the exact plaintext ever comes out.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
import Glibc
@testable import ClipHistory

/// One blob store for every input, in memory (`/dev/shm`), with a fixed key; libFuzzer runs inputs on one thread.
nonisolated(unsafe) private let blobs: BlobStore = {
    var template = Array("/dev/shm/fuzz-history-sealed.XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    precondition(made != nil, "cannot make \(directory)")
    let key = try! HistoryKey(secret: Array("fuzzing key, 32 bytes long......".utf8))
    return try! BlobStore(directory: directory, cipher: HistoryCipher(key: key, salt: [UInt8](repeating: 7, count: 32)))
}()

private let name = String(repeating: "ab", count: 32)

private func writeBlob(_ bytes: [UInt8]) {
    let folder = "\(blobs.directory)/ab"
    mkdir(folder, 0o700)
    let descriptor = open(blobs.path(of: name), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
}

private func fileBytes(_ path: String) -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while case let got = read(descriptor, &buffer, buffer.count), got > 0 { result += buffer[0..<got] }
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let mode = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    switch mode % 3 {
    case 0:
        writeBlob(rest)
        fuzzCheck((try? blobs.contents(of: name)) == nil, "a blob file of \(rest.count) bytes made up opened")
    case 1:
        fuzzCheck((try? blobs.cipher!.open(Data(rest), as: .summary)) == nil, "a value of \(rest.count) bytes made up opened")
    default:
        // The plaintext repeated up to past a segment or two, so boundaries are reached with short inputs.
        let repeats = Int(rest.first ?? 0) % 4
        var plain = rest
        for _ in 0..<repeats { plain += [UInt8](repeating: rest.last ?? 0, count: HistoryCipher.segmentBytes / 2) + rest }
        var reader = FuzzReader(rest)
        var offset = 0
        let stored: BlobStore.Stored
        do {
            stored = try blobs.store(reading: {
                guard offset < plain.count else { return Data() }
                let size = min(plain.count - offset, 1 + Int(reader.byte()) * 1024 + Int(reader.byte()))
                defer { offset += size }
                return Data(plain[offset..<(offset + size)])
            })
        } catch {
            fuzzCheck(false, "sealing failed: \(error)")
            return 0
        }
        fuzzCheck(stored.byteCount == plain.count, "stored \(stored.byteCount) of \(plain.count) bytes")
        let path = blobs.path(of: stored.name)
        let sealed = fileBytes(path)
        fuzzCheck(sealed.count == blobs.fileBytes(holding: plain.count), "a sealed file of \(sealed.count) bytes")
        fuzzCheck((try? blobs.contents(of: stored.name)).map(Array.init) == plain, "the plaintext did not come back")
        // One change, where the input says: a flipped bit, or the file cut there.
        let place = (Int(rest.first ?? 0) << 8 | Int(rest.last ?? 0)) % sealed.count
        var changed = sealed
        if (rest.count & 1) == 0 { changed[place] ^= 1 << (rest.count % 8) } else { changed.removeLast(sealed.count - place) }
        writeBlobAt(path, changed)
        fuzzCheck((try? blobs.contents(of: stored.name)) == nil, "a changed blob opened (\(rest.count & 1 == 0 ? "bit" : "cut") at \(place))")
        unlink(path)
    }
    return 0
}

private func writeBlobAt(_ path: String, _ bytes: [UInt8]) {
    let descriptor = open(path, O_WRONLY | O_TRUNC, 0o600)
    precondition(descriptor >= 0)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_history_sealed_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
