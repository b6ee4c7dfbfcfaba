// SPDX-License-Identifier: Apache-2.0

import FoundationEssentials
import TransferKit

/// TransferKit's `ImageTranscoder` over ``ImageDecoder`` and ``ImageEncoder``: decode, then encode.
///
/// An `Image` made with it also exports PNG, JPEG, TIFF, WebP and BMP:
///
/// ```swift
/// let image = try Image(data: jpegBytes, transcoder: SystemImageTranscoder())
/// ```
///
/// Peak memory of one conversion is the input, the decoded pixels and the output. Pixels take 4 bytes each;
/// 8 when a 16-bit PNG goes to PNG or TIFF, which keep the depth. For JPEG, WebP and BMP, which do not, the
/// decoder scales to 8 bits as it reads. A quarter turn for EXIF orientation adds one more copy of the
/// pixels while it runs.
public struct SystemImageTranscoder: ImageTranscoder {
    /// The decoder, with its limits.
    public var decoder: ImageDecoder
    /// The encoder, with its quality.
    public var encoder: ImageEncoder

    /// A transcoder.
    public init(decoder: ImageDecoder = ImageDecoder(), encoder: ImageEncoder = ImageEncoder()) {
        self.decoder = decoder
        self.encoder = encoder
    }

    public var decodableContentTypes: [UTType] { ImageDecoder.decodableContentTypes }

    /// A still image in a decodable format within the decoder's pixel cap.
    public func accepts(_ properties: ImageProperties) -> Bool {
        (try? decoder.check(properties)) != nil
    }

    public var encodableContentTypes: [UTType] { ImageEncoder.encodableContentTypes }

    public func transcode(_ data: Data, to type: UTType) throws -> Data {
        guard encodableContentTypes.contains(type) else {
            throw ImageCodecError(.unsupportedFormat, "\(ImageDecoder.name(type)) images cannot be encoded")
        }
        var decoder = decoder
        if !ImageEncoder.keepsSixteenBitSamples(in: type) { decoder.maximumBitsPerComponent = 8 }
        return try encoder.encode(try decoder.decode(data), as: type)
    }
}
