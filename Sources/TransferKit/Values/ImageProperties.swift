// SPDX-License-Identifier: Apache-2.0

/// What an encoded image's header says about it — format, pixel size, orientation, animation — read without
/// decoding a pixel, in time linear in the bytes examined.
///
/// ```swift
/// let photo = try Image(data: jpegBytes)
/// photo.properties?.pixelWidth        // 4032, as stored
/// photo.properties?.displayedWidth    // 3024 when the EXIF orientation turns it a quarter
/// ```
public struct ImageProperties: Hashable, Sendable {
    /// The format, recognised from the bytes.
    public var contentType: UTType
    /// Width in pixels, as stored.
    public var pixelWidth: Int
    /// Height in pixels, as stored.
    public var pixelHeight: Int
    /// The EXIF / TIFF orientation, 1 to 8 (TIFF 6.0 tag 274); 1 when the image carries none.
    public var orientation: Int
    /// True when the image has more than one frame: an animated GIF, APNG or WebP.
    public var isAnimated: Bool

    /// Creates properties.
    public init(contentType: UTType, pixelWidth: Int, pixelHeight: Int, orientation: Int = 1, isAnimated: Bool = false) {
        self.contentType = contentType
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        self.isAnimated = isAnimated
    }

    /// True when the orientation turns the image a quarter (5 to 8), so width and height swap on display.
    public var swapsDimensions: Bool { orientation >= 5 }
    /// Width as displayed, the orientation applied.
    public var displayedWidth: Int { swapsDimensions ? pixelHeight : pixelWidth }
    /// Height as displayed, the orientation applied.
    public var displayedHeight: Int { swapsDimensions ? pixelWidth : pixelHeight }

    /// The properties of encoded bytes: PNG (and APNG), JPEG (with its EXIF orientation), GIF, BMP, TIFF,
    /// WebP and the Netpbm formats. Nil when the format is not one of these or the header is cut short or
    /// malformed.
    public init?(data: Data) {
        guard let type = ImageFormat.sniff(data) else { return nil }
        let header = ImageHeaderReader(bytes: data)
        let read: ImageProperties?
        switch type {
        case .png: read = header.png()
        case .jpeg: read = header.jpeg()
        case .gif: read = header.gif()
        case .bmp: read = header.bmp()
        case .tiff: read = header.tiff()
        case .webP: read = header.webP()
        default: read = ImageFormat.isNetpbm(type) ? header.netpbm(type) : nil
        }
        guard let read, read.pixelWidth > 0, read.pixelHeight > 0 else { return nil }
        self = read
    }
}

extension Image {
    /// The image's header: format, pixel size, orientation and animation, read without decoding. Nil when
    /// the bytes are not in a format whose header TransferKit reads (PNG, JPEG, GIF, BMP, TIFF, WebP,
    /// Netpbm) or the header is malformed.
    public var properties: ImageProperties? { ImageProperties(data: data) }
}

/// Bounds-checked readers of each format's header. Every offset is checked before use; walks over chunks,
/// segments and blocks move forward by at least one byte per step, so they end in linear time.
struct ImageHeaderReader {
    let bytes: Data

    private func byte(_ offset: Int) -> Int? {
        offset >= 0 && offset < bytes.count ? Int(bytes[bytes.startIndex + offset]) : nil
    }

    private func big16(_ offset: Int) -> Int? {
        guard let a = byte(offset), let b = byte(offset + 1) else { return nil }
        return a << 8 | b
    }

    private func big32(_ offset: Int) -> Int? {
        guard let a = big16(offset), let b = big16(offset + 2) else { return nil }
        return a << 16 | b
    }

    private func little16(_ offset: Int) -> Int? {
        guard let a = byte(offset), let b = byte(offset + 1) else { return nil }
        return b << 8 | a
    }

    private func little24(_ offset: Int) -> Int? {
        guard let a = little16(offset), let b = byte(offset + 2) else { return nil }
        return b << 16 | a
    }

    private func little32(_ offset: Int) -> Int? {
        guard let a = little16(offset), let b = little16(offset + 2) else { return nil }
        return b << 16 | a
    }

    private func matches(_ text: String, at offset: Int) -> Bool {
        text.utf8.enumerated().allSatisfy { byte(offset + $0.offset) == Int($0.element) }
    }

    /// PNG (ISO/IEC 15948): IHDR first; an `acTL` chunk before IDAT with more than one frame makes an APNG.
    func png() -> ImageProperties? {
        guard matches("IHDR", at: 12), let width = big32(16), let height = big32(20) else { return nil }
        var offset = 8
        var animated = false
        while let length = big32(offset), offset + 12 + length <= bytes.count {
            if matches("IDAT", at: offset + 4) { break }
            if matches("acTL", at: offset + 4), let frames = big32(offset + 8) { animated = frames > 1 }
            offset += 12 + length
        }
        return ImageProperties(contentType: .png, pixelWidth: width, pixelHeight: height, isAnimated: animated)
    }

    /// JPEG (ITU T.81 Annex B): markers up to the first SOFn give the size; an APP1 `Exif` segment the
    /// orientation.
    func jpeg() -> ImageProperties? {
        var offset = 2
        var orientation = 1
        while let marker = byte(offset), marker == 0xFF {
            offset += 1
            guard var code = byte(offset) else { return nil }
            while code == 0xFF {  // fill bytes (B.1.1.2)
                offset += 1
                guard let next = byte(offset) else { return nil }
                code = next
            }
            offset += 1
            if code == 0x01 || (0xD0...0xD7).contains(code) { continue }  // standalone markers
            if code == 0xD9 || code == 0xDA { return nil }  // EOI or SOS before any frame header
            guard let length = big16(offset), length >= 2 else { return nil }
            let isFrameHeader = (0xC0...0xCF).contains(code) && code != 0xC4 && code != 0xC8 && code != 0xCC
            if isFrameHeader {
                guard let height = big16(offset + 3), let width = big16(offset + 5) else { return nil }
                return ImageProperties(contentType: .jpeg, pixelWidth: width, pixelHeight: height, orientation: orientation)
            }
            if code == 0xE1, length >= 8, matches("Exif\0\0", at: offset + 2) {
                let start = bytes.startIndex + offset + 8
                let end = min(bytes.endIndex, bytes.startIndex + offset + length)
                if start < end, let tags = ImageHeaderReader(bytes: bytes[start..<end]).tiffTags([0x0112]) {
                    orientation = tags[0x0112] ?? 1
                }
            }
            offset += length
        }
        return nil
    }

    /// GIF89a: the logical screen size; more than one image descriptor makes it animated. Blocks are walked
    /// through their sub-block lengths without decoding.
    func gif() -> ImageProperties? {
        guard let width = little16(6), let height = little16(8), let flags = byte(10) else { return nil }
        var offset = 13 + (flags & 0x80 != 0 ? 3 << ((flags & 7) + 1) : 0)
        var images = 0
        func skipSubBlocks() -> Bool {
            while let size = byte(offset) {
                offset += 1 + size
                if size == 0 { return true }
            }
            return false
        }
        walk: while images < 2, let introducer = byte(offset) {
            switch introducer {
            case 0x21:  // extension: label, then sub-blocks
                offset += 2
                guard skipSubBlocks() else { break walk }
            case 0x2C:  // image descriptor, optional local colour table, LZW code size, sub-blocks
                guard let localFlags = byte(offset + 9) else { break walk }
                images += 1
                offset += 10 + (localFlags & 0x80 != 0 ? 3 << ((localFlags & 7) + 1) : 0) + 1
                guard skipSubBlocks() else { break walk }
            default:
                break walk  // trailer (0x3B) or garbage
            }
        }
        return ImageProperties(contentType: .gif, pixelWidth: width, pixelHeight: height, isAnimated: images > 1)
    }

    /// BMP: the DIB header after the 14-byte file header (OS/2 core headers have 16-bit sizes); a negative
    /// height means rows stored top-down.
    func bmp() -> ImageProperties? {
        guard let headerSize = little32(14) else { return nil }
        if headerSize == 12 {
            guard let width = little16(18), let height = little16(20) else { return nil }
            return ImageProperties(contentType: .bmp, pixelWidth: width, pixelHeight: height)
        }
        guard headerSize >= 40, let width = little32(18), let height = little32(22) else { return nil }
        let signedWidth = Int(Int32(bitPattern: UInt32(width))), signedHeight = Int(Int32(bitPattern: UInt32(height)))
        guard signedWidth > 0, signedHeight != Int(Int32.min) else { return nil }
        return ImageProperties(contentType: .bmp, pixelWidth: signedWidth, pixelHeight: abs(signedHeight))
    }

    /// TIFF 6.0: ImageWidth (256), ImageLength (257) and Orientation (274) of the first directory.
    func tiff() -> ImageProperties? {
        guard let tags = tiffTags([256, 257, 274]), let width = tags[256], let height = tags[257] else { return nil }
        return ImageProperties(contentType: .tiff, pixelWidth: width, pixelHeight: height, orientation: tags[274] ?? 1)
    }

    /// The SHORT or LONG values of `wanted` tags in the first directory of a TIFF structure (a TIFF file, or
    /// the body of an EXIF segment).
    func tiffTags(_ wanted: Set<Int>) -> [Int: Int]? {
        let little: Bool
        if matches("II", at: 0) { little = true } else if matches("MM", at: 0) { little = false } else { return nil }
        let u16 = { (offset: Int) in little ? self.little16(offset) : self.big16(offset) }
        let u32 = { (offset: Int) in little ? self.little32(offset) : self.big32(offset) }
        guard u16(2) == 42, let directory = u32(4), let count = u16(directory) else { return nil }
        var values: [Int: Int] = [:]
        for index in 0..<min(count, (bytes.count - directory) / 12 + 1) {
            let entry = directory + 2 + index * 12
            guard let tag = u16(entry), let type = u16(entry + 2) else { break }
            guard wanted.contains(tag) else { continue }
            switch type {
            case 3: values[tag] = u16(entry + 8)  // SHORT, left-justified in the value field
            case 4: values[tag] = u32(entry + 8)  // LONG
            default: break
            }
        }
        return values
    }

    /// WebP (RIFF): the `VP8 ` key frame, the `VP8L` header, or the `VP8X` canvas with its animation flag.
    func webP() -> ImageProperties? {
        if matches("VP8 ", at: 12) {
            guard byte(23) == 0x9D, byte(24) == 0x01, byte(25) == 0x2A, let width = little16(26),
                let height = little16(28)
            else { return nil }
            return ImageProperties(contentType: .webP, pixelWidth: width & 0x3FFF, pixelHeight: height & 0x3FFF)
        }
        if matches("VP8L", at: 12) {
            guard byte(20) == 0x2F, let bits = little32(21) else { return nil }
            return ImageProperties(
                contentType: .webP, pixelWidth: (bits & 0x3FFF) + 1, pixelHeight: ((bits >> 14) & 0x3FFF) + 1)
        }
        if matches("VP8X", at: 12) {
            guard let flags = byte(20), let width = little24(24), let height = little24(27) else { return nil }
            return ImageProperties(
                contentType: .webP, pixelWidth: width + 1, pixelHeight: height + 1, isAnimated: flags & 0x02 != 0)
        }
        return nil
    }

    /// Netpbm (P1–P6): magic, width and height as decimal tokens, `#` comments to the end of a line.
    func netpbm(_ type: UTType) -> ImageProperties? {
        var offset = 2
        var numbers: [Int] = []
        while numbers.count < 2 {
            guard let number = netpbmNumber(&offset) else { return nil }
            numbers.append(number)
        }
        return ImageProperties(contentType: type, pixelWidth: numbers[0], pixelHeight: numbers[1])
    }

    /// The next decimal token of a Netpbm header at `offset`, at most nine digits; advances past it.
    func netpbmNumber(_ offset: inout Int) -> Int? {
        while let character = byte(offset) {
            if character == 0x23 {  // '#': a comment to the end of the line
                while let c = byte(offset), c != 0x0A, c != 0x0D { offset += 1 }
            } else if [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(character) {
                offset += 1
            } else {
                break
            }
        }
        var value = 0
        var digits = 0
        while let character = byte(offset), (0x30...0x39).contains(character) {
            guard digits < 9 else { return nil }
            value = value * 10 + character - 0x30
            digits += 1
            offset += 1
        }
        return digits > 0 ? value : nil
    }
}
