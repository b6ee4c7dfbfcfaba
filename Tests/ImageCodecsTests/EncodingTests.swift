// ImageEncoder read back by ImageMagick and by ImageDecoder, and the transcoder behind Image's exports.
import Foundation
import ImageCodecs
import Testing
import TransferKit

@Suite("Image encoding")
struct EncodingTests {
    /// Lossless formats come back exact (TIFF within 1: libtiff hands alpha back premultiplied); lossy ones
    /// within a mean error of 8 levels on this noisy card (4:2:0 chroma halves its blue detail).
    static let cases: [(UTType, Int, Bool)] = [(.png, 0, false), (.tiff, 1, false), (.bmp, 0, false), (.webP, 0, true), (.jpeg, 0, true)]

    @Test(arguments: cases)
    func imageMagickReadsWhatIsWritten(type: UTType, tolerance: Int, lossy: Bool) async throws {
        for alpha in [true, false] {
            // JPEG has no alpha (it flattens onto white: tested below).
            guard !(alpha && type == .jpeg) else { continue }
            let source = Pattern.image(alpha: alpha)
            let data = try await ImageEncoder(quality: 95).encode(source, as: type)
            #expect(ImageProperties(data: data)?.contentType == type)
            let magick = try await Magick.decode(data, width: source.width, height: source.height)
            let ours = try await ImageDecoder().decode(data)
            #expect(ours.hasAlpha == alpha, "\(type.identifier), alpha \(alpha)")
            if lossy {
                #expect(Pattern.meanDifference(magick, source) <= 8, "\(type.identifier) alpha \(alpha) by ImageMagick")
                #expect(Pattern.meanDifference(ours, source) <= 8, "\(type.identifier) alpha \(alpha) by ImageDecoder")
                #expect(Pattern.difference(ours, magick) <= 2, "\(type.identifier): ImageMagick and ImageDecoder differ")
            } else {
                #expect(Pattern.difference(magick, source) <= tolerance, "\(type.identifier) alpha \(alpha) by ImageMagick")
                #expect(Pattern.difference(ours, source) <= tolerance, "\(type.identifier) alpha \(alpha) by ImageDecoder")
            }
        }
    }

    @Test func jpegFlattensTransparencyOntoWhite() async throws {
        let source = Pattern.image(alpha: true)
        let decoded = try await ImageDecoder().decode(ImageEncoder(quality: 100).encode(source, as: .jpeg) as Data)
        // Column 2 is fully transparent: white, whatever colour the invisible pixels had.
        #expect(decoded.rgba8(x: 2, y: 20).prefix(3).allSatisfy { $0 >= 250 })
        #expect(!decoded.hasAlpha)
    }

    @Test func sixteenBitSamplesSurvivePNGAndTIFF() async throws {
        var samples = [UInt16](repeating: 0, count: 7 * 5 * 4)
        for index in samples.indices { samples[index] = UInt16(truncatingIfNeeded: index &* 4099 &+ 17) }
        let pixels = samples.withUnsafeBytes { Data($0) }
        let source = try PixelImage(width: 7, height: 5, bitsPerComponent: 16, hasAlpha: true, pixels: pixels)
        for type in [UTType.png] {
            let decoded = try await ImageDecoder().decode(ImageEncoder().encode(source, as: type) as Data)
            #expect(decoded.bitsPerComponent == 16)
            #expect(decoded.pixels == source.pixels, "\(type.identifier)")
        }
        // TIFF is read back through libtiff's 8-bit RGBA interface.
        let tiff = try await ImageDecoder().decode(ImageEncoder().encode(source, as: .tiff) as Data)
        #expect(Pattern.difference(tiff, source.eightBitsPerComponent()) <= 2)
    }

    /// Asked for 8 bits, the decoder scales a 16-bit PNG while reading (libpng's rounding, the same as
    /// `eightBitsPerComponent()`) and a 16-bit PGM after; the transcoder asks for it on the way to JPEG.
    @Test func sixteenBitImagesDecodeAtEightBitsOnRequest() async throws {
        var samples = [UInt16](repeating: 0, count: 9 * 4 * 4)
        for index in samples.indices { samples[index] = UInt16(truncatingIfNeeded: index &* 7919 &+ 3) }
        let source = try PixelImage(
            width: 9, height: 4, bitsPerComponent: 16, hasAlpha: true, pixels: samples.withUnsafeBytes { Data($0) })
        var narrow = ImageDecoder()
        narrow.maximumBitsPerComponent = 8
        let png = try await ImageEncoder().encode(source, as: .png)
        let decoded = try await narrow.decode(png)
        #expect(decoded.bitsPerComponent == 8)
        #expect(decoded.pixels == source.eightBitsPerComponent().pixels)
        #expect(try await narrow.decode(png).pixels == decoded.pixels)

        let pgm = Data("P5 3 2 65535\n".utf8) + Data([0x00, 0x00, 0xFF, 0xFF, 0x80, 0x7F, 0x01, 0x01, 0x7F, 0x80, 0x12, 0x34])
        #expect(try await ImageDecoder().decode(pgm).bitsPerComponent == 16)
        let grey = try await narrow.decode(pgm)
        #expect(grey.bitsPerComponent == 8)
        #expect(grey.rgba8(x: 1, y: 0) == [255, 255, 255, 255])
        #expect(grey.rgba8(x: 2, y: 0) == [128, 128, 128, 255])  // 0x807F / 257 = 127.99…, rounded

        #expect(ImageEncoder.keepsSixteenBitSamples(in: .png) && !ImageEncoder.keepsSixteenBitSamples(in: .jpeg))
        let jpeg = try SystemImageTranscoder().transcode(png, to: .jpeg)
        #expect(ImageProperties(data: jpeg)?.contentType == .jpeg)
    }

    @Test func webPRefusesWhatItCannotHold() throws {
        let wide = try PixelImage(width: 16_384, height: 1, hasAlpha: false, pixels: Data(count: 16_384 * 4))
        #expect { try ImageEncoder().encode(wide, as: .webP) } throws: { ($0 as? ImageCodecError)?.code == .tooLarge }
        #expect { try ImageEncoder().encode(wide, as: .gif) } throws: {
            ($0 as? ImageCodecError)?.code == .unsupportedFormat
        }
    }

    /// With a transcoder, an image exports its own bytes first, then PNG, then the rest, each converted on request;
    /// an animated one exports only itself; without one, only itself.
    @Test func imageExportsEveryFormatThroughTheTranscoder() async throws {
        let transcoder = SystemImageTranscoder()
        let jpeg = try await Magick.encode(Pattern.image(alpha: false), as: "jpeg")
        #expect(try Image(data: jpeg).exportedContentTypes() == [.jpeg])
        let image = try Image(data: jpeg, transcoder: transcoder)
        #expect(image == (try Image(data: jpeg)))
        #expect(image.exportedContentTypes().map(\.identifier) == [UTType.jpeg, .png, .tiff, .webP, .bmp].map(\.identifier))
        #expect(try await image.exported(as: .jpeg) == jpeg)
        let png = try await image.exported(as: .png)
        #expect(ImageProperties(data: png)?.contentType == .png)
        #expect(Pattern.difference(try await ImageDecoder().decode(png), try await ImageDecoder().decode(jpeg)) == 0)

        let frames = try await Magick.convert(["-size", "8x8", "xc:red", "xc:blue", "-delay", "10", "gif:-"])
        #expect(try Image(data: frames, transcoder: transcoder).exportedContentTypes() == [.gif])
    }
}

@Suite struct ThumbnailTests {
    @Test func aWideImageFitsItsBoxWithItsAspectAndAveragedPixels() throws {
        // 64×32: left half red, right half blue.
        var pixels = Data()
        for _ in 0..<32 {
            for x in 0..<64 { pixels.append(contentsOf: x < 32 ? [255, 0, 0, 255] : [0, 0, 255, 255]) }
        }
        let image = try PixelImage(width: 64, height: 32, hasAlpha: false, pixels: pixels)
        let thumbnail = image.thumbnail(fitting: 16)
        #expect(thumbnail.width == 16 && thumbnail.height == 8)
        #expect(thumbnail.rgba8(x: 0, y: 0) == [255, 0, 0, 255])
        #expect(thumbnail.rgba8(x: 15, y: 7) == [0, 0, 255, 255])
        // A checkerboard averages to grey.
        var checker = Data()
        for y in 0..<8 { for x in 0..<8 { checker.append(contentsOf: (x + y) % 2 == 0 ? [255, 255, 255, 255] : [0, 0, 0, 255]) } }
        let grey = try PixelImage(width: 8, height: 8, hasAlpha: false, pixels: checker).thumbnail(fitting: 1)
        #expect(grey.width == 1 && grey.height == 1 && grey.rgba8(x: 0, y: 0) == [127, 127, 127, 255])
        #expect(image.thumbnail(fitting: 100).width == 64)
    }
}
