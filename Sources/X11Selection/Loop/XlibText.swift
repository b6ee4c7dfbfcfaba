internal import CX11
import CX11Shims
import FoundationEssentials
import Glibc
import Synchronization

/// Text conversions through Xlib's converters (COMPOUND_TEXT and TEXT, ICCCM 2.7.1): part of the one door to
/// Xlib, like the rest of `XDisplay`.
extension XDisplay {

    /// Converts UTF-8 text with Xlib's converters. `compoundTextOnly` picks XCompoundTextStyle (always
    /// COMPOUND_TEXT); otherwise XStdICCTextStyle (STRING when Latin-1 suffices, else COMPOUND_TEXT),
    /// which is ICCCM's recommendation for the TEXT target. Returns nil when Xlib cannot convert.
    func encodeText(_ text: String, compoundTextOnly: Bool) -> PropertyValue? {
        withUTF8CharacterLocale {
            var property = XTextProperty()
            var status: Int32 = 0
            text.withCString { cString in
                var list: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(mutating: cString)
                status = Xutf8TextListToTextProperty(
                    display, &list, 1, compoundTextOnly ? XCompoundTextStyle : XStdICCTextStyle, &property)
            }
            // A positive status counts characters Xlib replaced because no charset had them.
            guard status == Success, let value = property.value else {
                if let value = property.value { XFree(value) }
                return nil
            }
            defer { XFree(value) }
            let bytes = Data(bytes: value, count: Int(property.nitems))
            return PropertyValue(
                type: X11Atom(rawValue: UInt(property.encoding)), format: Int(property.format), bytes: bytes,
                bytesAfter: 0, itemCount: bytes.count)
        }
    }

    /// Converts COMPOUND_TEXT / STRING / UTF8_STRING property bytes to a String with Xlib's converters.
    func decodeText(_ bytes: Data, type: X11Atom) -> String? {
        withUTF8CharacterLocale {
            var copy = [UInt8](bytes)
            copy.append(0)
            return copy.withUnsafeMutableBufferPointer { buffer -> String? in
                var property = XTextProperty()
                property.value = buffer.baseAddress
                property.encoding = Atom(type.rawValue)
                property.format = 8
                property.nitems = UInt(bytes.count)
                var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
                var count: Int32 = 0
                let status = Xutf8TextPropertyToTextList(display, &property, &list, &count)
                guard status >= Success, let list else { return nil }
                defer { XFreeStringList(list) }
                // A text property may hold several NUL-separated strings; keep the separators.
                var pieces: [String] = []
                for index in 0..<Int(count) {
                    if let item = list[index] { pieces.append(String(cString: item)) }
                }
                return pieces.joined(separator: "\0")
            }
        }
    }
}

/// Serialises every LC_CTYPE switch of the process's connections (each has its own thread): without it
/// two conversions could interleave their save/restore and leave the host in the wrong locale for good.
let textConversionLock = Mutex(())

/// Runs `body` with a UTF-8 LC_CTYPE locale, which Xlib's text converters need to reach every charset.
///
/// Xlib picks its converters from the *global* `setlocale(LC_CTYPE, NULL)` (`_XlcCurrentLC`), so a
/// per-thread `uselocale` does not help. A Swift program that never called `setlocale` runs in the "C"
/// locale, where Xlib can only produce Latin-1. When the host already uses a UTF-8 locale nothing is
/// changed; otherwise LC_CTYPE is switched to `C.UTF-8` for the duration of the call (under
/// `textConversionLock`) and restored right after. Known limit: another thread of the host that reads
/// LC_CTYPE during those microseconds sees C.UTF-8.
func withUTF8CharacterLocale<T>(_ body: () -> T) -> T {
    textConversionLock.withLock { _ in
        guard let current = setlocale(LC_CTYPE, nil).map({ String(cString: $0) }) else { return body() }
        let lowered = current.lowercased()
        if lowered.contains("utf-8") || lowered.contains("utf8") {
            return body()
        }
        guard setlocale(LC_CTYPE, "C.UTF-8") != nil else { return body() }
        defer { setlocale(LC_CTYPE, current) }
        return body()
    }
}
