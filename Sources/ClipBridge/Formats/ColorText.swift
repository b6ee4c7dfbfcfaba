// SPDX-License-Identifier: Apache-2.0
// ClipBridge — application/x-color

import FoundationEssentials
import UniformTypes

/// `application/x-color`: four unsigned 16-bit values R, G, B, A (0…65535), sent with property format 16
/// by GTK (`GdkRGBA` serializer) and Qt (`QXcbMime`, `setColorData`). Format-16 data arrives from the
/// engine as native 16-bit values, i.e. little-endian on every machine this runs on.
struct X11Color: Equatable, Sendable {
    var red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16

    init(red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16 = .max) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Reads the 8-byte wire form; nil for any other length.
    init?(wire data: Data) {
        guard data.count == 8 else { return nil }
        let bytes = [UInt8](data)
        func value(_ index: Int) -> UInt16 { UInt16(bytes[index * 2]) | UInt16(bytes[index * 2 + 1]) << 8 }
        self.init(red: value(0), green: value(1), blue: value(2), alpha: value(3))
    }

    /// The 8-byte wire form (little-endian 16-bit values).
    var wire: Data {
        var data = Data(capacity: 8)
        for value in [red, green, blue, alpha] {
            data.append(UInt8(value & 0xFF))
            data.append(UInt8(value >> 8))
        }
        return data
    }

    /// Parses `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (surrounding whitespace allowed); nil otherwise.
    init?(hex text: String) {
        var digits = Substring(text.trimming(where: \.isWhitespace))
        guard digits.hasPrefix("#") else { return nil }
        digits = digits.dropFirst()
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        func channel(_ hex: Substring) -> UInt16? {
            guard let value = UInt16(hex, radix: 16) else { return nil }
            return hex.count == 1 ? value * 0x1111 : value * 257
        }
        let width: Int
        switch digits.count {
        case 3, 4: width = 1
        case 6, 8: width = 2
        default: return nil
        }
        var channels: [UInt16] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: width)
            guard let value = channel(digits[index..<next]) else { return nil }
            channels.append(value)
            index = next
        }
        self.init(
            red: channels[0], green: channels[1], blue: channels[2], alpha: channels.count == 4 ? channels[3] : .max)
    }

    /// `#rrggbb` for an opaque color, `#rrggbbaa` otherwise (lower-case, each 16-bit channel rounded to 8 bits).
    var hex: String {
        func byte(_ value: UInt16) -> String {
            let eight = (UInt32(value) * 255 + 32767) / 65535
            let text = String(eight, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha == .max ? "" : byte(alpha))
    }
}
