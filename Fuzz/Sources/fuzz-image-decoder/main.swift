// fuzz-image-decoder: the image header reader every paste of an image runs first (TransferKit's
// ImageProperties / ImageHeaderReader, Sources/TransferKit/Values/ImageProperties.swift, and ImageFormat.sniff:
// PNG chunks, JPEG segments with an EXIF orientation, GIF blocks, TIFF directories, WebP, BMP, Netpbm), then
// ImageDecoder.decode (Sources/ImageCodecs/ImageDecoder.swift) over every format: ClipBridge's C shims around
// libpng, libjpeg-turbo, giflib, libtiff and libwebp (Sources/CImageShims) and the Swift BMP and Netpbm codecs.
//
// Input: the file's bytes; the first byte's low bit also chooses 8-bit output (maximumBitsPerComponent 8).
// Bounded: the pixel cap is 65 536 pixels (FuzzSupport.fuzzPixelCap), progressive JPEG scans 50.
// Checked: no trap; header properties are positive with an orientation of 1–8; a decoded image has
// width × height RGBA pixels within the cap, at 8 bits when 8 were asked for; a header the decoder's own check
// (`properties(of:)`) accepts is within the cap.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
import ImageCodecs
import TransferKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(fuzzBytes(start, count))
    if let header = ImageProperties(data: data) {
        fuzzCheck(header.pixelWidth > 0 && header.pixelHeight > 0, "a \(header.pixelWidth)×\(header.pixelHeight) header")
        fuzzCheck((1...8).contains(header.orientation), "orientation \(header.orientation)")
        _ = (header.displayedWidth, header.displayedHeight, header.isAnimated)
    }
    var decoder = ImageDecoder(maximumPixelCount: fuzzPixelCap)
    decoder.maximumProgressiveScans = 50
    let eightBit = data.first.map { $0 & 1 == 1 } ?? false
    if eightBit { decoder.maximumBitsPerComponent = 8 }
    if let checked = try? decoder.properties(of: data) {
        fuzzCheck(checked.pixelWidth * checked.pixelHeight <= fuzzPixelCap, "properties(of:) passed \(checked)")
        fuzzCheck(!checked.isAnimated, "properties(of:) passed an animated image")
    }
    do {
        let image = try decoder.decode(data)
        checkDecodedImage(
            width: image.width, height: image.height, bitsPerComponent: image.bitsPerComponent,
            pixelByteCount: image.pixels.count, cap: fuzzPixelCap)
        if eightBit { fuzzCheck(image.bitsPerComponent == 8, "asked for 8 bits, decoded \(image.bitsPerComponent)") }
    } catch is ImageCodecError {
    } catch {
        fuzzCheck(false, "ImageDecoder.decode threw \(error), not an ImageCodecError")
    }
    return 0
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_image_decoder_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
