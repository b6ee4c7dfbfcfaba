// clipbridge tests: images compared by their pixels, decoded by ImageMagick (an independent decoder).

import ClipBridgeTestSupport
import Foundation
import Testing

/// 8-bit RGBA pixels.
struct Pixels: Equatable, CustomStringConvertible {
    var width: Int
    var height: Int
    var rgba: [UInt8]

    var description: String { "\(width)×\(height)" }

    /// ImageMagick's decoding of encoded image bytes (any format it reads), with `options` applied.
    static func decode(_ data: Data, options: [String] = []) async throws -> Pixels {
        let size = try await magick(["identify", "-format", "%w %h\n", "-"], stdin: data)
        let numbers = size.stdoutText.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        try #require(numbers.count >= 2, "identify: \(size)")
        let raw = try await magick(["convert", "-"] + options + ["-depth", "8", "rgba:-"], stdin: data)
        try #require(raw.stdout.count == numbers[0] * numbers[1] * 4, "convert: \(raw.stdout.count) bytes")
        return Pixels(width: numbers[0], height: numbers[1], rgba: [UInt8](raw.stdout))
    }

    /// The Qt peer's `--read-image` output: "W H\n" and raw RGBA.
    static func fromQt(_ output: Data) throws -> Pixels {
        let newline = try #require(output.firstIndex(of: 0x0A))
        let numbers = String(decoding: output[..<newline], as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        try #require(numbers.count == 2)
        let body = [UInt8](output[(newline + 1)...])
        try #require(body.count == numbers[0] * numbers[1] * 4)
        return Pixels(width: numbers[0], height: numbers[1], rgba: body)
    }

    /// The largest channel difference: alpha everywhere, colour where both pixels are visible.
    func difference(_ other: Pixels) -> Int {
        guard width == other.width, height == other.height else { return 255 }
        var worst = 0
        for index in stride(from: 0, to: rgba.count, by: 4) {
            worst = max(worst, abs(Int(rgba[index + 3]) - Int(other.rgba[index + 3])))
            guard rgba[index + 3] > 0, other.rgba[index + 3] > 0 else { continue }
            for channel in 0..<3 { worst = max(worst, abs(Int(rgba[index + channel]) - Int(other.rgba[index + channel]))) }
        }
        return worst
    }

    /// The mean colour difference, for lossy encodings.
    func meanDifference(_ other: Pixels) -> Double {
        guard width == other.width, height == other.height else { return 255 }
        var total = 0
        for index in stride(from: 0, to: rgba.count, by: 4) {
            for channel in 0..<3 { total += abs(Int(rgba[index + channel]) - Int(other.rgba[index + channel])) }
        }
        return Double(total) / Double(width * height * 3)
    }

    /// Runs Debian's ImageMagick 6 (`/usr/bin/convert`, `/usr/bin/identify`).
    static func magick(_ arguments: [String], stdin: Data? = nil) async throws -> CommandResult {
        var command = arguments
        command[0] = "/usr/bin/" + command[0]
        let result = try await runPeer(command, display: nil, stdin: stdin, timeout: .seconds(60))
        try #require(result.succeeded, "\(result)")
        return result
    }

    /// An image made by ImageMagick: `arguments` then the output coder (`jpeg:-`).
    static func make(_ arguments: [String]) async throws -> Data {
        try await magick(["convert"] + arguments).stdout
    }
}
