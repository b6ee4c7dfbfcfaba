// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials

/// Windows bitmaps. BMP has no compression worth a library — rows of palette indices or packed bit fields —
/// and no maintained C library does it alone (GTK's gdk-pixbuf and Qt each carry their own reader), so it is
/// read and written here, every offset checked.
///
/// Reads the 12-byte OS/2 core header and the 40/52/56/108/124-byte Windows headers; 1, 4 and 8 bits through
/// the palette, 16 and 32 bits through bit fields (5-5-5 and BGRX by default), 24 bits BGR; rows bottom-up
/// or top-down. Embedded JPEG and PNG are refused. 32-bit BI_RGB has no alpha (its fourth byte is
/// padding); alpha comes from a V3+ header's alpha mask, as Windows' CF_DIBV5 and GTK write it. RLE8 and
/// RLE4 are expanded (ImageMagick writes palette bitmaps that way).
///
/// Writes 24-bit BGR under a 40-byte header for opaque images, 32-bit BGRA with a V5 header's bit fields
/// when there is transparency (what GTK, Qt and Windows read as alpha).
enum BMPCodec {
    static func decode(_ data: Data, maximumPixelCount: Int) throws -> PixelImage {
        let bytes = [UInt8](data)
        func u16(_ offset: Int) throws -> Int {
            guard offset >= 0, offset + 2 <= bytes.count else { throw truncated }
            return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
        }
        func u32(_ offset: Int) throws -> UInt32 {
            guard offset >= 0, offset + 4 <= bytes.count else { throw truncated }
            return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        let dataOffset = Int(try u32(10))
        let headerSize = Int(try u32(14))
        let width: Int, signedHeight: Int, bitCount: Int, compression: UInt32, colorsUsed: Int
        if headerSize == 12 {
            width = try u16(18)
            signedHeight = try u16(20)
            bitCount = try u16(24)
            compression = 0
            colorsUsed = 0
        } else if [40, 52, 56, 64, 108, 124].contains(headerSize) {
            width = Int(Int32(bitPattern: try u32(18)))
            signedHeight = Int(Int32(bitPattern: try u32(22)))
            bitCount = try u16(28)
            compression = try u32(30)
            colorsUsed = Int(try u32(46))
        } else {
            throw ImageCodecError(.invalidData, "BMP: a \(headerSize)-byte header is not a known BMP header")
        }
        let height = abs(signedHeight)
        guard width > 0, height > 0, signedHeight != Int(Int32.min) else {
            throw ImageCodecError(.invalidData, "BMP: the image is \(width)×\(signedHeight) pixels")
        }
        guard width * height <= maximumPixelCount else {
            throw ImageCodecError(
                .tooLarge, "BMP: the image is \(width)×\(height) pixels, more than the limit of \(maximumPixelCount) pixels")
        }
        // Bit fields: inside V2+ headers (≥ 52 bytes), else after a 40-byte header (BI_BITFIELDS = 3,
        // BI_ALPHABITFIELDS = 6).
        var masks: [UInt32]
        switch (bitCount, compression) {
        case (16, 0): masks = [0x7C00, 0x03E0, 0x001F, 0]
        case (24, 0), (32, 0): masks = [0xFF_0000, 0xFF00, 0xFF, 0]
        case (16, 3), (32, 3), (16, 6), (32, 6):
            let at = 54
            masks = [try u32(at), try u32(at + 4), try u32(at + 8), 0]
            if headerSize >= 56 || compression == 6 { masks[3] = try u32(at + 12) }
        case (1, 0), (4, 0), (8, 0): masks = []
        case (8, 1), (4, 2): masks = []
        case (_, 4), (_, 5): throw ImageCodecError(.invalidData, "BMP: bitmaps wrapping JPEG or PNG are not supported")
        default: throw ImageCodecError(.invalidData, "BMP: \(bitCount) bits per pixel with compression \(compression) is not supported")
        }
        // The palette follows the header (and a 40-byte header's masks): BGRX entries, BGR in core headers.
        var palette: [(UInt8, UInt8, UInt8)] = []
        if bitCount <= 8 {
            let entrySize = headerSize == 12 ? 3 : 4
            let start = 14 + headerSize
            let count = min(colorsUsed == 0 ? 1 << bitCount : colorsUsed, 1 << bitCount)
            for index in 0..<count {
                let at = start + index * entrySize
                guard at + 3 <= bytes.count else { throw truncated }
                palette.append((bytes[at + 2], bytes[at + 1], bytes[at]))
            }
        }
        guard dataOffset >= 14, dataOffset <= bytes.count else { throw truncated }
        if compression == 1 || compression == 2 {
            return try decodeRunLengths(
                bytes[dataOffset...], width: width, height: height, bottomUp: signedHeight > 0, bitCount: bitCount,
                palette: palette)
        }
        let stride = (width * bitCount + 31) / 32 * 4
        guard stride * height <= bytes.count - dataOffset else { throw truncated }
        let fields = masks.map(Field.init)
        let hasAlpha = masks.count == 4 && masks[3] != 0
        var pixels = Data(count: width * height * 4)
        pixels.withUnsafeMutableBytes { buffer in
            let out = buffer.bindMemory(to: UInt8.self)
            for y in 0..<height {
                let row = dataOffset + (signedHeight > 0 ? height - 1 - y : y) * stride
                for x in 0..<width {
                    let target = (y * width + x) * 4
                    switch bitCount {
                    case 1, 4, 8:
                        let bit = x * bitCount
                        let index = Int(bytes[row + bit / 8] >> (8 - bitCount - bit % 8)) & ((1 << bitCount) - 1)
                        let color = index < palette.count ? palette[index] : (0, 0, 0)
                        (out[target], out[target + 1], out[target + 2], out[target + 3]) = (color.0, color.1, color.2, 255)
                    default:
                        let at = row + x * bitCount / 8
                        var value = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8
                        if bitCount >= 24 { value |= UInt32(bytes[at + 2]) << 16 }
                        if bitCount == 32 { value |= UInt32(bytes[at + 3]) << 24 }
                        out[target] = fields[0].value(value)
                        out[target + 1] = fields[1].value(value)
                        out[target + 2] = fields[2].value(value)
                        out[target + 3] = hasAlpha ? fields[3].value(value) : 255
                    }
                }
            }
        }
        return PixelImage(unchecked: width, height, 8, hasAlpha, pixels)
    }

    /// RLE8 and RLE4 (BI_RLE8 = 1, BI_RLE4 = 2): runs of one index, escapes for end of line, end of bitmap,
    /// a jump, or literal indices (padded to 16 bits). Pixels never painted are transparent, as gdk-pixbuf
    /// and browsers show skipped areas.
    static func decodeRunLengths(
        _ stream: ArraySlice<UInt8>, width: Int, height: Int, bottomUp: Bool, bitCount: Int,
        palette: [(UInt8, UInt8, UInt8)]
    ) throws -> PixelImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var skipped = false
        var x = 0, y = 0
        var at = stream.startIndex
        func paint(_ index: Int) {
            guard x < width, y < height else { return }
            let row = bottomUp ? height - 1 - y : y
            let target = (row * width + x) * 4
            let color = index < palette.count ? palette[index] : (0, 0, 0)
            (pixels[target], pixels[target + 1], pixels[target + 2], pixels[target + 3]) = (color.0, color.1, color.2, 255)
        }
        func next() throws -> Int {
            guard at < stream.endIndex else { throw truncated }
            defer { at += 1 }
            return Int(stream[at])
        }
        decoding: while y < height {
            let count = try next(), value = try next()
            if count > 0 {
                // A run: `count` pixels of one index (RLE4: two alternating indices in the byte).
                for i in 0..<count {
                    paint(bitCount == 8 ? value : (i % 2 == 0 ? value >> 4 : value & 0x0F))
                    x += 1
                }
                continue
            }
            switch value {
            case 0:  // end of line
                if x < width { skipped = true }
                x = 0
                y += 1
            case 1:  // end of bitmap
                if y < height - 1 || x < width { skipped = true }
                break decoding
            case 2:  // delta: move right and down
                let dx = try next(), dy = try next()
                skipped = true
                x += dx
                y += dy
            default:  // `value` literal indices, padded to a 16-bit boundary
                let bytesUsed = bitCount == 8 ? value : (value + 1) / 2
                var literal = 0
                for i in 0..<bytesUsed {
                    let byte = try next()
                    for index in bitCount == 8 ? [byte] : [byte >> 4, byte & 0x0F] where literal < value {
                        _ = i
                        paint(index)
                        x += 1
                        literal += 1
                    }
                }
                if bytesUsed % 2 == 1 { _ = try next() }
            }
        }
        return PixelImage(unchecked: width, height, 8, skipped, Data(pixels))
    }

    /// A bit-field mask: its shift and width, and the scale to 8 bits.
    struct Field {
        let mask: UInt32
        let shift: UInt32
        let maximum: UInt32

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            maximum = mask == 0 ? 0 : mask >> shift
        }

        func value(_ pixel: UInt32) -> UInt8 {
            guard maximum > 0 else { return 0 }
            return UInt8((UInt64((pixel & mask) >> shift) * 255 + UInt64(maximum) / 2) / UInt64(maximum))
        }
    }

    static func encode(_ image: PixelImage) -> Data {
        let image = image.eightBitsPerComponent()
        let alpha = image.hasAlpha
        let headerSize = alpha ? 124 : 40
        let bytesPerPixel = alpha ? 4 : 3
        let stride = (image.width * bytesPerPixel + 3) / 4 * 4
        let offset = 14 + headerSize
        var out = [UInt8](repeating: 0, count: offset + stride * image.height)
        func put32(_ value: UInt32, _ at: Int) {
            for index in 0..<4 { out[at + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
        }
        out[0] = 0x42
        out[1] = 0x4D
        put32(UInt32(truncatingIfNeeded: out.count), 2)
        put32(UInt32(offset), 10)
        put32(UInt32(headerSize), 14)
        put32(UInt32(image.width), 18)
        put32(UInt32(image.height), 22)  // positive: rows bottom-up, which every reader takes
        out[26] = 1
        out[28] = UInt8(bytesPerPixel * 8)
        put32(alpha ? 3 : 0, 30)  // BI_BITFIELDS for the V5 header's masks
        put32(UInt32(truncatingIfNeeded: stride * image.height), 34)
        put32(2835, 38)  // 72 dpi
        put32(2835, 42)
        if alpha {
            put32(0x00FF_0000, 54)
            put32(0x0000_FF00, 58)
            put32(0x0000_00FF, 62)
            put32(0xFF00_0000, 66)
            put32(0x7352_4742, 70)  // LCS_sRGB
            put32(4, 122)  // bV5Intent = LCS_GM_IMAGES
        }
        image.pixels.withUnsafeBytes { source in
            let pixels = source.bindMemory(to: UInt8.self)
            for y in 0..<image.height {
                let row = offset + (image.height - 1 - y) * stride
                for x in 0..<image.width {
                    let from = (y * image.width + x) * 4, to = row + x * bytesPerPixel
                    out[to] = pixels[from + 2]
                    out[to + 1] = pixels[from + 1]
                    out[to + 2] = pixels[from]
                    if alpha { out[to + 3] = pixels[from + 3] }
                }
            }
        }
        return Data(out)
    }

    private static let truncated = ImageCodecError(.invalidData, "BMP: the data ends early (truncated)")
}
