// ClipBridge fuzzing — shared helpers of the fuzz targets.
//
// Each fuzz target is an executable whose main.swift defines `LLVMFuzzerTestOneInput`; libFuzzer (linked
// by `-sanitize=fuzzer`) provides `main`. These helpers turn the fuzzer's bytes into the values a target
// feeds a parser or a state machine.

import Glibc

/// The largest input any target reads: the parsers here take clipboard data and configuration files, and
/// libFuzzer's own `-max_len` (set per target by scripts/fuzz.sh) is far below this. A larger input (a file
/// passed by hand) is cut, so a target's work stays bounded.
public let maximumFuzzInput = 1 << 20

/// The fuzzer's input as bytes, at most ``maximumFuzzInput`` of them.
public func fuzzBytes(_ start: UnsafeRawPointer, _ count: Int) -> [UInt8] {
    guard count > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: start, count: min(count, maximumFuzzInput)))
}

/// Reports a broken invariant: prints it to standard error and traps, so libFuzzer saves the input as a crash.
public func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() {
        let text = message()
        var report = "INVARIANT BROKEN at \(file):\(line): \(text)\n"
        report.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        fatalError("invariant broken: \(text)", file: file, line: line)
    }
}

/// Reads values from the front of the input, like LLVM's FuzzedDataProvider: every read succeeds (an
/// exhausted input reads as zeros), so a decoded event sequence always ends.
public struct FuzzReader {
    public let bytes: [UInt8]
    public private(set) var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// True when every byte was read.
    public var isAtEnd: Bool { offset >= bytes.count }

    public var remainingCount: Int { max(0, bytes.count - offset) }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    public mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    public mutating func uint32() -> UInt32 {
        UInt32(byte()) | UInt32(byte()) << 8 | UInt32(byte()) << 16 | UInt32(byte()) << 24
    }

    /// A value in `0..<bound` (0 when `bound` is 0).
    public mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let raw = bound <= 256 ? Int(byte()) : bound <= 65536 ? Int(uint16()) : Int(uint32())
        return raw % bound
    }

    /// One of `choices` (which must not be empty).
    public mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    /// Up to `count` bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        let taken = min(max(0, count), remainingCount)
        defer { offset += taken }
        return Array(bytes[offset..<(offset + taken)])
    }

    /// A length-prefixed run of bytes: a length byte (or two, for `maximum` over 255), then that many bytes.
    public mutating func lengthPrefixed(maximum: Int = 255) -> [UInt8] {
        bytes(below(maximum + 1))
    }

    /// The bytes not read yet.
    public mutating func rest() -> [UInt8] { bytes(remainingCount) }
}

/// Splits `bytes` at the first occurrence of `separator`: the part before it, and the part after it (or
/// nil when it does not occur). Targets use a NUL byte to separate a short header (a target name, a
/// charset) from the data.
public func splitOnce(_ bytes: [UInt8], at separator: UInt8) -> ([UInt8], [UInt8]?) {
    guard let index = bytes.firstIndex(of: separator) else { return (bytes, nil) }
    return (Array(bytes[..<index]), Array(bytes[(index + 1)...]))
}
