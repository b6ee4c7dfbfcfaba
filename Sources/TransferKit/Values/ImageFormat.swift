// SPDX-License-Identifier: Apache-2.0

/// Recognition of encoded image formats from their leading bytes ("magic numbers"), so an imported
/// image's content type reflects what the bytes are, whatever label they arrived with.
enum ImageFormat {
    /// The formats ``Image`` has a dedicated representation for, in export order.
    static let known: [UTType] = [.png, .jpeg, .gif, .tiff, .webP, .bmp, .heic, .heif, .ico, .svg]

    /// The formats a transcoded image is exported in, in export order after its own: PNG first (the one format
    /// every image-pasting application reads), then JPEG, TIFF, WebP and BMP.
    static let transcodable: [UTType] = [.png, .jpeg, .tiff, .webP, .bmp]

    /// The Netpbm formats by magic number: P1/P4 bitmap, P2/P5 graymap, P3/P6 pixmap (freedesktop MIME types).
    static let netpbm: [UTType] = ["image/x-portable-bitmap", "image/x-portable-graymap", "image/x-portable-pixmap"]
        .map { UTType(mimeType: $0, conformingTo: .image) ?? .image }

    /// True for the Netpbm types.
    static func isNetpbm(_ type: UTType) -> Bool { netpbm.contains(type) }

    /// The format of encoded image bytes, or nil when no known signature matches.
    ///
    /// Signatures: PNG (RFC 2083 §12.11), JPEG SOI marker `FF D8 FF`, GIF87a/GIF89a, TIFF `II*\0` /
    /// `MM\0*`, WebP `RIFF….WEBP`, BMP `BM`, Netpbm `P1`–`P6` and white space, ICO reserved/type words `00 00 01 00`, HEIF family ISO BMFF
    /// `ftyp` box brands (ISO/IEC 23008-12), SVG an `<svg` element near the start of XML text.
    static func sniff(_ data: Data) -> UTType? {
        let bytes = Array(data.prefix(1024))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + signature.count && Array(bytes[offset..<offset + signature.count]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webP }
        if starts(Array("BM".utf8)), bytes.count >= 14 { return .bmp }
        if bytes.count >= 3, bytes[0] == 0x50, (0x31...0x36).contains(bytes[1]), [0x20, 0x09, 0x0A, 0x0D].contains(bytes[2]) {
            return netpbm[Int(bytes[1] - 0x31) % 3]
        }
        if starts([0x00, 0x00, 0x01, 0x00]), bytes.count >= 6 { return .ico }
        if starts(Array("ftyp".utf8), at: 4), bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["heic", "heix", "heim", "heis", "hevc", "hevx"].contains(brand) { return .heic }
            if ["mif1", "msf1", "heif"].contains(brand) { return .heif }
        }
        if let text = String(validating: bytes, as: UTF8.self) ?? String(validating: bytes.dropLast(3), as: UTF8.self),
            text.lowercased().firstRange(of: "<svg") != nil
        {
            return .svg
        }
        return nil
    }
}
