// SPDX-License-Identifier: Apache-2.0
// ClipBridge — image format conversions, through a transcoder the application provides

import FoundationEssentials
import TransferKit
import UniformTypes

extension ConverterRegistry {
    /// Registers a converter from every format `transcoder` reads to every format it writes ("JPEG → PNG"),
    /// so a paste of `image/png` from a JPEG-only owner converts, and a copied image is also offered as PNG,
    /// JPEG, TIFF, WebP and BMP — each converted only when an application asks for it (``ContentConverter/headerCheck``
    /// reads the format, size and frame count from the header first).
    ///
    /// ClipBridge links no codec; the `ImageCodecs` library provides one:
    ///
    /// ```swift
    /// var configuration = ClipboardConfiguration()
    /// configuration.converters.registerImageConverters(using: SystemImageTranscoder())
    /// ```
    ///
    /// Converting to a lossless format (PNG, TIFF, BMP) costs 5, to a lossy one (JPEG, WebP) 6, so a lossless
    /// source wins when several are offered and text conversions (1 to 3) are never displaced.
    public mutating func registerImageConverters(using transcoder: any ImageTranscoder) {
        for source in transcoder.decodableContentTypes {
            for destination in transcoder.encodableContentTypes where destination != source {
                register(ImageConverters.converter(from: source, to: destination, transcoder: transcoder))
            }
        }
    }
}

/// The image converters behind ``ConverterRegistry/registerImageConverters(using:)``.
enum ImageConverters {
    /// The formats an image copy is widened to, in offer order after the image's own: PNG (the one format
    /// every image-pasting application reads, Chromium and Firefox included), then the other formats GTK
    /// and Qt offer and read.
    static let destinations: [UTType] = [.png, .jpeg, .tiff, .webP, .bmp]

    static func converter(from source: UTType, to destination: UTType, transcoder: any ImageTranscoder) -> ContentConverter {
        let lossy = destination == .jpeg || destination == .webP
        return ContentConverter(
            name: "\(name(source)) → \(name(destination))", from: source, to: destination, cost: lossy ? 6 : 5,
            headerCheck: { header in
                guard let properties = ImageProperties(data: header) else { return false }
                return properties.contentType.conforms(to: source) && transcoder.accepts(properties)
            }
        ) { data in
            do {
                return try transcoder.transcode(data, to: destination)
            } catch {
                throw ClipboardError(
                    .conversionFailed, "cannot convert the \(name(source)) image to \(name(destination))", underlying: error)
            }
        }
    }

    /// A format's short name: "PNG", "JPEG", "PPM".
    static func name(_ type: UTType) -> String {
        if let netpbm = netpbmNames[type.preferredMIMEType ?? ""] { return netpbm }
        return type.preferredFilenameExtension?.uppercased() ?? type.preferredMIMEType ?? type.identifier
    }

    /// The Netpbm formats' names (their types may be dynamic when the MIME database is not loaded).
    static let netpbmNames = [
        "image/x-portable-pixmap": "PPM", "image/x-portable-graymap": "PGM", "image/x-portable-bitmap": "PBM",
    ]
}
