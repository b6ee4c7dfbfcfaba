// ImageDecoder against ImageMagick: every format and its common variants, decoded to the same pixels.
import Foundation
import ImageCodecs
import Testing
import TransferKit

@Suite("Image decoding")
struct DecodingTests {
    struct Variant: Sendable, CustomStringConvertible {
        var name: String
        var format: String
        var options: [String] = []
        /// Largest channel difference from ImageMagick's own decoding of the same bytes.
        var tolerance = 0
        var type: UTType
        var alpha = true
        var bits = 8
        var description: String { name }
    }

    static let variants: [Variant] = [
        Variant(name: "PNG RGBA", format: "png32", type: .png),
        Variant(name: "PNG RGB", format: "png24", type: .png, alpha: false),
        Variant(name: "PNG 16-bit RGBA", format: "png64", type: .png, bits: 16),
        Variant(name: "PNG palette with transparency", format: "png8", type: .png),
        Variant(name: "PNG grey", format: "png", options: ["-colorspace", "Gray", "-alpha", "off"], type: .png, alpha: false),
        Variant(name: "PNG interlaced", format: "png32", options: ["-interlace", "PNG"], type: .png),
        Variant(name: "JPEG", format: "jpeg", options: ["-quality", "90"], tolerance: 2, type: .jpeg, alpha: false),
        Variant(name: "JPEG progressive", format: "jpeg", options: ["-interlace", "Plane"], tolerance: 2, type: .jpeg, alpha: false),
        Variant(name: "JPEG grey", format: "jpeg", options: ["-colorspace", "Gray"], tolerance: 2, type: .jpeg, alpha: false),
        Variant(name: "JPEG CMYK", format: "jpeg", options: ["-colorspace", "CMYK"], tolerance: 3, type: .jpeg, alpha: false),
        Variant(name: "GIF with transparency", format: "gif", type: .gif),
        Variant(name: "GIF interlaced", format: "gif", options: ["-interlace", "GIF"], type: .gif),
        Variant(name: "TIFF RGBA LZW", format: "tiff", options: ["-compress", "LZW"], tolerance: 1, type: .tiff),
        Variant(name: "TIFF RGB deflate", format: "tiff", options: ["-compress", "Zip"], type: .tiff, alpha: false),
        Variant(name: "TIFF 16-bit", format: "tiff", options: ["-depth", "16"], tolerance: 1, type: .tiff),
        Variant(name: "TIFF tiled", format: "tiff", options: ["-define", "tiff:tile-geometry=16x16"], tolerance: 1, type: .tiff),
        Variant(name: "WebP lossless", format: "webp", options: ["-define", "webp:lossless=true"], type: .webP),
        Variant(name: "WebP lossy", format: "webp", options: ["-quality", "80"], tolerance: 1, type: .webP, alpha: false),
        Variant(name: "BMP 32-bit with alpha (V5)", format: "bmp", type: .bmp),
        Variant(name: "BMP 24-bit (V3)", format: "bmp3", type: .bmp, alpha: false),
        Variant(name: "BMP 8-bit palette", format: "bmp3", options: ["-colors", "200", "-type", "Palette", "-compress", "None"], type: .bmp, alpha: false),
        Variant(name: "BMP 8-bit RLE", format: "bmp3", options: ["-colors", "200", "-type", "Palette", "-compress", "RLE"], type: .bmp, alpha: false),
        Variant(name: "BMP 4-bit palette", format: "bmp3", options: ["-colors", "12", "-type", "Palette", "-compress", "None"], type: .bmp, alpha: false),
        Variant(name: "BMP 16-bit", format: "bmp3", options: ["-define", "bmp:subtype=RGB565"], type: .bmp, alpha: false),
        Variant(name: "BMP OS/2", format: "bmp2", type: .bmp, alpha: false),
        Variant(name: "PPM raw", format: "ppm", type: UTType(mimeType: "image/x-portable-pixmap")!, alpha: false),
        Variant(name: "PPM text", format: "ppm", options: ["-compress", "none"], type: UTType(mimeType: "image/x-portable-pixmap")!, alpha: false),
        Variant(name: "PGM raw 16-bit", format: "pgm", options: ["-depth", "16"], tolerance: 1, type: UTType(mimeType: "image/x-portable-graymap")!, alpha: false, bits: 16),
        Variant(name: "PBM", format: "pbm", type: UTType(mimeType: "image/x-portable-bitmap")!, alpha: false),
    ]

    @Test(arguments: variants)
    func decodesLikeImageMagick(variant: Variant) async throws {
        let source = Pattern.image(alpha: variant.alpha)
        let data = try await Magick.encode(source, as: variant.format, options: variant.options)
        let properties = try #require(ImageProperties(data: data))
        #expect(properties.contentType == variant.type)
        #expect((properties.pixelWidth, properties.pixelHeight) == (source.width, source.height))

        let decoded = try await ImageDecoder().decode(data)
        #expect((decoded.width, decoded.height) == (source.width, source.height))
        #expect(decoded.bitsPerComponent == variant.bits)
        let reference = try await Magick.decode(data, width: source.width, height: source.height)
        let difference = Pattern.difference(decoded, reference)
        #expect(difference <= variant.tolerance, "\(variant.name): off by \(difference)")
    }

    /// Cameras store rows as the sensor read them and say in EXIF how to turn them; every orientation comes
    /// out the way ImageMagick's -auto-orient shows it.
    @Test(arguments: 1...8)
    func jpegOrientationIsApplied(orientation: Int) async throws {
        let source = Pattern.image(alpha: false)
        let jpeg = try await Magick.encode(source, as: "jpeg", options: ["-quality", "95"])
        let oriented = Self.insertingExifOrientation(orientation, into: jpeg)
        let properties = try #require(ImageProperties(data: oriented))
        #expect(properties.orientation == orientation)

        let decoded = try await ImageDecoder().decode(oriented)
        let swapped = orientation >= 5
        #expect((decoded.width, decoded.height) == (swapped ? (source.height, source.width) : (source.width, source.height)))
        let reference = try await Magick.decode(oriented, width: decoded.width, height: decoded.height, options: ["-auto-orient"])
        #expect(Pattern.difference(decoded, reference) <= 2)
    }

    @Test(arguments: [3, 6, 8])
    func tiffOrientationIsApplied(orientation: Int) async throws {
        let names = [3: "BottomRight", 6: "RightTop", 8: "LeftBottom"]
        let source = Pattern.image()
        let tiff = try await Magick.encode(source, as: "tiff", options: ["-orient", names[orientation]!])
        #expect(ImageProperties(data: tiff)?.orientation == orientation)
        let decoded = try await ImageDecoder().decode(tiff)
        let reference = try await Magick.decode(tiff, width: decoded.width, height: decoded.height, options: ["-auto-orient"])
        #expect(Pattern.difference(decoded, reference) <= 1)
    }

    /// An APP1 Exif segment with one IFD0 entry, Orientation (tag 274, SHORT), inserted after SOI.
    static func insertingExifOrientation(_ orientation: Int, into jpeg: Data) -> Data {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0, 0, 0, 0, 0]
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        return jpeg.prefix(2) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body) + jpeg.dropFirst(2)
    }
}
