// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials

/// Decoded pixels: RGBA, row-major with no padding between rows, straight (not premultiplied) alpha, 8 bits
/// per channel or 16 bits per channel in host byte order.
///
/// What ``ImageDecoder`` produces and ``ImageEncoder`` consumes. Opaque images carry an alpha channel too
/// (all at maximum); ``hasAlpha`` says whether the source had transparency, so an encoder can leave the
/// channel out.
public struct PixelImage: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// 8 or 16.
    public let bitsPerComponent: Int
    /// True when the image has transparency (an alpha channel or a transparent colour in its source).
    public let hasAlpha: Bool
    /// `height` rows of `width` RGBA pixels.
    public let pixels: Data

    /// Pixels from a buffer; the buffer must hold exactly `width × height` RGBA pixels.
    /// - Throws: ``ImageCodecError`` (`.invalidData`) when the sizes disagree or the depth is not 8 or 16.
    public init(width: Int, height: Int, bitsPerComponent: Int = 8, hasAlpha: Bool, pixels: Data) throws {
        guard bitsPerComponent == 8 || bitsPerComponent == 16, width > 0, height > 0,
            width.multipliedReportingOverflow(by: height).partialValue / height == width,
            pixels.count == width * height * 4 * (bitsPerComponent / 8)
        else {
            throw ImageCodecError(
                .invalidData,
                "\(pixels.count) bytes do not hold \(width)×\(height) RGBA pixels of \(bitsPerComponent) bits a channel")
        }
        self.init(unchecked: width, height, bitsPerComponent, hasAlpha, pixels)
    }

    init(unchecked width: Int, _ height: Int, _ bitsPerComponent: Int, _ hasAlpha: Bool, _ pixels: Data) {
        self.width = width
        self.height = height
        self.bitsPerComponent = bitsPerComponent
        self.hasAlpha = hasAlpha
        self.pixels = pixels
    }

    /// Bytes per pixel: 4 or 8.
    public var bytesPerPixel: Int { bitsPerComponent / 2 }
    /// Bytes per row.
    public var bytesPerRow: Int { width * bytesPerPixel }
    /// The pixel count.
    public var pixelCount: Int { width * height }

    /// One pixel's red, green, blue and alpha at 8 bits (the high byte of 16-bit samples).
    public func rgba8(x: Int, y: Int) -> [UInt8] {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the image")
        let offset = pixels.startIndex + y * bytesPerRow + x * bytesPerPixel
        if bitsPerComponent == 8 { return Array(pixels[offset..<offset + 4]) }
        return (0..<4).map { pixels[offset + $0 * 2 + 1] }
    }

    /// The same image at 8 bits per channel (rounded), for formats that have no deeper samples.
    public func eightBitsPerComponent() -> PixelImage {
        guard bitsPerComponent == 16 else { return self }
        let count = pixelCount * 4
        var narrowed = Data(count: count)
        narrowed.withUnsafeMutableBytes { target in
            pixels.withUnsafeBytes { source in
                let samples = source.bindMemory(to: UInt16.self)
                let bytes = target.bindMemory(to: UInt8.self)
                for index in 0..<count {
                    // v × 255 / 65535, rounded: exact for values that came from 8-bit samples (v = b × 257).
                    bytes[index] = UInt8((UInt32(samples[index]) * 255 + 32767) / 65535)
                }
            }
        }
        return PixelImage(unchecked: width, height, 8, hasAlpha, narrowed)
    }
}
