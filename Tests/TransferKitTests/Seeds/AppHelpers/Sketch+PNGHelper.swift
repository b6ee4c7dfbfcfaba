// App helper for the Sketch seed: `renderToPNGData()` and `init(pngData:)`, which the snippet calls but does
// not show. The PNG is real (RFC 2083 / ISO 15948): a 64×64 8-bit grayscale rendering of the stroke points,
// zlib "stored" blocks (RFC 1950/1951) and CRC-32 per chunk; the exact points travel in a private ancillary
// chunk `stRk` (lower-case first letter: ancillary; second: private; fourth: safe to copy), so the import
// is lossless while any PNG viewer still shows the drawing.
import TransferKit

struct SketchPNGError: Error, Equatable {
    var reason: String
}

extension Sketch {
    private static let side = 64
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    func renderToPNGData() throws -> Data {
        var pixels = [UInt8](repeating: 255, count: Self.side * Self.side)
        let maxX = max(strokes.map(\.x).max() ?? 1, 1)
        let maxY = max(strokes.map(\.y).max() ?? 1, 1)
        for point in strokes {
            let x = min(max(Int(point.x / maxX * Double(Self.side - 1)), 0), Self.side - 1)
            let y = min(max(Int(point.y / maxY * Double(Self.side - 1)), 0), Self.side - 1)
            pixels[y * Self.side + x] = 0
        }
        var scanlines: [UInt8] = []
        for row in 0..<Self.side {
            scanlines.append(0)  // filter type None
            scanlines += pixels[row * Self.side..<(row + 1) * Self.side]
        }
        var header: [UInt8] = []
        header += Self.bigEndian(UInt32(Self.side)) + Self.bigEndian(UInt32(Self.side))
        header += [8, 0, 0, 0, 0]  // bit depth 8, grayscale, deflate, adaptive filtering, no interlace
        let points = strokes.map { [Double($0.x), Double($0.y)] }
        var png = Self.signature
        png += Self.chunk("IHDR", header)
        png += Self.chunk("stRk", Array(try JSONEncoder().encode(points)))
        png += Self.chunk("IDAT", Self.zlibStored(scanlines))
        png += Self.chunk("IEND", [])
        return Data(png)
    }

    init(pngData: Data) throws {
        let bytes = Array(pngData)
        guard bytes.starts(with: Self.signature) else { throw SketchPNGError(reason: "not a PNG") }
        var offset = Self.signature.count
        while offset + 12 <= bytes.count {
            let length = Int(Self.readBigEndian(bytes, offset))
            guard offset + 12 + length <= bytes.count else { break }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = Array(bytes[offset + 8..<offset + 8 + length])
            let crc = Self.readBigEndian(bytes, offset + 8 + length)
            guard crc == Self.crc32(Array(type.utf8) + body) else { throw SketchPNGError(reason: "bad CRC in \(type)") }
            if type == "stRk" {
                let points = try JSONDecoder().decode([[Double]].self, from: Data(body))
                self.init(strokes: points.map { CGPoint(x: $0[0], y: $0[1]) })
                return
            }
            offset += 12 + length
        }
        throw SketchPNGError(reason: "the PNG holds no stroke data")
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(body.count)) + typeBytes + body + bigEndian(crc32(typeBytes + body))
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let final: UInt8 = end == data.count ? 1 : 0
            let length = UInt16(end - start)
            out += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func readBigEndian(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
