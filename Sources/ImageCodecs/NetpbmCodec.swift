// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials

/// The Netpbm formats (P1–P6: bitmap, graymap, pixmap, as text or raw): a header of decimal numbers, then
/// the samples. Qt answers the X `PIXMAP` target with PPM data (`image/ppm`), so reading it lets a paste
/// take an image from an owner that offers nothing else. Read only: ClipBridge never offers PPM.
enum NetpbmCodec {
    static func decode(_ data: Data, maximumPixelCount: Int) throws -> PixelImage {
        let bytes = [UInt8](data)
        guard bytes.count >= 3, bytes[0] == 0x50, (0x31...0x36).contains(bytes[1]) else {
            throw ImageCodecError(.invalidData, "Netpbm: no P1–P6 magic number")
        }
        let kind = Int(bytes[1] - 0x30)
        let header = ImageHeaderCursor(bytes: bytes)
        var offset = 2
        guard let width = header.number(&offset), let height = header.number(&offset), width > 0, height > 0 else {
            throw ImageCodecError(.invalidData, "Netpbm: the header is malformed")
        }
        guard width * height <= maximumPixelCount else {
            throw ImageCodecError(
                .tooLarge, "Netpbm: the image is \(width)×\(height) pixels, more than the limit of \(maximumPixelCount) pixels")
        }
        let isBitmap = kind == 1 || kind == 4
        var maximum = 1
        if !isBitmap {
            guard let value = header.number(&offset), (1...65535).contains(value) else {
                throw ImageCodecError(.invalidData, "Netpbm: the maximum sample value is malformed")
            }
            maximum = value
        }
        let channels = kind == 3 || kind == 6 ? 3 : 1
        let wide = maximum > 255
        let bits = wide ? 16 : 8
        let count = width * height
        var pixels = Data(count: count * 4 * bits / 8)
        var samples: [Int] = []
        samples.reserveCapacity(channels)
        let truncated = ImageCodecError(.invalidData, "Netpbm: the data ends early (truncated)")
        let isRaw = kind >= 4
        // One white-space byte separates the header from raw samples.
        if isRaw { offset += 1 }
        let rawRow = isBitmap ? (width + 7) / 8 : width * channels * (wide ? 2 : 1)
        if isRaw, rawRow * height > bytes.count - min(offset, bytes.count) { throw truncated }
        try pixels.withUnsafeMutableBytes { buffer in
            func store(_ index: Int, _ value: Int) {
                // Scaled to the full range of the output depth.
                if wide {
                    buffer.storeBytes(of: UInt16(value * 65535 / maximum), toByteOffset: index * 2, as: UInt16.self)
                } else {
                    buffer[index] = UInt8(value * 255 / maximum)
                }
            }
            for pixel in 0..<count {
                samples.removeAll(keepingCapacity: true)
                for channel in 0..<channels {
                    let value: Int
                    if isBitmap {
                        // Bitmaps: 1 is black.
                        if isRaw {
                            let x = pixel % width, y = pixel / width
                            value = Int(bytes[offset + y * rawRow + x / 8] >> (7 - x % 8)) & 1
                        } else {
                            while offset < bytes.count, !(bytes[offset] == 0x30 || bytes[offset] == 0x31) {
                                guard bytes[offset] <= 0x20 || bytes[offset] == 0x23 else { throw truncated }
                                if bytes[offset] == 0x23 {
                                    while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
                                } else {
                                    offset += 1
                                }
                            }
                            guard offset < bytes.count else { throw truncated }
                            value = Int(bytes[offset] - 0x30)
                            offset += 1
                        }
                        samples.append(value == 1 ? 0 : 1)
                        continue
                    }
                    if isRaw {
                        let at = offset + (pixel * channels + channel) * (wide ? 2 : 1)
                        value = wide ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : Int(bytes[at])
                    } else {
                        guard let number = header.number(&offset) else { throw truncated }
                        value = number
                    }
                    guard value <= maximum else { throw ImageCodecError(.invalidData, "Netpbm: a sample exceeds the maximum") }
                    samples.append(value)
                }
                let (r, g, b) = channels == 3 ? (samples[0], samples[1], samples[2]) : (samples[0], samples[0], samples[0])
                store(pixel * 4, r)
                store(pixel * 4 + 1, g)
                store(pixel * 4 + 2, b)
                store(pixel * 4 + 3, maximum)
            }
        }
        return PixelImage(unchecked: width, height, bits, false, pixels)
    }
}

/// Decimal tokens of a Netpbm header: white space and `#` comments skipped, at most nine digits.
struct ImageHeaderCursor {
    let bytes: [UInt8]

    func number(_ offset: inout Int) -> Int? {
        while offset < bytes.count {
            let character = bytes[offset]
            if character == 0x23 {
                while offset < bytes.count, bytes[offset] != 0x0A, bytes[offset] != 0x0D { offset += 1 }
            } else if [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains(character) {
                offset += 1
            } else {
                break
            }
        }
        var value = 0, digits = 0
        while offset < bytes.count, (0x30...0x39).contains(bytes[offset]) {
            guard digits < 9 else { return nil }
            value = value * 10 + Int(bytes[offset] - 0x30)
            digits += 1
            offset += 1
        }
        return digits > 0 ? value : nil
    }
}
