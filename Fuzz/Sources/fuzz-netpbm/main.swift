// fuzz-netpbm: NetpbmCodec.decode (Sources/ImageCodecs/NetpbmCodec.swift), the Swift reader of P1–P6 bitmaps,
// graymaps and pixmaps (text and raw, 8 and 16 bits), and ImageDecoder's path to it (TransferKit's header
// reader first).
//
// Input: the file's bytes. Bounded: the pixel cap is 65 536 pixels (FuzzSupport.fuzzPixelCap).
// Checked: no trap; a decoded image has width × height RGBA pixels within the cap, 16 bits exactly when the
// maximum sample value is over 255; where TransferKit's header reader recognises the file, it reports the
// size the codec decoded.

import CFuzzerDriver
import FoundationEssentials
import FuzzSupport
@testable import ImageCodecs
import TransferKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(fuzzBytes(start, count))
    let header = ImageProperties(data: data)
    let image: PixelImage
    do {
        image = try NetpbmCodec.decode(data, maximumPixelCount: fuzzPixelCap)
    } catch is ImageCodecError {
        return 0
    } catch {
        fuzzCheck(false, "NetpbmCodec.decode threw \(error), not an ImageCodecError")
        return 0
    }
    checkDecodedImage(
        width: image.width, height: image.height, bitsPerComponent: image.bitsPerComponent,
        pixelByteCount: image.pixels.count, cap: fuzzPixelCap)
    fuzzCheck(!image.hasAlpha, "a Netpbm image with alpha")
    if let header {
        fuzzCheck(
            header.pixelWidth == image.width && header.pixelHeight == image.height,
            "the header says \(header.pixelWidth)×\(header.pixelHeight), the codec decoded \(image.width)×\(image.height)")
        if let again = try? ImageDecoder(maximumPixelCount: fuzzPixelCap).decode(data) {
            fuzzCheck(again.width == image.width && again.height == image.height, "ImageDecoder and the codec disagree")
        }
    }
    // Narrowing 16-bit samples (what a paste to PNG-less formats does) keeps the size.
    let narrow = image.eightBitsPerComponent()
    fuzzCheck(narrow.pixels.count == image.width * image.height * 4, "narrowed to \(narrow.pixels.count) bytes")
    return 0
}

// libFuzzer's main, under the name SwiftPM links as `main` (see CFuzzerDriver.h).
@_cdecl("fuzz_netpbm_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    clipbridge_fuzzer_main(argc, argv)
}
