// ClipBridge fuzzing — checks shared by the image targets.

/// The pixel cap the image targets decode with: 65 536 pixels (256 × 256), so one decode allocates at most
/// 256 KiB (512 KiB at 16 bits) however large the header says the image is.
public let fuzzPixelCap = 1 << 16

/// The checks every decoded image must pass: positive dimensions within the cap, and exactly `width × height`
/// RGBA pixels of `bitsPerComponent` bits (8 or 16) in its buffer.
public func checkDecodedImage(width: Int, height: Int, bitsPerComponent: Int, pixelByteCount: Int, cap: Int) {
    fuzzCheck(width > 0 && height > 0, "decoded a \(width)×\(height) image")
    fuzzCheck(width * height <= cap, "decoded \(width)×\(height) pixels, over the cap of \(cap)")
    fuzzCheck(bitsPerComponent == 8 || bitsPerComponent == 16, "decoded \(bitsPerComponent) bits a component")
    fuzzCheck(
        pixelByteCount == width * height * 4 * bitsPerComponent / 8,
        "\(pixelByteCount) bytes for \(width)×\(height) pixels at \(bitsPerComponent) bits")
}
