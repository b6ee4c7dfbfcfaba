// SPDX-License-Identifier: Apache-2.0

import CImageShims
import FoundationEssentials

/// One call's C context: the pixel cap, the cancellation flag the C side polls between rows, and the error
/// message. A class, so the flag has one address that a cancellation handler on another thread can set.
final class CodecContext: @unchecked Sendable {
    // Safety: the C side reads `cancelled` with atomic loads and cb_cancel stores atomically; every other
    // field is touched by the one thread running the call.
    let pointer: UnsafeMutablePointer<cb_context>

    init(maximumPixelCount: Int, maximumScans: Int, eightBit: Bool = false) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: cb_context())
        pointer.pointee.max_pixels = UInt64(max(0, maximumPixelCount))
        pointer.pointee.max_scans = Int32(clamping: maximumScans)
        pointer.pointee.eight_bit = eightBit ? 1 : 0
    }

    deinit { pointer.deallocate() }

    func cancel() { cb_cancel(pointer) }

    /// The C side's message.
    var message: String {
        withUnsafeBytes(of: &pointer.pointee.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// An error for a nonzero result code.
    func error(_ code: Int32) -> ImageCodecError {
        let kind: ImageCodecError.Code =
            switch Int(code) {
            case Int(CB_TOO_LARGE): .tooLarge
            case Int(CB_CANCELLED): .cancelled
            case Int(CB_NO_MEMORY): .outOfMemory
            case Int(CB_UNAVAILABLE): .codecUnavailable
            default: .invalidData
            }
        return ImageCodecError(kind, message.isEmpty ? "the image cannot be read" : message)
    }

    /// Runs a decoder over `data` and takes ownership of the pixels it allocated.
    func decode(
        _ data: Data, with decoder: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<cb_context>, UnsafeMutablePointer<cb_pixels>) -> Int32
    ) throws -> (image: PixelImage, orientation: Int) {
        var result = cb_pixels()
        let status = data.withUnsafeBytes { bytes in
            decoder(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, pointer, &result)
        }
        guard status == CB_OK, let pixels = result.pixels else { throw error(status) }
        let width = Int(result.width), height = Int(result.height), bits = Int(result.bits)
        let owned = Data(bytesNoCopy: pixels, count: width * height * 4 * bits / 8, deallocator: .free)
        return (PixelImage(unchecked: width, height, bits, result.has_alpha != 0, owned), Int(result.orientation))
    }

    /// Runs an encoder over `image` and takes ownership of the bytes it allocated.
    func encode(
        _ image: PixelImage, with encoder: (UnsafePointer<cb_pixels>, UnsafeMutablePointer<cb_context>, UnsafeMutablePointer<cb_bytes>) -> Int32
    ) throws -> Data {
        var output = cb_bytes()
        let status = image.pixels.withUnsafeBytes { bytes in
            var input = cb_pixels(
                width: UInt32(image.width), height: UInt32(image.height), bits: UInt32(image.bitsPerComponent),
                has_alpha: image.hasAlpha ? 1 : 0, orientation: 1,
                pixels: UnsafeMutablePointer(mutating: bytes.bindMemory(to: UInt8.self).baseAddress))
            return encoder(&input, pointer, &output)
        }
        guard status == CB_OK, let bytes = output.data else { throw error(status) }
        return Data(bytesNoCopy: bytes, count: output.size, deallocator: .free)
    }
}

/// Runs `body` with a fresh context whose flag is set when the current task is cancelled.
func withCodecContext<T>(
    maximumPixelCount: Int, maximumScans: Int = 0, eightBit: Bool = false, _ body: (CodecContext) throws -> T
) async throws -> T {
    try Task.checkCancellation()
    let context = CodecContext(maximumPixelCount: maximumPixelCount, maximumScans: maximumScans, eightBit: eightBit)
    return try await withTaskCancellationHandler {
        try body(context)
    } onCancel: {
        context.cancel()
    }
}
