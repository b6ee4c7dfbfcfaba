/// An image's pixel size and format, read from the first bytes of its file (no codec): what a history line
/// shows, `[image 1920×1080 PNG 2.1 MB]`. Every field read is bounds-checked: the bytes come from another
/// application.
struct ImageHeader: Sendable, Equatable {
    var width: Int
    var height: Int
    /// PNG, JPEG, GIF, BMP or WebP.
    var format: String

    /// The header of `bytes` (the file's beginning; 64 KiB finds a JPEG's size past its metadata), or nil
    /// when they are no image this knows or too short.
    init?(_ bytes: some RandomAccessCollection<UInt8>) {
        let data = Array(bytes)
        if let parsed = Self.png(data) ?? Self.gif(data) ?? Self.jpeg(data) ?? Self.bmp(data) ?? Self.webp(data) {
            self = parsed
        } else {
            return nil
        }
    }

    private init(width: Int, height: Int, format: String) {
        self.width = width
        self.height = height
        self.format = format
    }

    private static func png(_ b: [UInt8]) -> ImageHeader? {
        // Signature, then the IHDR chunk: its width and height, big-endian (PNG spec §11.2.2).
        guard b.count >= 24, b[0..<8].elementsEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
            b[12..<16].elementsEqual(Array("IHDR".utf8))
        else { return nil }
        return ImageHeader(width: bigEndian(b, 16, 4), height: bigEndian(b, 20, 4), format: "PNG")
    }

    private static func gif(_ b: [UInt8]) -> ImageHeader? {
        guard b.count >= 10, b[0..<3].elementsEqual(Array("GIF".utf8)) else { return nil }
        return ImageHeader(width: littleEndian(b, 6, 2), height: littleEndian(b, 8, 2), format: "GIF")
    }

    private static func bmp(_ b: [UInt8]) -> ImageHeader? {
        // BITMAPINFOHEADER (or later): width and height as signed 32-bit; a negative height is top-down.
        guard b.count >= 26, b[0] == 0x42, b[1] == 0x4d, littleEndian(b, 14, 4) >= 40 else { return nil }
        let height = Int32(truncatingIfNeeded: littleEndian(b, 22, 4))
        return ImageHeader(width: littleEndian(b, 18, 4), height: Int(height.magnitude), format: "BMP")
    }

    private static func jpeg(_ b: [UInt8]) -> ImageHeader? {
        guard b.count >= 4, b[0] == 0xff, b[1] == 0xd8 else { return nil }
        // Markers from SOI on; each segment's length skips it, until a start-of-frame (SOF0–SOF15 but DHT, JPG
        // and DAC) gives the size (ITU T.81 B.2.2). Fill bytes (0xff) between markers are skipped.
        var index = 2
        while index + 3 < b.count {
            guard b[index] == 0xff else { return nil }
            let marker = b[index + 1]
            if marker == 0xff { index += 1; continue }
            if marker == 0xd8 || marker == 0x01 || (0xd0...0xd7).contains(marker) { index += 2; continue }
            let length = bigEndian(b, index + 2, 2)
            guard length >= 2 else { return nil }
            if (0xc0...0xcf).contains(marker), marker != 0xc4, marker != 0xc8, marker != 0xcc {
                guard index + 8 < b.count else { return nil }
                return ImageHeader(width: bigEndian(b, index + 7, 2), height: bigEndian(b, index + 5, 2), format: "JPEG")
            }
            index += 2 + length
        }
        return nil
    }

    private static func webp(_ b: [UInt8]) -> ImageHeader? {
        guard b.count >= 30, b[0..<4].elementsEqual(Array("RIFF".utf8)), b[8..<12].elementsEqual(Array("WEBP".utf8))
        else { return nil }
        switch String(decoding: b[12..<16], as: UTF8.self) {
        case "VP8X":
            // 24-bit width − 1 and height − 1 (WebP container spec, extended format).
            return ImageHeader(width: littleEndian(b, 24, 3) + 1, height: littleEndian(b, 27, 3) + 1, format: "WebP")
        case "VP8 ":
            // The key frame's 14-bit width and height after its start code 9d 01 2a (RFC 6386 §9.1).
            guard b[23] == 0x9d, b[24] == 0x01, b[25] == 0x2a else { return nil }
            return ImageHeader(
                width: littleEndian(b, 26, 2) & 0x3fff, height: littleEndian(b, 28, 2) & 0x3fff, format: "WebP")
        case "VP8L":
            // Signature 0x2f, then 14 bits of width − 1 and 14 of height − 1.
            guard b[20] == 0x2f, b.count >= 25 else { return nil }
            let bits = littleEndian(b, 21, 4)
            return ImageHeader(width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1, format: "WebP")
        default:
            return nil
        }
    }

    private static func bigEndian(_ b: [UInt8], _ offset: Int, _ count: Int) -> Int {
        guard offset >= 0, offset + count <= b.count else { return 0 }
        return b[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ b: [UInt8], _ offset: Int, _ count: Int) -> Int {
        guard offset >= 0, offset + count <= b.count else { return 0 }
        return b[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
