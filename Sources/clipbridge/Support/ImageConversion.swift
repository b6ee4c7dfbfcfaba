// SPDX-License-Identifier: Apache-2.0
// clipbridge — the command always converts images, through the system codecs

import ClipBridge
import ImageCodecs
import TransferKit

extension ConverterRegistry {
    /// The standard converters plus image conversions between PNG, JPEG, GIF, TIFF, WebP, BMP and Netpbm
    /// (read) and PNG, JPEG, TIFF, WebP, BMP (written), through `ImageCodecs`.
    static let command: ConverterRegistry = {
        var registry = ConverterRegistry.standard
        registry.registerImageConverters(using: SystemImageTranscoder())
        return registry
    }()
}

extension ClipboardConfiguration {
    /// The settings every command's clipboard uses: ``ConverterRegistry/command``'s converters.
    static var command: ClipboardConfiguration {
        var configuration = ClipboardConfiguration()
        configuration.converters = .command
        return configuration
    }
}
