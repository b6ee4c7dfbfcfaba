@testable import ClipHistory
import FoundationEssentials
import Glibc
import X11Selection

/// A history in a fresh private directory, removed when the test ends.
final class TemporaryHistory {
    let directory: String
    let store: HistoryStore

    init(limits: HistoryLimits = HistoryLimits(), key: HistoryKey? = nil) throws {
        var template = Array("/tmp/clipbridge-history-test.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil)
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        store = try HistoryStore(directory: "\(directory)/history", limits: limits, key: key)
    }

    deinit {
        // rm -r, by hand: the tree is the test's own.
        Self.remove(directory)
    }

    private static func remove(_ path: String) {
        for name in PrivateDirectory.entries(path) {
            let child = "\(path)/\(name)"
            var info = stat()
            if lstat(child, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { remove(child) } else { unlink(child) }
        }
        rmdir(path)
    }

    /// The blob files on disk.
    var blobFiles: [String] {
        let blobs = "\(directory)/history/blobs"
        return PrivateDirectory.entries(blobs).filter { $0.count == 2 }.flatMap { folder in
            PrivateDirectory.entries("\(blobs)/\(folder)").map { "\(blobs)/\(folder)/\($0)" }
        }
    }

    /// Whether `text` is found in any file of the history (a failed expectation names the text, not every byte).
    func holds(_ text: String) -> Bool {
        allBytes.contains(Array(text.utf8))
    }

    /// Every byte under the history's directory, database and blobs and WAL together.
    var allBytes: [UInt8] {
        var result: [UInt8] = []
        func walk(_ path: String) {
            for name in PrivateDirectory.entries(path) {
                let child = "\(path)/\(name)"
                var info = stat()
                guard lstat(child, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR { walk(child); continue }
                let descriptor = open(child, O_RDONLY)
                guard descriptor >= 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let got = read(descriptor, &buffer, buffer.count)
                    if got <= 0 { break }
                    result += buffer[0..<got]
                }
                close(descriptor)
            }
        }
        walk("\(directory)/history")
        return result
    }
}

/// A copy of text flavours, as xclip or GTK would offer it.
func textCopy(_ text: String, selection: SelectionName = .clipboard, owner: String? = nil) -> CapturedCopy {
    let bytes = Data(text.utf8)
    return CapturedCopy(selection: selection, ownerClass: owner, flavours: [
        .init(target: "UTF8_STRING", type: "UTF8_STRING", format: 8, content: .bytes(bytes), byteCount: bytes.count),
        .init(target: "text/plain;charset=utf-8", type: "text/plain;charset=utf-8", format: 8, content: .bytes(bytes),
              byteCount: bytes.count),
    ])
}

/// A copy of one flavour of these bytes.
func copy(_ target: SelectionTarget, _ bytes: Data) -> CapturedCopy {
    CapturedCopy(selection: .clipboard, flavours: [
        .init(target: target, type: target, format: 8, content: .bytes(bytes), byteCount: bytes.count)
    ])
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes.
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        var index = 0
        while index + needle.count <= count {
            if self[index] == needle[0], self[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
