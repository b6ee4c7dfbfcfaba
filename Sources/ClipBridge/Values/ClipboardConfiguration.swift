// SPDX-License-Identifier: Apache-2.0
// ClipBridge — settings of a clipboard

import FoundationEssentials
import Logging

/// Settings of a ``Clipboard``.
public struct ClipboardConfiguration: Sendable {
    /// The converters used on paste and to widen copies.
    public var converters: ConverterRegistry = .standard
    /// Where warnings go (one per undeclared exported custom type, per process). Defaults to a logger that
    /// discards, like X11Selection's `Configuration.logger`: a library logs only when given a logger.
    public var logger: Logger = Logger(label: "ClipBridge", factory: { _ in SwiftLogNoOpLogHandler() })
    /// The deadline of each read; nil uses the connection's `Configuration.readTimeout`.
    public var readTimeout: Duration? = nil
    /// The parent of the private per-process directory (mode 0700) that receives pasted files; nil uses
    /// `$TMPDIR`, else `/tmp`.
    public var temporaryDirectory: URL? = nil

    /// The default settings.
    public init() {}
}
