// ImageMagick as an independent peer: it makes the test images in every format and variant, and decodes
// what ClipBridge encodes.
import ClipBridgeTestSupport
import Foundation
import ImageCodecs
import Testing

enum Magick {
    /// Runs Debian's ImageMagick 6 `convert` (not a stand-in on PATH) and returns its stdout.
    static func convert(_ arguments: [String], stdin: Data? = nil) async throws -> Data {
        let result = try await runPeer(["/usr/bin/convert"] + arguments, display: nil, stdin: stdin, timeout: .seconds(60))
        guard result.termination == .exited(0) else {
            throw MagickError(message: "convert \(arguments.joined(separator: " ")): \(result.stderrText)")
        }
        return result.stdout
    }

    /// `image` (8-bit RGBA) written by ImageMagick in `format` (an ImageMagick coder prefix such as `png48`,
    /// `bmp3`, `jpeg`), with `options` before the output.
    static func encode(_ image: PixelImage, as format: String, options: [String] = []) async throws -> Data {
        try await convert(
            ["-size", "\(image.width)x\(image.height)", "-depth", "8", "rgba:-"] + options + ["\(format):-"],
            stdin: image.eightBitsPerComponent().pixels)
    }

    /// ImageMagick's decoding of `data` as 8-bit RGBA, with `options` applied before the output.
    static func decode(_ data: Data, width: Int, height: Int, options: [String] = []) async throws -> PixelImage {
        let pixels = try await convert(["-"] + options + ["-depth", "8", "rgba:-"], stdin: data)
        return try PixelImage(width: width, height: height, hasAlpha: true, pixels: pixels)
    }
}

struct MagickError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

enum Pattern {
    /// A test card: gradients in each channel, a transparent band on the left, a translucent band on top.
    static func image(width: Int = 61, height: Int = 43, alpha: Bool = true) -> PixelImage {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 4
                bytes[at] = UInt8(x * 255 / max(1, width - 1))
                bytes[at + 1] = UInt8(y * 255 / max(1, height - 1))
                bytes[at + 2] = UInt8((x * 7 + y * 13) & 0xFF)
                bytes[at + 3] = !alpha ? 255 : x < 6 ? 0 : y < 6 ? 128 : 255
            }
        }
        return try! PixelImage(width: width, height: height, hasAlpha: alpha, pixels: Data(bytes))
    }

    /// The mean absolute difference of the colour channels, for lossy formats whose worst pixel says little.
    static func meanDifference(_ a: PixelImage, _ b: PixelImage) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba8(x: x, y: y), q = b.rgba8(x: x, y: y)
                for c in 0..<3 { total += abs(Int(p[c]) - Int(q[c])) }
            }
        }
        return Double(total) / Double(a.pixelCount * 3)
    }

    /// The largest difference between two images' channels: alpha everywhere, colour where both are visible.
    static func difference(_ a: PixelImage, _ b: PixelImage) -> Int {
        precondition(a.width == b.width && a.height == b.height, "\(a.width)×\(a.height) vs \(b.width)×\(b.height)")
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba8(x: x, y: y), q = b.rgba8(x: x, y: y)
                worst = max(worst, abs(Int(p[3]) - Int(q[3])))
                if p[3] > 0 && q[3] > 0 {
                    for c in 0..<3 { worst = max(worst, abs(Int(p[c]) - Int(q[c]))) }
                }
            }
        }
        return worst
    }
}
