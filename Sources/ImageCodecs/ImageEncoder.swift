// SPDX-License-Identifier: Apache-2.0

import CImageShims
import FoundationEssentials
import TransferKit

/// Encodes ``PixelImage``s as PNG, JPEG, TIFF, WebP or BMP, through the system's libpng, libjpeg-turbo,
/// libtiff and libwebp (BMP in Swift).
///
/// - PNG and TIFF keep 16-bit samples and leave the alpha channel out of opaque images; TIFF is LZW with
///   horizontal differencing, which every TIFF reader takes.
/// - JPEG has no alpha: transparent pixels are laid over white, as ImageMagick and browsers do.
/// - WebP is lossy at ``quality`` unless ``webPLossless``; it holds at most 16 383 pixels a side.
/// - BMP is 24-bit, or 32-bit with a V5 header's alpha mask when the image has transparency.
public struct ImageEncoder: Sendable {
    /// JPEG and lossy WebP quality, 1 to 100; 90 by default (libjpeg's scale: 75 is its own default, 90
    /// keeps screenshots' text sharp).
    public var quality: Int
    /// Whether WebP is written lossless (VP8L) rather than lossy.
    public var webPLossless: Bool

    /// An encoder.
    public init(quality: Int = 90, webPLossless: Bool = false) {
        self.quality = min(100, max(1, quality))
        self.webPLossless = webPLossless
    }

    /// The formats written, in the order an image offers them after its own: PNG, JPEG, TIFF, WebP, BMP.
    public static let encodableContentTypes: [UTType] = [.png, .jpeg, .tiff, .webP, .bmp]

    /// True for the formats written with 16-bit samples when the image has them (PNG and TIFF); the others
    /// are written at 8 bits.
    public static func keepsSixteenBitSamples(in type: UTType) -> Bool {
        type == .png || type == .tiff
    }

    /// `image` encoded as `type`.
    public func encode(_ image: PixelImage, as type: UTType) throws -> Data {
        try encode(image, as: type, context: CodecContext(maximumPixelCount: .max, maximumScans: 0))
    }

    /// `image` encoded as `type`, stopping at the next row if the task is cancelled (`.cancelled`).
    public func encode(_ image: PixelImage, as type: UTType) async throws -> Data {
        try await withCodecContext(maximumPixelCount: .max) { try encode(image, as: type, context: $0) }
    }

    func encode(_ image: PixelImage, as type: UTType, context: CodecContext) throws -> Data {
        let quality = Int32(quality), lossless: Int32 = webPLossless ? 1 : 0
        switch type {
        case .png:
            return try context.encode(image, with: cb_png_encode)
        case .jpeg:
            return try context.encode(image.eightBitsPerComponent()) { cb_jpeg_encode($0, quality, $1, $2) }
        case .tiff:
            return try context.encode(image, with: cb_tiff_encode)
        case .webP:
            return try context.encode(image.eightBitsPerComponent()) { cb_webp_encode($0, quality, lossless, $1, $2) }
        case .bmp:
            guard image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
                throw ImageCodecError(.tooLarge, "BMP: the image is too large for the format")
            }
            return BMPCodec.encode(image)
        default:
            throw ImageCodecError(.unsupportedFormat, "\(ImageDecoder.name(type)) images cannot be encoded")
        }
    }
}
