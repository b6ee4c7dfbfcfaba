// SPDX-License-Identifier: Apache-2.0

/// An sRGB color with an opacity — the Linux counterpart of SwiftUI's transferable `Color`.
///
/// A plain value with `Double` components in `0…1`. It keeps Apple's spelling so models that mention
/// `Color` compile unchanged.
///
/// Transfer, in order:
/// 1. `application/x-color` — the X11 convention GTK and Qt use for color drag and drop and the
///    clipboard: four native-endian `UInt16` values, red, green, blue, alpha (8 bytes).
/// 2. Text, through `String`: `#rrggbb`, or `#rrggbbaa` when not opaque. Text import also accepts
///    `#rgb`, `#rgba` and the forms without `#`.
public struct Color: Hashable, Sendable {
    /// Red, `0…1`.
    public var red: Double
    /// Green, `0…1`.
    public var green: Double
    /// Blue, `0…1`.
    public var blue: Double
    /// Opacity (alpha), `0…1`; 1 is opaque.
    public var opacity: Double

    /// A color from sRGB components (as SwiftUI's `Color(red:green:blue:opacity:)`).
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.opacity = opacity
    }

    /// The content type of `application/x-color` (a dynamic type for that MIME type).
    public static let xColorContentType: UTType =
        UTType(mimeType: "application/x-color") ?? UTType(importedAs: "org.freedesktop.x-color")

    /// Parses `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (the `#` is optional, white space around is
    /// ignored); nil for anything else.
    public init?(hexString: String) {
        var digits = Substring(hexString.trimming(where: \.isWhitespace))
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard [3, 4, 6, 8].contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        let width = digits.count <= 4 ? 1 : 2
        var channels: [Double] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: width)
            guard let value = UInt8(digits[index..<next], radix: 16) else { return nil }
            // A one-digit channel `f` means `ff` (CSS Color 4 §5.2).
            channels.append(Double(width == 1 ? value * 17 : value) / 255)
            index = next
        }
        let opacity = channels.count == 4 ? channels[3] : 1
        self.init(red: channels[0], green: channels[1], blue: channels[2], opacity: opacity)
    }

    /// `#rrggbb` (lower case), or `#rrggbbaa` when the color is not opaque at 8-bit precision.
    public var hexString: String {
        let channels = [red, green, blue, opacity].map { UInt8((Self.clamped($0) * 255).rounded()) }
        let shown = channels[3] == 255 ? channels.prefix(3) : channels.prefix(4)
        return "#" + shown.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// Decodes `application/x-color`: four native-endian `UInt16` (RGBA). Six bytes (no alpha) are
    /// accepted as opaque.
    ///
    /// - Throws: ``TransferError`` with code ``TransferError/Code/decodingFailed`` for any other length.
    public init(xColorData data: Data) throws {
        guard data.count == 8 || data.count == 6 else {
            throw TransferError(
                .decodingFailed, "application/x-color holds \(data.count) bytes, expected 8",
                contentType: Self.xColorContentType
            )
        }
        // Native byte order, as GTK writes it (`gtk_selection_data_set` with format 16 copies host words).
        let values = data.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count, by: 2).map { offset in
                Double(raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) / 65535
            }
        }
        self.init(red: values[0], green: values[1], blue: values[2], opacity: values.count == 4 ? values[3] : 1)
    }

    /// The `application/x-color` encoding: four native-endian `UInt16` (RGBA), 8 bytes.
    public var xColorData: Data {
        var data = Data(capacity: 8)
        for component in [red, green, blue, opacity] {
            let value = UInt16((Self.clamped(component) * 65535).rounded())
            withUnsafeBytes(of: value) { data.append(contentsOf: $0) }
        }
        return data
    }

    private static func clamped(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }
}

extension Color: Transferable {
    /// `application/x-color`, then `#rrggbb[aa]` text.
    public static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(contentType: xColorContentType) { color in
            color.xColorData
        } importing: { data in
            try Color(xColorData: data)
        }
        ProxyRepresentation(exporting: \.hexString) { (text: String) in
            guard let color = Color(hexString: text) else {
                throw TransferError(
                    .decodingFailed, "\"\(text.prefix(40))\" is not a #rrggbb or #rrggbbaa color",
                    contentType: .plainText
                )
            }
            return color
        }
    }
}
