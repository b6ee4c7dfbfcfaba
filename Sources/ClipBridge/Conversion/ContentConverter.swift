// SPDX-License-Identifier: Apache-2.0
// ClipBridge — one conversion between content types

import FoundationEssentials
import UniformTypes

/// A conversion from one content type to another, applied to the bytes of a clipboard representation.
///
/// Converters work on *canonical* bytes: text is UTF-8 (whatever encoding the wire used — ClipBridge decodes
/// `STRING`, UTF-16 HTML and `text/x-moz-url` before converting), a URL list is `text/uri-list` text, a color
/// is the 8-byte `application/x-color` form. The registry (``ConverterRegistry``) chains them, cheapest first.
///
/// ```swift
/// var registry = ConverterRegistry.standard
/// registry.register(ContentConverter(name: "markdown → text", from: .markdown, to: .utf8PlainText) { $0 })
/// ```
public struct ContentConverter: Sendable, CustomStringConvertible {
    /// A short name for logs and type listings (e.g. "HTML → plain text").
    public var name: String
    /// The type it reads; any type that conforms to it is accepted (a converter from `.text` reads `.json`),
    /// except those in ``excludedSources``.
    public var source: UTType
    /// The type it produces.
    public var destination: UTType
    /// Types that conform to ``source`` but must not be fed to this converter (e.g. HTML to an identity
    /// text converter).
    public var excludedSources: [UTType]
    /// The cost of one application; a chain's cost is the sum, and the cheapest chain wins.
    public var cost: Int
    /// True when the conversion only succeeds for some inputs (text → URL list needs text that lists paths).
    /// Partial conversions are tried on paste, and on copy only after a trial run succeeded; they are not
    /// listed among the available types.
    public var isPartial: Bool
    /// The conversion itself; throws ``ClipboardError`` with code `.conversionFailed` for unsuitable input.
    public var convert: @Sendable (Data) throws -> Data
    /// For conversions too costly to run when copying (images): a check of the source's first bytes (at most
    /// ``headerLength``) that says whether the conversion will work. A copy then offers the destination at
    /// once and converts only when an application asks for it, once per copy. Nil for conversions a copy
    /// runs up front to prove they work.
    public var headerCheck: (@Sendable (Data) -> Bool)?

    /// How many leading bytes a ``headerCheck`` is given.
    public static let headerLength = 1 << 20

    /// Creates a converter.
    public init(
        name: String, from source: UTType, to destination: UTType, excluding excludedSources: [UTType] = [],
        cost: Int = 1, isPartial: Bool = false, headerCheck: (@Sendable (Data) -> Bool)? = nil,
        convert: @escaping @Sendable (Data) throws -> Data
    ) {
        self.name = name
        self.source = source
        self.destination = destination
        self.excludedSources = excludedSources
        self.cost = max(0, cost)
        self.isPartial = isPartial
        self.headerCheck = headerCheck
        self.convert = convert
    }

    /// True when converting runs on request, after a header check, rather than when copying.
    public var isLazy: Bool { headerCheck != nil }

    /// True when this converter reads content of `type`.
    public func accepts(_ type: UTType) -> Bool {
        accepts(type.conformances)
    }

    /// ``accepts(_:)`` for a type's conformances read once (the converter search asks every converter).
    func accepts(_ conformances: Conformances) -> Bool {
        conformances.include(source) && !excludedSources.contains { conformances.include($0) }
    }

    /// The name.
    public var description: String { name }
}
