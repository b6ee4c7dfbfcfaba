// SPDX-License-Identifier: Apache-2.0

/// Converts encoded images from one format to another.
///
/// TransferKit links no image codec, so by default an ``Image`` exports only its own bytes. The `ImageCodecs`
/// library provides `SystemImageTranscoder`, over the system's libpng, libjpeg-turbo, giflib, libtiff and
/// libwebp; an image made with it also exports PNG, JPEG, TIFF, WebP and BMP:
///
/// ```swift
/// import ImageCodecs
///
/// let png = try await Image(data: jpegBytes, transcoder: SystemImageTranscoder()).exported(as: .png)
/// ```
public protocol ImageTranscoder: Sendable {
    /// The types the transcoder reads.
    var decodableContentTypes: [UTType] { get }
    /// The types the transcoder writes.
    var encodableContentTypes: [UTType] { get }
    /// True when the transcoder can read an image with these header properties — its format, and within
    /// its limits — so the image can be offered in other formats before any pixel is decoded.
    func accepts(_ properties: ImageProperties) -> Bool
    /// The image in `data` (a type the transcoder reads) encoded as `type`.
    /// - Throws: an error saying why the image cannot be read or written (corrupt, too large, animated).
    func transcode(_ data: Data, to type: UTType) throws -> Data
}

extension ImageTranscoder {
    /// True when the transcoder reads images of `type` (or a subtype of one it reads).
    public func canDecode(_ type: UTType) -> Bool {
        decodableContentTypes.contains { type.conforms(to: $0) }
    }

    /// Reads the format and requires a still image; transcoders with size limits add theirs.
    public func accepts(_ properties: ImageProperties) -> Bool {
        canDecode(properties.contentType) && !properties.isAnimated
    }
}
