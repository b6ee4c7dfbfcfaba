// SPDX-License-Identifier: Apache-2.0

import CImageShims
import FoundationEssentials
import TransferKit

/// Decodes PNG, JPEG, GIF, TIFF, WebP, BMP and Netpbm images to ``PixelImage``s, through the system's libpng,
/// libjpeg-turbo, giflib, libtiff and libwebp (BMP and Netpbm, which are uncompressed, in Swift).
///
/// Orientation is applied (a JPEG's EXIF orientation, a TIFF's Orientation tag), palettes and grey are
/// expanded to RGBA, transparency kept; 16-bit PNGs and PGMs stay 16-bit unless ``maximumBitsPerComponent``
/// is 8, everything else is 8-bit.
///
/// Bad input fails cleanly and in bounded time and memory:
/// - the header's pixel count is checked against ``maximumPixelCount`` before any pixel is allocated, so a
///   100 000 × 100 000 header costs nothing (memory for a decode is at most 4 bytes a pixel, 8 at 16 bits,
///   plus the input);
/// - truncated and corrupt data is an ``ImageCodecError`` (`.invalidData`), never a crash or a grey
///   remainder presented as the image;
/// - progressive JPEGs are limited to ``maximumProgressiveScans`` scans (libjpeg-turbo's defence against
///   scan-count denial of service), PNG ancillary chunks to 16 MiB each, libtiff's allocations to 256 MiB;
/// - animated images (GIF, APNG, WebP with more than one frame) are refused with `.animated`: converting
///   them to a still format would silently drop all frames but one;
/// - the async `decode(_:)` stops at the next row when its task is cancelled.
public struct ImageDecoder: Sendable {
    /// The default cap on width × height: 2²⁷ = 134 217 728 pixels (11 585 × 11 585; a 7680 × 4320 8K
    /// screenshot is a quarter of it), 512 MiB as 8-bit RGBA.
    public static let defaultMaximumPixelCount = 1 << 27

    /// The largest width × height decoded; larger images fail with `.tooLarge` before any pixel is allocated.
    public var maximumPixelCount: Int
    /// The most scans a progressive JPEG may have.
    public var maximumProgressiveScans = 500
    /// 16 (the default) keeps 16-bit samples; 8 scales them to 8 bits (rounded) while decoding, so a 16-bit
    /// PNG bound for a format without deeper samples (JPEG, WebP, BMP) never takes 8 bytes a pixel.
    public var maximumBitsPerComponent = 16

    /// A decoder with a pixel cap.
    public init(maximumPixelCount: Int = ImageDecoder.defaultMaximumPixelCount) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// The formats decoded.
    public static let decodableContentTypes: [UTType] = [.png, .jpeg, .gif, .tiff, .webP, .bmp] + NetpbmTypes.all

    /// True when images of `type` are decoded.
    public func canDecode(_ type: UTType) -> Bool {
        Self.decodableContentTypes.contains { type.conforms(to: $0) }
    }

    /// The header of `data`, checked the way `decode(_:)` checks it, without decoding a pixel: the
    /// format is one this decoder reads, the image is still (not animated) and within the pixel cap.
    public func properties(of data: Data) throws -> ImageProperties {
        guard let properties = ImageProperties(data: data) else {
            if let image = try? Image(data: data) {
                guard canDecode(image.contentType) else {
                    throw ImageCodecError(.unsupportedFormat, "\(Self.name(image.contentType)) images cannot be decoded")
                }
                throw ImageCodecError(.invalidData, "\(Self.name(image.contentType)): the header is malformed or cut short")
            }
            throw ImageCodecError(.unsupportedFormat, "the data is not an image in a format that can be decoded")
        }
        try check(properties)
        return properties
    }

    /// Checks header properties the way `decode(_:)` does: a decodable format, a still image, within the cap.
    public func check(_ properties: ImageProperties) throws {
        guard canDecode(properties.contentType) else {
            throw ImageCodecError(.unsupportedFormat, "\(Self.name(properties.contentType)) images cannot be decoded")
        }
        if properties.isAnimated {
            throw ImageCodecError(
                .animated,
                "\(Self.name(properties.contentType)): the image is animated; converting it would keep only its first frame")
        }
        let (pixels, overflow) = properties.pixelWidth.multipliedReportingOverflow(by: properties.pixelHeight)
        guard !overflow, pixels <= maximumPixelCount else {
            throw ImageCodecError(
                .tooLarge,
                "\(Self.name(properties.contentType)): the image is \(properties.pixelWidth)×\(properties.pixelHeight) "
                    + "pixels, more than the limit of \(maximumPixelCount) pixels")
        }
    }

    /// Decodes `data`, whose format is recognised from its bytes.
    public func decode(_ data: Data) throws -> PixelImage {
        try decode(data, context: CodecContext(
            maximumPixelCount: maximumPixelCount, maximumScans: maximumProgressiveScans, eightBit: maximumBitsPerComponent < 16))
    }

    /// Decodes `data`, stopping at the next row if the task is cancelled (`.cancelled`).
    public func decode(_ data: Data) async throws -> PixelImage {
        try await withCodecContext(
            maximumPixelCount: maximumPixelCount, maximumScans: maximumProgressiveScans, eightBit: maximumBitsPerComponent < 16
        ) {
            try decode(data, context: $0)
        }
    }

    func decode(_ data: Data, context: CodecContext) throws -> PixelImage {
        let properties = try properties(of: data)
        let decoded: (image: PixelImage, orientation: Int)
        switch properties.contentType {
        case .png: decoded = try context.decode(data, with: cb_png_decode)
        case .jpeg: decoded = (try context.decode(data, with: cb_jpeg_decode).image, properties.orientation)
        case .gif: decoded = try context.decode(data, with: cb_gif_decode)
        case .tiff: decoded = try context.decode(data, with: cb_tiff_decode)
        case .webP: decoded = try context.decode(data, with: cb_webp_decode)
        case .bmp: decoded = (try BMPCodec.decode(data, maximumPixelCount: maximumPixelCount), 1)
        default: decoded = (try NetpbmCodec.decode(data, maximumPixelCount: maximumPixelCount), 1)
        }
        // Netpbm's 16-bit samples are read in Swift, at full depth; libpng scales while decoding.
        let image = decoded.image.bitsPerComponent > maximumBitsPerComponent ? decoded.image.eightBitsPerComponent() : decoded.image
        return Orientation.apply(decoded.orientation, to: image)
    }

    /// A format's short name for messages: "JPEG", "PNG".
    static func name(_ type: UTType) -> String {
        switch type.preferredMIMEType {
        case "image/x-portable-pixmap": "PPM"
        case "image/x-portable-graymap": "PGM"
        case "image/x-portable-bitmap": "PBM"
        default: type.preferredFilenameExtension?.uppercased() ?? type.preferredMIMEType ?? type.identifier
        }
    }
}

/// The Netpbm types, as TransferKit recognises them (the freedesktop MIME types).
enum NetpbmTypes {
    static let all: [UTType] = ["image/x-portable-bitmap", "image/x-portable-graymap", "image/x-portable-pixmap"]
        .map { UTType(mimeType: $0, conformingTo: .image) ?? .image }
}
