// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — files: streamed from disk, received into private files, cut for file managers

import ClipBridge
import ClipBridgeTestSupport
import Foundation
import Testing
import TransferKit
import X11Selection

@Suite(.xvfb, .serialized, .timeLimit(.minutes(3)))
struct FileTransferTests {
    /// Peak memory is a per-process figure, and the whole package's tests share one process (the engine's own
    /// tests hold 64 MiB buffers), so the parent re-runs this very test alone in a fresh test process, which
    /// does the transfer and reports its peak; the parent checks it.
    @Test("a 200 MiB FileRepresentation round trip keeps peak memory far below the payload")
    func largeFileRoundTrip() async throws {
        let size = 200 << 20
        if ProcessInfo.processInfo.environment["CLIPBRIDGE_RSS_PROBE"] == "1" {
            let (baseline, peak) = try await Self.roundTripLargeFile(size: size)
            print("RSS_PROBE baseline=\(baseline) peak=\(peak)")
            return
        }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = try await PeerCommand(
            [executable, "--testing-library", "swift-testing", "--filter", "FileTransferTests/largeFileRoundTrip"],
            display: nil, environment: ["CLIPBRIDGE_RSS_PROBE": "1"], timeout: .seconds(150)
        ).run()
        #expect(child.succeeded, "\(child.stdoutText.suffix(2000))\(child.stderrText.suffix(2000))")
        let line = try #require(child.stdoutText.split(separator: "\n").first { $0.hasPrefix("RSS_PROBE ") })
        let fields = Dictionary(
            uniqueKeysWithValues: line.dropFirst("RSS_PROBE ".count).split(separator: " ").compactMap { field in
                field.split(separator: "=").count == 2
                    ? (String(field.split(separator: "=")[0]), Int(field.split(separator: "=")[1]) ?? -1) : nil
            })
        let baseline = try #require(fields["baseline"]), peak = try #require(fields["peak"])
        let growth = peak - baseline
        // Owner and requestor both run in the child; streaming keeps each side to a few chunks.
        #expect(growth < 64 << 20, "peak RSS grew by \(growth >> 20) MiB for a \(size >> 20) MiB paste")
        print("200 MiB FileRepresentation round trip: peak RSS \(peak >> 20) MiB, growth \(growth >> 20) MiB")
    }

    /// Copies a `size`-byte Video and pastes it on a second connection; returns the RSS before and the peak.
    static func roundTripLargeFile(size: Int) async throws -> (baseline: Int, peak: Int) {
        try await withTwoApps { apps in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-large-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("large.mp4")
            try writePattern(to: source, size: size)

            let baseline = try MemoryProbe.resetPeak()
            try await apps.owner.copy(Video(file: source))
            let pasted = try #require(try await apps.reader.paste(Video.self).first)
            defer { try? FileManager.default.removeItem(at: pasted.file) }
            let peak = try MemoryProbe.peakResidentBytes()
            #expect(try FileManager.default.attributesOfItem(atPath: pasted.file.path)[.size] as? Int == size)
            #expect(try sameContents(source, pasted.file))
            return (baseline, peak)
        }
    }

    @Test("received files are private (0600 in a 0700 directory) and gone after the importer returns")
    func privateReceiveFile() async throws {
        try await withTwoApps { apps in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-priv-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("a.mp4")
            try Data(repeating: 1, count: 1000).write(to: source)
            try await apps.owner.copy(Video(file: source))
            let seen = try #require(try await apps.reader.paste(ProbeVideo.self).first)
            #expect(seen.size == 1000)
            #expect(!FileManager.default.fileExists(atPath: seen.path))
            #expect(seen.mode & 0o077 == 0, "received file mode \(String(seen.mode, radix: 8))")
        }
    }

    @Test("cut files give gnome-copied-files `cut` and application/x-kde-cutselection")
    func cutFiles() async throws {
        try await withTwoApps { apps in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-cut-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let a = directory.appendingPathComponent("a.txt")
            let b = directory.appendingPathComponent("b c.txt")
            try Data("a".utf8).write(to: a)
            try Data("b".utf8).write(to: b)
            let uris = [a, b].map { URL(fileURLWithPath: $0.path).absoluteString }

            try await apps.owner.copyFiles([a, b], cut: true)
            #expect(
                try await apps.xclip("x-special/gnome-copied-files").stdoutText
                    == (["cut"] + uris).joined(separator: "\n"))
            #expect(try await apps.xclip("application/x-kde-cutselection").stdoutText == "1")
            #expect(try await apps.xclip("text/uri-list").stdoutText == uris.map { $0 + "\r\n" }.joined())
            #expect(try await apps.xclip("UTF8_STRING").stdoutText == a.path + "\n" + b.path)
            #expect(try await apps.reader.paste(URL.self) == [a, b].map { URL(fileURLWithPath: $0.path) })

            try await apps.owner.copyFiles([a])
            #expect(try await apps.xclip("x-special/gnome-copied-files").stdoutText == "copy\n" + uris[0])
            #expect(!contentTargets(try await apps.xclipTargets()).contains("application/x-kde-cutselection"))

            // Cutting Transferable values marks their shared files the same way.
            try await apps.owner.cut([SharedVideo(file: a)])
            #expect(try await apps.xclip("x-special/gnome-copied-files").stdoutText == "cut\n" + uris[0])
        }
    }

    @Test("a file manager's copy (uri-list only) pastes as Video through a private copy of the file")
    func fileManagerCopyPastesAsVideo() async throws {
        try await withTwoApps { apps in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-fm-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("holiday.mp4")
            let bytes = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
            try bytes.write(to: file)
            let uriList = URL(fileURLWithPath: file.path).absoluteString + "\r\n"
            let xclip = try startPeer(
                ["xclip", "-quiet", "-selection", "clipboard", "-t", "text/uri-list", "-i"],
                display: apps.server.display, stdin: Data(uriList.utf8))
            defer { Task { _ = await xclip.stop() } }
            try await xclip.waitUntilOwning("CLIPBOARD", display: apps.server.display)
            let seen = try #require(try await apps.reader.paste(ProbeVideo.self).first)
            #expect(seen.size == bytes.count)
            #expect(seen.path != file.path)
            #expect(seen.mode & 0o077 == 0, "mode \(String(seen.mode, radix: 8))")
            let video = try #require(try await apps.reader.paste(Video.self).first)
            defer { try? FileManager.default.removeItem(at: video.file) }
            #expect(try Data(contentsOf: video.file) == bytes)
        }
    }

    @Test("several shared files: one joined uri-list and gnome-copied-files for file managers")
    func severalSharedFiles() async throws {
        try await withTwoApps { apps in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-many-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let files = ["one.mp4", "two.mp4"].map { directory.appendingPathComponent($0) }
            for (index, file) in files.enumerated() { try Data(repeating: UInt8(index), count: 10).write(to: file) }
            let uris = files.map { URL(fileURLWithPath: $0.path).absoluteString }

            try await apps.owner.copy(files.map(SharedVideo.init))
            #expect(try await apps.xclip("text/uri-list").stdoutText == uris.map { $0 + "\r\n" }.joined())
            #expect(
                try await apps.xclip("x-special/gnome-copied-files").stdoutText
                    == (["copy"] + uris).joined(separator: "\n"))
            let pasted = try await apps.reader.paste(Video.self)
            defer { for video in pasted { try? FileManager.default.removeItem(at: video.file) } }
            #expect(
                try pasted.map { try Data(contentsOf: $0.file) } == [
                    Data(repeating: 0, count: 10), Data(repeating: 1, count: 10),
                ])
        }
    }

    @Test("streamed paste of a chosen type into a file handle")
    func streamedReadIntoFile() async throws {
        try await withTwoApps { apps in
            let payload = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            var item = ClipboardItem()
            item.append(.png, source: .data(payload))
            try await apps.owner.copy([item])
            let type = try #require(try await apps.reader.bestType(for: .image))
            #expect(type.target == "image/png")
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-out-\(UUID())")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: output) }
            let handle = try FileHandle(forWritingTo: output)
            let summary = try await apps.reader.read(type, to: handle.fileDescriptor)
            try handle.close()
            #expect(summary.byteCount == payload.count)
            #expect(try Data(contentsOf: output) == payload)
        }
    }
}

/// Records what its importer saw: the received file's size, path and permission bits.
struct ProbeVideo: Transferable {
    var size: Int
    var path: String
    var mode: Int

    static var transferRepresentation: some TransferRepresentation {
        FileRepresentation(importedContentType: .mpeg4Movie) { received in
            let attributes = try FileManager.default.attributesOfItem(atPath: received.file.path)
            return ProbeVideo(
                size: attributes[.size] as? Int ?? -1, path: received.file.path,
                mode: (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o777)
        }
    }
}

/// Peak resident memory of this process, from /proc (VmHWM), resettable through clear_refs (Linux ≥ 4.0).
enum MemoryProbe {
    /// Resets the peak to the current RSS and returns the current RSS in bytes.
    static func resetPeak() throws -> Int {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return try field("VmRSS")
    }

    /// The peak RSS since the last reset, in bytes.
    static func peakResidentBytes() throws -> Int { try field("VmHWM") }

    private static func field(_ name: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw CocoaError(.fileReadCorruptFile) }
        return kilobytes * 1024
    }
}

/// Writes `size` bytes of a position-dependent pattern in 1 MiB blocks.
func writePattern(to url: URL, size: Int) throws {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    let pattern = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131 >> 3) })
    var written = 0
    var index: UInt64 = 0
    while written < size {
        // Each block starts with its index, so a reordered or repeated chunk is caught.
        var block = pattern.prefix(min(pattern.count, size - written))
        withUnsafeBytes(of: index.littleEndian) {
            block.replaceSubrange(block.startIndex..<block.startIndex + 8, with: $0)
        }
        try handle.write(contentsOf: block)
        written += block.count
        index += 1
    }
}

/// Compares two files block by block.
func sameContents(_ a: URL, _ b: URL) throws -> Bool {
    let first = try FileHandle(forReadingFrom: a)
    let second = try FileHandle(forReadingFrom: b)
    defer {
        try? first.close()
        try? second.close()
    }
    while true {
        let x = try first.read(upToCount: 1 << 20) ?? Data()
        let y = try second.read(upToCount: 1 << 20) ?? Data()
        if x != y { return false }
        if x.isEmpty { return true }
    }
}
