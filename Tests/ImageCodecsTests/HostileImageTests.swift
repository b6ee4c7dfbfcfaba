// Bad images: truncated, corrupt, decompression bombs, headers that lie, animation. Each fails with a clear
// error, in bounded time, never a crash.
import ClipBridgeTestSupport
import Foundation
import ImageCodecs
import Synchronization
import Testing
import TransferKit

@Suite("Hostile images")
struct HostileImageTests {
    static let formats: [(String, [String])] = [
        ("png32", []), ("jpeg", []), ("jpeg", ["-interlace", "Plane"]), ("gif", []), ("tiff", ["-compress", "LZW"]),
        ("webp", []), ("webp", ["-define", "webp:lossless=true"]), ("bmp", []), ("ppm", []),
    ]

    @Test(arguments: formats)
    func truncatedImagesFail(format: String, options: [String]) async throws {
        // -strip: no metadata after the pixels, so every cut falls in the image data.
        let data = try await Magick.encode(Pattern.image(width: 120, height: 90), as: format, options: options + ["-strip"])
        for fraction in [0.3, 0.6, 0.9] {
            let cut = data.prefix(Int(Double(data.count) * fraction))
            #expect("\(format) cut to \(Int(fraction * 100))%") {
                _ = try ImageDecoder().decode(Data(cut))
            } throws: { error in
                let code = (error as? ImageCodecError)?.code
                return code == .invalidData && !"\(error)".isEmpty
            }
        }
    }

    /// Bytes flipped all through the image: an error or an image of the header's size — never a crash, a
    /// hang, or a buffer of the wrong size.
    @Test(arguments: formats)
    func corruptImagesNeverCrash(format: String, options: [String]) async throws {
        let data = try await Magick.encode(Pattern.image(width: 120, height: 90), as: format, options: options)
        var generator = SplitMix(seed: UInt64(data.count))
        for round in 0..<20 {
            var bytes = [UInt8](data)
            for _ in 0..<(1 + round % 8) {
                let index = 16 + Int(generator.next() % UInt64(bytes.count - 16))
                bytes[index] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
            }
            let clock = ContinuousClock()
            let start = clock.now
            do {
                let image = try await ImageDecoder().decode(Data(bytes))
                #expect(image.pixels.count == image.width * image.height * image.bytesPerPixel)
            } catch {
                #expect(error is ImageCodecError, "\(format): \(error)")
            }
            #expect(clock.now - start < .seconds(5))
        }
    }

    /// Headers claiming 10¹⁰ pixels (or whatever the format's largest is) are refused from the header, before
    /// a byte of pixels is allocated.
    @Test(arguments: Bombs.all)
    func decompressionBombsAreRefusedFromTheHeader(bomb: Bombs.Case) throws {
        let clock = ContinuousClock()
        let start = clock.now
        #expect("\(bomb.name)") {
            _ = try ImageDecoder().decode(bomb.data)
        } throws: { error in
            (error as? ImageCodecError)?.code == .tooLarge && "\(error)".contains("limit")
        }
        #expect(clock.now - start < .seconds(1))
    }

    /// A GIF whose logical screen is 1×1 but whose frame claims 60000×60000: caught by the codec layer too.
    @Test func aFrameLargerThanItsScreenIsChecked() throws {
        var gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        gif += [0x2C, 0, 0, 0, 0, 0x60, 0xEA, 0x60, 0xEA, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
        #expect { _ = try ImageDecoder().decode(Data(gif)) } throws: { ($0 as? ImageCodecError)?.code == .tooLarge }
    }

    @Test func aSmallerCapIsHonoured() async throws {
        let png = try await Magick.encode(Pattern.image(width: 100, height: 100), as: "png")
        #expect { _ = try ImageDecoder(maximumPixelCount: 9_999).decode(png) } throws: {
            ($0 as? ImageCodecError)?.code == .tooLarge
        }
        #expect(try await ImageDecoder(maximumPixelCount: 10_000).decode(png).width == 100)
    }

    @Test func progressiveScansAreLimited() async throws {
        let jpeg = try await Magick.encode(Pattern.image(), as: "jpeg", options: ["-interlace", "Plane"])
        var decoder = ImageDecoder()
        decoder.maximumProgressiveScans = 2
        #expect { _ = try decoder.decode(jpeg) } throws: { "\($0)".contains("progressive scans") }
    }

    @Test(arguments: ["gif", "webp"])
    func animatedImagesAreRefused(format: String) async throws {
        let frames = try await Magick.convert(["-size", "16x16", "xc:red", "xc:blue", "xc:lime", "-delay", "10", "\(format):-"])
        #expect(ImageProperties(data: frames)?.isAnimated == true)
        #expect { _ = try ImageDecoder().decode(frames) } throws: { error in
            (error as? ImageCodecError)?.code == .animated && "\(error)".contains("animated")
        }
        // One frame is a still image.
        let still = try await Magick.convert(["-size", "16x16", "xc:red", "\(format):-"])
        #expect(ImageProperties(data: still)?.isAnimated == false)
        #expect(try await ImageDecoder().decode(still).width == 16)
    }

    @Test func animatedPNGIsRefused() async throws {
        let png = try await Magick.encode(Pattern.image(), as: "png32")
        // acTL (APNG §4.1) with two frames, inserted before the first IDAT.
        let acTL = Bombs.chunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0])
        let idat = try #require(png.firstRange(of: Data("IDAT".utf8))).lowerBound - 4
        let apng = png.prefix(idat) + acTL + png.suffix(from: idat)
        #expect(ImageProperties(data: apng)?.isAnimated == true)
        #expect { _ = try ImageDecoder().decode(apng) } throws: { ($0 as? ImageCodecError)?.code == .animated }
    }

    @Test func notAnImage() {
        for bytes in [Data(), Data("hello".utf8), Data([0x89, 0x50, 0x4E, 0x47]), Data("<svg/>".utf8)] {
            #expect { _ = try ImageDecoder().decode(bytes) } throws: { error in
                let code = (error as? ImageCodecError)?.code
                return code == .unsupportedFormat || code == .invalidData
            }
        }
    }

    @Test func cancellationStopsADecode() async throws {
        // Noise, which deflate cannot shrink: decoding its 12 megapixels takes hundreds of milliseconds, far more
        // than a loaded machine's scheduling delays. (A blank image of 24 megapixels decoded in a few: with a 2 ms
        // sleep before the cancel, a parallel run's delay let the decode finish first, twice.)
        var pixels = Data(count: 4000 * 3000 * 4)
        let random = open("/dev/urandom", O_RDONLY)
        try #require(random >= 0)
        var filled = 0
        while filled < pixels.count {
            let got = pixels.withUnsafeMutableBytes { read(random, $0.baseAddress! + filled, $0.count - filled) }
            try #require(got > 0)
            filled += got
        }
        close(random)
        let noise = try PixelImage(width: 4000, height: 3000, hasAlpha: false, pixels: pixels)
        let big: Data = try await ImageEncoder().encode(noise, as: .png)
        // The decode runs on another thread: under a parallel run's load the test's own wake-up after its sleep
        // can come after the whole decode (seen twice in CI). So a decode that finished is allowed only when it
        // finished before its cancel was issued, or within 100 ms of it (past its last row, where the C side no
        // longer polls) — then the round proves nothing and the next one cancels at once. A decode that goes on
        // after its cancel (hundreds of milliseconds of rows) fails the test.
        for attempt in 0..<3 {
            let finished = Mutex<ContinuousClock.Instant?>(nil)
            let task = Task {
                let image = try await ImageDecoder().decode(big)
                finished.withLock { $0 = .now }
                return image
            }
            if attempt == 0 { try await Task.sleep(for: .milliseconds(2)) }
            let cancelledAt = ContinuousClock.now
            task.cancel()
            switch await task.result {
            case .failure(let error):
                #expect(error is CancellationError || (error as? ImageCodecError)?.code == .cancelled, "\(error)")
                return
            case .success:
                let end = try #require(finished.withLock { $0 })
                #expect(end < cancelledAt + .milliseconds(100), "the decode went on after its cancellation")
            }
        }
        Issue.record("three decodes finished before their cancel was issued")
    }
}

enum Bombs {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var data: Data
        var description: String { name }
    }

    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8((value >> $0) & 0xFF) } }

    /// A PNG chunk with its CRC-32 (ISO 3309, as PNG §5.5 specifies).
    static func chunk(_ type: String, _ body: [UInt8]) -> Data {
        let typed = Array(type.utf8) + body
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return Data(be32(body.count) + typed + be32(Int(~crc)))
    }

    static let all: [Case] = {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        png += chunk("IHDR", be32(100_000) + be32(100_000) + [8, 6, 0, 0, 0])
        png += chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        png += chunk("IEND", [])
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8, 0xFF, 0xDC, 0xFF, 0xDC, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9]
        var gif: [UInt8] = Array("GIF89a".utf8)
        gif += le16(65_535) + le16(65_535)
        gif += [0, 0, 0, 0x2C]
        gif += le16(0) + le16(0) + le16(65_535) + le16(65_535)
        gif += [0, 2, 0, 0x3B]
        var bmp: [UInt8] = Array("BM".utf8)
        bmp += le32(54) + le32(0) + le32(54) + le32(40)
        bmp += le32(100_000) + le32(100_000) + le16(1) + le16(24)
        bmp += [UInt8](repeating: 0, count: 24)
        var tiff: [UInt8] = [0x49, 0x49, 42, 0]
        tiff += le32(8) + le16(3)
        tiff += le16(256) + le16(4) + le32(1) + le32(100_000)
        tiff += le16(257) + le16(4) + le32(1) + le32(100_000)
        tiff += le16(258) + le16(3) + le32(1) + le32(8)
        tiff += le32(0)
        var webp: [UInt8] = Array("RIFF".utf8)
        webp += le32(22) + Array("WEBPVP8X".utf8) + le32(10)
        webp += [0, 0, 0, 0, 0xFF, 0x3F, 0, 0xFF, 0x3F, 0]
        let ppm = Data("P6\n100000 100000\n255\n".utf8)
        return [
            Case(name: "PNG 100000×100000", data: png), Case(name: "JPEG 65500×65500", data: Data(jpeg)),
            Case(name: "GIF 65535×65535", data: Data(gif)), Case(name: "BMP 100000×100000", data: Data(bmp)),
            Case(name: "TIFF 100000×100000", data: Data(tiff)), Case(name: "WebP 16384×16384", data: Data(webp)),
            Case(name: "PPM 100000×100000", data: ppm),
        ]
    }()
}
