// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials

extension PixelImage {
    /// A copy that fits in `size` × `size` pixels, aspect ratio kept, 8 bits a channel: each output pixel is the
    /// average of the source pixels it covers (a box filter), so a photo's thumbnail is not aliased. An image
    /// that already fits is returned at 8 bits, unscaled. Linear in the source's pixel count.
    public func thumbnail(fitting size: Int) -> PixelImage {
        let image = eightBitsPerComponent()
        let limit = max(1, size)
        guard width > limit || height > limit else { return image }
        let scale = Double(limit) / Double(max(width, height))
        let outWidth = max(1, Int((Double(width) * scale).rounded()))
        let outHeight = max(1, Int((Double(height) * scale).rounded()))
        var sums = [UInt64](repeating: 0, count: outWidth * outHeight * 4)
        var counts = [UInt32](repeating: 0, count: outWidth * outHeight)
        image.pixels.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for y in 0..<height {
                let row = min(outHeight - 1, y * outHeight / height) * outWidth
                for x in 0..<width {
                    let cell = row + min(outWidth - 1, x * outWidth / width)
                    let offset = (y * width + x) * 4
                    for channel in 0..<4 { sums[cell * 4 + channel] += UInt64(bytes[offset + channel]) }
                    counts[cell] += 1
                }
            }
        }
        var out = Data(count: outWidth * outHeight * 4)
        out.withUnsafeMutableBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            for cell in 0..<(outWidth * outHeight) {
                let count = UInt64(max(1, counts[cell]))
                for channel in 0..<4 { bytes[cell * 4 + channel] = UInt8(sums[cell * 4 + channel] / count) }
            }
        }
        return PixelImage(unchecked: outWidth, outHeight, 8, hasAlpha, out)
    }
}
