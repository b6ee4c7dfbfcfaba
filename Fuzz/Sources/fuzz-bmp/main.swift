// fuzz-bmp: BMPCodec.decode (Sources/ImageCodecs/BMPCodec.swift), the Swift reader of Windows bitmaps: core
// and Windows headers, palettes, bit fields, RLE8/RLE4; and ImageDecoder's path to it (TransferKit's header
// reader, then the codec).
//
// Input: the file's bytes. Bounded: the pixel cap is 65 536 pixels (FuzzSupport.fuzzPixelCap).
// Checked: no trap; a decoded image has width × height RGBA pixels within the cap; where TransferKit's header
// reader recognises the file as BMP, it reports the size the codec decoded; a decoded image re-encodes
// (BMPCodec.encode) to a bitmap that decodes to the same pixels.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
@testable import ImageCodecs
import TransferKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(fuzzBytes(start, count))
    let header = ImageProperties(data: data)
    if let image = decoded(data) {
        checkDecodedImage(
            width: image.width, height: image.height, bitsPerComponent: image.bitsPerComponent,
            pixelByteCount: image.pixels.count, cap: fuzzPixelCap)
        fuzzCheck(image.bitsPerComponent == 8, "a BMP decoded to \(image.bitsPerComponent) bits")
        if let header, header.contentType == .bmp {
            fuzzCheck(
                header.pixelWidth == image.width && header.pixelHeight == image.height,
                "the header says \(header.pixelWidth)×\(header.pixelHeight), the codec decoded \(image.width)×\(image.height)")
        }
        let encoded = BMPCodec.encode(image)
        guard let again = decoded(encoded) else {
            fuzzCheck(false, "BMPCodec.encode wrote a bitmap BMPCodec.decode refuses")
            return 0
        }
        fuzzCheck(
            again.width == image.width && again.height == image.height && again.pixels == image.pixels,
            "re-encoding changed the image (\(image.width)×\(image.height), alpha \(image.hasAlpha))")
    }
    // As a paste decodes it: header check, codec, orientation.
    if header?.contentType == .bmp, let image = try? ImageDecoder(maximumPixelCount: fuzzPixelCap).decode(data) {
        checkDecodedImage(
            width: image.width, height: image.height, bitsPerComponent: image.bitsPerComponent,
            pixelByteCount: image.pixels.count, cap: fuzzPixelCap)
    }
    return 0
}

private func decoded(_ data: Data) -> PixelImage? {
    do {
        return try BMPCodec.decode(data, maximumPixelCount: fuzzPixelCap)
    } catch is ImageCodecError {
        return nil
    } catch {
        fuzzCheck(false, "BMPCodec.decode threw \(error), not an ImageCodecError")
        return nil
    }
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_bmp_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
