// SPDX-License-Identifier: Apache-2.0

/// What a resolved importer is handed: the bytes or file that arrived and the content type they were
/// offered as (which may be a subtype of the representation's declared type, e.g. PNG for `.image`).
struct ImportContext: Sendable {
    var payload: TransferPayload
    var offeredType: UTType
}

/// State threaded through a resolution walk.
struct ResolutionContext: Sendable {
    /// The audience exporters must be visible to.
    var audience: TransferRepresentationVisibility
    /// Proxy targets already being resolved on this path. A proxy to a type on this list contributes
    /// nothing, which breaks cycles such as `A ⇄ B` proxies instead of recursing forever.
    var visiting: Set<ObjectIdentifier>

    func entering(_ type: Any.Type) -> ResolutionContext {
        var copy = self
        copy.visiting.insert(ObjectIdentifier(type))
        return copy
    }

    func isVisiting(_ type: Any.Type) -> Bool { visiting.contains(ObjectIdentifier(type)) }
}

/// The modifiers accumulated on one entry while walking outwards through modifier representations.
struct EntryModifiers<Item>: Sendable {
    /// Narrowed by every `visibility(_:)` on the path.
    var visibility: TransferRepresentationVisibility = .all
    /// All `exportingCondition(_:)` predicates on the path; every one must hold.
    var conditions: [@Sendable (Item) -> Bool] = []
    /// The outermost `suggestedFileName(_:)`; later (outer) modifiers replace earlier ones, as Apple
    /// documents ("if set several times, the last one wins").
    var fileName: (@Sendable (Item) -> String?)?

    func allowsExport(of item: Item) -> Bool { conditions.allSatisfy { $0(item) } }
}

/// A leaf representation reduced to its closures. Built by the four leaf representation types.
struct LeafEntry<Item>: Sendable {
    /// The declared content type.
    var contentType: UTType
    /// Whether the representation moves files rather than bytes.
    var isFileBacked: Bool
    /// Sender-side permission to open the exported file in place (`shouldAllowToOpenInPlace`).
    var allowsOpeningInPlace = false
    /// Receiver-side wish to open a received file in place (`shouldAttemptToOpenInPlace`).
    var attemptsToOpenInPlace = false
    /// Nil for import-only representations.
    var exporter: (@Sendable (Item) async throws -> TransferPayload)?
    /// Overrides ``contentType`` per value when exporting (used by ``Image`` for formats it has no
    /// dedicated representation for).
    var exportedType: (@Sendable (Item) -> UTType)?
    /// Nil for export-only representations.
    var importer: (@Sendable (ImportContext) async throws -> Item)?
}

/// A proxy representation reduced to closures that already know the proxy target type.
struct ProxyEntry<Item>: Sendable {
    /// The proxy target (for cycle detection).
    var target: any Transferable.Type
    /// Exporters of a value, obtained by converting it to the target and resolving the target's
    /// representations. Nil for import-only proxies.
    var bindExporters: (@Sendable (Item, ResolutionContext) -> [TransferExporter])?
    /// The target's type-level exports. Nil for import-only proxies.
    var typeLevelExports: (@Sendable (ResolutionContext) -> [TypeLevelExport])?
    /// The target's importers, each followed by the conversion back to `Item`. Nil for export-only.
    var importers: (@Sendable (ResolutionContext) -> [ImportRow<Item>])?
}

/// An export known without a value: what a type can export when every condition holds.
struct TypeLevelExport: Sendable {
    var contentType: UTType
    var visibility: TransferRepresentationVisibility
    var isFileBacked: Bool
    var allowsOpeningInPlace: Bool
}

/// One flattened row of a representation tree: a leaf or a proxy, with the modifiers around it.
struct RepresentationEntry<Item>: Sendable {
    enum Source: Sendable {
        case leaf(LeafEntry<Item>)
        case proxy(ProxyEntry<Item>)
    }

    var source: Source
    var modifiers = EntryModifiers<Item>()

    init(_ leaf: LeafEntry<Item>) { source = .leaf(leaf) }
    init(_ proxy: ProxyEntry<Item>) { source = .proxy(proxy) }
}

/// An import-capable row after proxies are flattened; becomes a public ``TransferImporter`` once it is
/// bound to an offered type.
struct ImportRow<Item>: Sendable {
    var contentType: UTType
    var isFileBacked: Bool
    var attemptsToOpenInPlace: Bool
    var isProxied: Bool
    var run: @Sendable (ImportContext) async throws -> Item
}

/// Implemented by every representation the framework reads directly instead of through `body`: the
/// leaf representations, the builder's containers and the modifiers.
protocol PrimitiveTransferRepresentation: TransferRepresentation {
    func entries() -> [RepresentationEntry<Item>]
}
