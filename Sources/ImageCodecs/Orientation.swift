// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials

/// The EXIF / TIFF orientation (TIFF 6.0 tag 274, EXIF 2.32 §4.6.4) applied to decoded pixels, so every image
/// comes out the way it is meant to be seen — what browsers, GTK and Qt do with a camera's JPEG.
enum Orientation {
    /// The source pixel (x, y) shown at destination (dx, dy), for a `width` × `height` source. For 5 to 8
    /// the destination is `height` × `width`.
    ///
    /// | value | stored row 0 is | stored column 0 is |
    /// |---|---|---|
    /// | 1 | top | left |
    /// | 2 | top | right |
    /// | 3 | bottom | right |
    /// | 4 | bottom | left |
    /// | 5 | left | top |
    /// | 6 | right | top |
    /// | 7 | right | bottom |
    /// | 8 | left | bottom |
    static func source(of dx: Int, _ dy: Int, orientation: Int, width w: Int, height h: Int) -> (x: Int, y: Int) {
        switch orientation {
        case 2: (w - 1 - dx, dy)
        case 3: (w - 1 - dx, h - 1 - dy)
        case 4: (dx, h - 1 - dy)
        case 5: (dy, dx)
        case 6: (dy, h - 1 - dx)
        case 7: (w - 1 - dy, h - 1 - dx)
        case 8: (w - 1 - dy, dx)
        default: (dx, dy)
        }
    }

    /// `image` turned and mirrored as `orientation` says; the same image for 1 or an unknown value.
    static func apply(_ orientation: Int, to image: PixelImage) -> PixelImage {
        guard (2...8).contains(orientation) else { return image }
        let swaps = orientation >= 5
        let width = swaps ? image.height : image.width, height = swaps ? image.width : image.height
        let size = image.bytesPerPixel
        var turned = Data(count: image.pixels.count)
        turned.withUnsafeMutableBytes { target in
            image.pixels.withUnsafeBytes { source in
                for dy in 0..<height {
                    for dx in 0..<width {
                        let (sx, sy) = Self.source(of: dx, dy, orientation: orientation, width: image.width, height: image.height)
                        let from = (sy * image.width + sx) * size, to = (dy * width + dx) * size
                        target.baseAddress!.advanced(by: to).copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: size)
                    }
                }
            }
        }
        return PixelImage(unchecked: width, height, image.bitsPerComponent, image.hasAlpha, turned)
    }
}
