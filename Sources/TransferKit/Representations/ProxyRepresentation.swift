// SPDX-License-Identifier: Apache-2.0

/// Transfers an item by converting it to or from another transferable type and using that type's
/// representations.
///
/// ```swift
/// static var transferRepresentation: some TransferRepresentation {
///     CodableRepresentation(contentType: .profile)
///     ProxyRepresentation(exporting: \.name)     // receivers that only take text get the name
/// }
/// ```
///
/// The proxy contributes all of the target type's representations, in the target's order, at the
/// proxy's position — a proxy to `String` offers `String`'s plain-text types. Proxies chain (a proxy to
/// a type that itself proxies), and a cycle of proxies (`A` → `B` → `A`) is cut where it closes. When
/// importing, a type's own (direct) representations are preferred over proxied ones.
///
/// As Apple documents, the conversion closures should be quick: no I/O. The second generic parameter is
/// named `ProxyRepresentation`, as in Apple's declaration.
public struct ProxyRepresentation<Item, ProxyRepresentation>: TransferRepresentation
where Item: Transferable, ProxyRepresentation: Transferable {
    /// A leaf representation; no body.
    public typealias Body = Never

    enum Exporting: Sendable {
        case synchronous(@Sendable (Item) throws -> ProxyRepresentation)
        case asynchronous(@Sendable (Item) async throws -> ProxyRepresentation)
    }

    let exporting: Exporting?
    let importing: (@Sendable (ProxyRepresentation) async throws -> Item)?

    /// Creates an export-only proxy, e.g. `ProxyRepresentation(exporting: \.name)`.
    ///
    /// - Parameter exporting: Converts an item to the proxy type.
    public init(exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation) {
        self.exporting = .synchronous(exporting)
        importing = nil
    }

    /// Creates an export-only proxy with an asynchronous conversion.
    ///
    /// - Parameter exporting: Converts an item to the proxy type.
    @available(*, deprecated, message: "Use init(exporting:) with a synchronous closure, as Apple requires since 2023")
    public init(exporting: @escaping @Sendable (Item) async throws -> ProxyRepresentation) {
        self.exporting = .asynchronous(exporting)
        importing = nil
    }

    /// Creates a proxy that converts both ways.
    ///
    /// - Parameters:
    ///   - exporting: Converts an item to the proxy type.
    ///   - importing: Converts a proxy value back to an item.
    public init(
        exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation,
        importing: @escaping @Sendable (ProxyRepresentation) throws -> Item
    ) {
        self.exporting = .synchronous(exporting)
        self.importing = importing
    }

    /// Creates a proxy that converts both ways, asynchronously.
    ///
    /// - Parameters:
    ///   - exporting: Converts an item to the proxy type.
    ///   - importing: Converts a proxy value back to an item.
    @available(*, deprecated, message: "Use init(exporting:importing:) with a synchronous exporting closure")
    public init(
        exporting: @escaping @Sendable (Item) async throws -> ProxyRepresentation,
        importing: @escaping @Sendable (ProxyRepresentation) async throws -> Item
    ) {
        self.exporting = .asynchronous(exporting)
        self.importing = importing
    }

    /// Creates a proxy with a synchronous export and an asynchronous import conversion.
    ///
    /// - Parameters:
    ///   - exporting: Converts an item to the proxy type.
    ///   - importing: Converts a proxy value back to an item.
    public init(
        exporting: @escaping @Sendable (Item) throws -> ProxyRepresentation,
        importing: @escaping @Sendable (ProxyRepresentation) async throws -> Item
    ) {
        self.exporting = .synchronous(exporting)
        self.importing = importing
    }

    /// Creates an import-only proxy.
    ///
    /// - Parameter importing: Converts a proxy value to an item.
    public init(importing: @escaping @Sendable (ProxyRepresentation) throws -> Item) {
        exporting = nil
        self.importing = importing
    }

    /// Creates an import-only proxy with an asynchronous conversion.
    ///
    /// - Parameter importing: Converts a proxy value to an item.
    public init(importing: @escaping @Sendable (ProxyRepresentation) async throws -> Item) {
        exporting = nil
        self.importing = importing
    }
}

extension ProxyRepresentation: PrimitiveTransferRepresentation {
    /// The generic parameter shadows the struct's name inside its declaration, as in Apple's.
    private typealias Target = ProxyRepresentation

    func entries() -> [RepresentationEntry<Item>] {
        var proxy = ProxyEntry<Item>(target: Target.self)
        if let exporting {
            proxy.typeLevelExports = { context in
                RepresentationResolver.typeLevelExports(of: Target.self, context: context)
            }
            proxy.bindExporters = { item, context in
                Self.exporters(of: item, exporting: exporting, context: context)
            }
        }
        if let importing {
            proxy.importers = { context in
                RepresentationResolver.importRows(of: Target.self, context: context).map { row in
                    ImportRow(
                        contentType: row.contentType,
                        isFileBacked: row.isFileBacked,
                        attemptsToOpenInPlace: row.attemptsToOpenInPlace,
                        isProxied: true,
                        run: { context in
                            let target = try await row.run(context)
                            return try await TransferError.wrap(
                                .importFailed, "cannot convert \(Target.self) to \(Item.self)",
                                contentType: context.offeredType
                            ) {
                                try await importing(target)
                            }
                        }
                    )
                }
            }
        }
        return [RepresentationEntry(proxy)]
    }

    /// The target's exporters for the converted item.
    ///
    /// A synchronous conversion runs now, so the target's own `exportingCondition`s are evaluated on the
    /// converted value. When it throws — or when the conversion is asynchronous and cannot run here —
    /// the target's type-level exports are listed instead, with exporters that convert (or rethrow)
    /// when asked to export.
    private static func exporters(
        of item: Item,
        exporting: Exporting,
        context: ResolutionContext
    ) -> [TransferExporter] {
        switch exporting {
        case .synchronous(let convert):
            do {
                return RepresentationResolver.exporters(for: try convert(item), context: context)
            } catch {
                return deferredExporters(context: context) { contentType in
                    throw TransferError.wrapping(
                        error, as: .exportFailed, "cannot convert \(Item.self) to \(Target.self)",
                        contentType: contentType
                    )
                }
            }
        case .asynchronous(let convert):
            return deferredExporters(context: context) { contentType in
                let target = try await TransferError.wrap(
                    .exportFailed, "cannot convert \(Item.self) to \(Target.self)", contentType: contentType
                ) {
                    try await convert(item)
                }
                guard let exporter = RepresentationResolver.exporters(for: target, context: context)
                    .first(where: { $0.contentType == contentType })
                else {
                    throw TransferError.noRepresentation(
                        Target.self, "export", contentType,
                        available: target.exportedContentTypes(context.audience)
                    )
                }
                return try await exporter.export()
            }
        }
    }

    private static func deferredExporters(
        context: ResolutionContext,
        export: @escaping @Sendable (UTType) async throws -> TransferPayload
    ) -> [TransferExporter] {
        RepresentationResolver.typeLevelExports(of: Target.self, context: context).map { row in
            TransferExporter(
                contentType: row.contentType,
                visibility: row.visibility,
                suggestedFileName: nil,
                isFileBacked: row.isFileBacked,
                allowsOpeningInPlace: row.allowsOpeningInPlace,
                isProxied: true,
                export: { try await export(row.contentType) }
            )
        }
    }
}
