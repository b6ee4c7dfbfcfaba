import CX11Shims

/// An X protocol error as reported by the server (a copy of Xlib's `XErrorEvent`).
struct X11Error: Hashable, Sendable, CustomStringConvertible {
    /// The X error code (`BadWindow` = 3, `BadAtom` = 5, `BadAlloc` = 11, …).
    var code: UInt8
    /// The major opcode of the failed request.
    var requestCode: UInt8
    /// The minor opcode (extensions).
    var minorCode: UInt8
    /// The resource the request named (a window for `BadWindow`).
    var resourceID: UInt
    /// The serial number of the failed request.
    var serial: UInt

    init(_ raw: CX11Shims_Error) {
        code = raw.errorCode
        requestCode = raw.requestCode
        minorCode = raw.minorCode
        resourceID = UInt(raw.resourceID)
        serial = UInt(raw.serial)
    }

    /// The corresponding X11 error is `BadWindow`.
    static let badWindowCode: UInt8 = 3
    /// The corresponding X11 error is `BadAtom`.
    static let badAtomCode: UInt8 = 5

    var isBadWindow: Bool { code == Self.badWindowCode }

    var description: String {
        let names: [UInt8: String] = [
            1: "BadRequest", 2: "BadValue", 3: "BadWindow", 4: "BadPixmap", 5: "BadAtom", 8: "BadMatch",
            9: "BadDrawable", 10: "BadAccess", 11: "BadAlloc", 14: "BadIDChoice", 16: "BadLength",
        ]
        let name = names[code] ?? "error \(code)"
        return "\(name) (request \(requestCode).\(minorCode), resource 0x\(String(resourceID, radix: 16)), serial \(serial))"
    }
}
