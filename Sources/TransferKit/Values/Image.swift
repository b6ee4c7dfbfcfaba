// SPDX-License-Identifier: Apache-2.0

/// An encoded image and its content type — the Linux counterpart of SwiftUI's transferable `Image`.
///
/// SwiftUI's `Image` is a view; on Linux there is nothing to render, so TransferKit's `Image` is a plain
/// value holding the encoded bytes (PNG, JPEG, GIF, TIFF, WebP, BMP, HEIC/HEIF, ICO, SVG or any other
/// type conforming to `public.image`) and their type. It keeps Apple's spelling so models such as
/// `case image(Image)` compile unchanged; no transcoding is done.
///
/// ```swift
/// let image = try Image(data: Data(contentsOf: pngFile))     // type recognised from the bytes
/// image.contentType                                         // .png
/// Image.importedContentTypes().contains(.jpeg)              // true
/// ```
///
/// Transfer: the image exports its own bytes first, as its own content type; then, when it carries an
/// ``ImageTranscoder`` (``Image/transcoder``), PNG and the other formats the transcoder writes, each converted only
/// when asked for. It imports every known format, and any other `public.image` subtype
/// as offered. On import the bytes decide the type when they carry a
/// known signature (a PNG offered as `image/jpeg` becomes a PNG image); bytes with no recognisable
/// signature offered as a format that has one are rejected with ``TransferError/Code/decodingFailed``.
public struct Image: Hashable, Sendable {
    /// The encoded image bytes.
    public var data: Data
    /// The bytes' content type, conforming to `public.image`.
    public var contentType: UTType
    /// Through what the image exports formats other than its own; nil (the default) exports it as its own type
    /// only. It belongs to this value — no process-wide switch: two parts of a program can transfer images with
    /// different transcoders, or none. Not part of the image's equality.
    public var transcoder: (any ImageTranscoder)?

    /// An image from encoded bytes of a known type. The bytes are not checked.
    public init(data: Data, contentType: UTType, transcoder: (any ImageTranscoder)? = nil) {
        self.data = data
        self.contentType = contentType
        self.transcoder = transcoder
    }

    /// An image from encoded bytes whose type is recognised from their signature.
    ///
    /// - Throws: ``TransferError`` with code ``TransferError/Code/decodingFailed`` when the bytes match no
    ///   known image format.
    public init(data: Data, transcoder: (any ImageTranscoder)? = nil) throws {
        guard let type = ImageFormat.sniff(data) else {
            throw TransferError(.decodingFailed, "the data is not an image in a known format", contentType: .image)
        }
        self.init(data: data, contentType: type, transcoder: transcoder)
    }

    /// This image, exporting the formats `transcoder` writes (nil: its own only).
    public func transcoding(with transcoder: (any ImageTranscoder)?) -> Image {
        var image = self
        image.transcoder = transcoder
        return image
    }

    public static func == (lhs: Image, rhs: Image) -> Bool {
        lhs.data == rhs.data && lhs.contentType == rhs.contentType
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(data)
        hasher.combine(contentType)
    }

    /// The formats with a dedicated representation, in export order: PNG, JPEG, GIF, TIFF, WebP, BMP,
    /// HEIC, HEIF, ICO, SVG.
    public static var knownContentTypes: [UTType] { ImageFormat.known }

    /// Validates imported bytes against the type they were offered as.
    static func imported(_ data: Data, offeredAs offered: UTType) throws -> Image {
        if let sniffed = ImageFormat.sniff(data) { return Image(data: data, contentType: sniffed) }
        if data.isEmpty || ImageFormat.known.contains(offered) {
            throw TransferError(
                .decodingFailed, "the content offered as \(offered.identifier) is not a recognisable image",
                contentType: offered
            )
        }
        return Image(data: data, contentType: offered)
    }
}

extension Image: Transferable {
    /// One representation per known format, each exporting only images of that format; then one that
    /// exports any other image type as itself and imports any `public.image`.
    public static var transferRepresentation: some TransferRepresentation {
        for format in ImageFormat.known {
            ImageFormatRepresentation(format: format)
        }
        AnyImageRepresentation()
        for format in ImageFormat.transcodable {
            TranscodedImageRepresentation(format: format)
        }
    }
}

/// One format an image of another format exports through its ``ImageTranscoder``, converted on request. Offered only for images the transcoder decodes whose header reads as a still image.
struct TranscodedImageRepresentation: TransferRepresentation {
    typealias Item = Image

    let format: UTType

    var body: some TransferRepresentation<Image> {
        let format = format
        DataRepresentation(exportedContentType: format) { image in
            guard let transcoder = image.transcoder else {
                throw TransferError(.exportFailed, "the image carries no transcoder", contentType: format)
            }
            return try transcoder.transcode(image.data, to: format)
        }
        .exportingCondition { image in
            guard image.contentType != format, let transcoder = image.transcoder,
                transcoder.encodableContentTypes.contains(format), let properties = image.properties
            else { return false }
            return transcoder.accepts(properties)
        }
    }
}

/// The representation of one known image format, composed from public API.
struct ImageFormatRepresentation: TransferRepresentation {
    typealias Item = Image

    let format: UTType

    var body: some TransferRepresentation<Image> {
        let format = format
        DataRepresentation(contentType: format) { image in
            image.data
        } importing: { data in
            try Image.imported(data, offeredAs: format)
        }
        .exportingCondition { image in image.contentType == format }
    }
}

/// Images of types without a dedicated representation. Public representations cannot see the offered
/// type or choose the exported type per value, so this one is built on the internal entry model.
struct AnyImageRepresentation: PrimitiveTransferRepresentation {
    typealias Item = Image
    typealias Body = Never

    func entries() -> [RepresentationEntry<Image>] {
        let leaf = LeafEntry<Image>(
            contentType: .image,
            isFileBacked: false,
            exporter: { image in .data(image.data) },
            exportedType: { image in image.contentType },
            importer: { context in
                let data = try loadImportedData(context, contentType: .image, item: Image.self)
                return try Image.imported(data, offeredAs: context.offeredType)
            }
        )
        var entry = RepresentationEntry(leaf)
        entry.modifiers.conditions = [{ image in !ImageFormat.known.contains(image.contentType) }]
        return [entry]
    }
}
