// SPDX-License-Identifier: Apache-2.0
// ClipBridge — an item provider: the counterpart of NSItemProvider's Transferable bridge

import FoundationEssentials
import Glibc
import Synchronization
import TransferKit
import UniformTypes
import X11Selection

/// Content that loads lazily, in the type asked for: the counterpart of `NSItemProvider` and its
/// Transferable bridge, so code written for drops and pastes on Apple platforms reads the same here.
///
/// An item provider either holds values registered in this process (``register(_:)``) or stands for content
/// another application offers: a drop (``ItemDropDestination``) or the clipboard's current content
/// (``Clipboard/itemProvider()``). One code path then serves paste and drop:
///
/// ```swift
/// provider.loadTransferable(type: Profile.self) { result in
///     switch result {
///     case .success(let profile): show(profile)
///     case .failure(let error): report(error)
///     }
/// }
/// ```
///
/// Nothing is read until a load asks for it, and only the type asked for. A drop's provider reads from the
/// drag source, so load it inside the drop's handler, before it returns: the source lets the data go once
/// the drop is finished.
public final class ItemProvider: Sendable {
    /// One registered value: its types, and its bytes per type.
    private struct Registration: Sendable {
        var contentTypes: [UTType]
        var data: @Sendable (UTType) async throws -> Data
    }

    private enum Source: Sendable {
        case registered
        /// Content of another client, read through a clipboard (a selection, or a drop's `XdndSelection`).
        case offered(Clipboard)
    }

    private let source: Source
    private let registrations = Mutex<[Registration]>([])
    private let offeredTypes: [UTType]

    /// An empty provider, for ``register(_:)``.
    public init() {
        source = .registered
        offeredTypes = []
    }

    /// A provider holding `item`.
    public convenience init<T: Transferable>(_ item: T) {
        self.init()
        register(item)
    }

    /// The content another client offers through `clipboard`, whose content types are `types`.
    init(offeredBy clipboard: Clipboard, types: [UTType]) {
        source = .offered(clipboard)
        offeredTypes = types
    }

    /// The types it can load, richest first (for registered values, in registration order).
    public var registeredContentTypes: [UTType] {
        if case .offered = source { return offeredTypes }
        var seen = Set<UTType>()
        return registrations.withLock { $0.flatMap(\.contentTypes) }.filter { seen.insert($0).inserted }
    }

    /// The identifiers of ``registeredContentTypes``.
    public var registeredTypeIdentifiers: [String] { registeredContentTypes.map(\.identifier) }

    /// Whether it can load a type that conforms to `contentType` (asking for `.image` finds any image).
    public func hasItemConformingTo(_ contentType: UTType) -> Bool {
        registeredContentTypes.contains { $0.conforms(to: contentType) }
    }

    /// ``hasItemConformingTo(_:)`` by identifier, as `NSItemProvider` spells it.
    public func hasItemConformingToTypeIdentifier(_ typeIdentifier: String) -> Bool {
        guard let type = UTType(typeIdentifier) else { return false }
        return hasItemConformingTo(type)
    }

    /// Registers `transferable` (produced when first loaded): its exported types, in its declaration order.
    public func register<T: Transferable>(_ transferable: @autoclosure @escaping @Sendable () -> T) {
        let types = T.exportedContentTypes(visibility: .ownProcess)
        let registration = Registration(contentTypes: types) { type in try await transferable().exported(as: type) }
        registrations.withLock { $0.append(registration) }
    }

    /// Registers bytes of `contentType`, produced by `loadHandler` when first loaded: content kept elsewhere (a
    /// clipboard history's entry) that loads as a paste of it would. The async form of `NSItemProvider`'s
    /// `registerDataRepresentation(for:visibility:loadHandler:)`.
    public func registerDataRepresentation(
        for contentType: UTType, loadHandler: @escaping @Sendable () async throws -> Data
    ) {
        let registration = Registration(contentTypes: [contentType]) { _ in try await loadHandler() }
        registrations.withLock { $0.append(registration) }
    }

    // MARK: Loading

    /// Loads a value of `type`: from the richest offered type `T` imports (by conformance, proxies or
    /// converters, as a paste does).
    /// - Throws: ``ClipboardError`` `.typeUnavailable` when nothing offered imports as `T`; the read's and the
    ///   import's errors.
    public func loadTransferable<T: Transferable>(type: T.Type) async throws -> T {
        switch source {
        case .offered(let clipboard):
            guard let value = try await clipboard.paste(T.self).first else {
                throw ClipboardError(.typeUnavailable, "the item offers nothing \(T.self) can import")
            }
            return value
        case .registered:
            let types = registeredContentTypes
            guard let importer = T.resolvedImporter(forOfferedTypes: types) else {
                throw ClipboardError(.typeUnavailable, "the item offers nothing \(T.self) can import")
            }
            let data = try await loadDataRepresentation(for: importer.offeredType)
            return try await T(importing: data, contentType: importer.offeredType)
        }
    }

    /// ``loadTransferable(type:)`` with a completion handler, as the seeds' `NSItemProvider` sample calls it.
    /// The handler runs off the caller's thread; the returned load can cancel it.
    @discardableResult
    public func loadTransferable<T: Transferable>(
        type: T.Type, completionHandler: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> ItemProviderLoad {
        ItemProviderLoad {
            do {
                completionHandler(.success(try await self.loadTransferable(type: type)))
            } catch {
                completionHandler(.failure(error))
            }
        }
    }

    /// The bytes of the first type that conforms to `contentType`.
    /// - Throws: ``ClipboardError`` `.typeUnavailable` when no type conforms; the read's errors.
    public func loadDataRepresentation(for contentType: UTType) async throws -> Data {
        switch source {
        case .offered(let clipboard):
            guard let type = try await clipboard.bestType(for: contentType) else {
                throw ClipboardError(.typeUnavailable, "the item offers no \(contentType.identifier)")
            }
            return try await clipboard.data(for: type)
        case .registered:
            let registration = registrations.withLock { list in
                list.first { $0.contentTypes.contains(contentType) }
                    ?? list.first { $0.contentTypes.contains { $0.conforms(to: contentType) } }
            }
            guard let registration else {
                throw ClipboardError(.typeUnavailable, "the item offers no \(contentType.identifier)")
            }
            let exact = registration.contentTypes.contains(contentType)
                ? contentType : registration.contentTypes.first { $0.conforms(to: contentType) } ?? contentType
            return try await registration.data(exact)
        }
    }

    /// ``loadDataRepresentation(for:)`` with `NSItemProvider`'s completion handler.
    @discardableResult
    public func loadDataRepresentation(
        for contentType: UTType, completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) -> ItemProviderLoad {
        ItemProviderLoad {
            do {
                completionHandler(try await self.loadDataRepresentation(for: contentType), nil)
            } catch {
                completionHandler(nil, error)
            }
        }
    }

    /// Writes the first type that conforms to `contentType` to a private file (mode 0600, in a new 0700
    /// directory, named with the type's extension) and runs `body` with its URL; the file is deleted when
    /// `body` returns or throws. Offered content streams into the file (bounded memory at any size).
    public func loadFileRepresentation<R: Sendable>(
        for contentType: UTType, _ body: @Sendable (URL) async throws -> R
    ) async throws -> R {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        guard let directory = PrivateFiles.makeDirectory(in: base, prefix: "clipbridge-item-") else {
            throw ClipboardError(.importFailed, "cannot create a private directory in \(base)")
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let name = "item." + (contentType.preferredFilenameExtension ?? "data")
        let path = directory + "/" + name
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ClipboardError(.importFailed, "cannot create \(path)") }
        do {
            defer { close(descriptor) }
            let file = DescriptorFile(descriptor: descriptor, path: path)
            switch source {
            case .offered(let clipboard):
                guard let type = try await clipboard.bestType(for: contentType) else {
                    throw ClipboardError(.typeUnavailable, "the item offers no \(contentType.identifier)")
                }
                _ = try await clipboard.read(type, to: descriptor)
            case .registered:
                try file.write(contentsOf: try await loadDataRepresentation(for: contentType))
            }
        }
        return try await body(URL(fileURLWithPath: path))
    }

    /// ``loadFileRepresentation(for:_:)`` with `NSItemProvider`'s completion handler: the file stays valid until
    /// the handler returns (`openInPlace` is always false: the file is a copy).
    @discardableResult
    public func loadFileRepresentation(
        for contentType: UTType, openInPlace: Bool = false,
        completionHandler: @escaping @Sendable (URL?, Bool, (any Error)?) -> Void
    ) -> ItemProviderLoad {
        ItemProviderLoad {
            do {
                try await self.loadFileRepresentation(for: contentType) { url in completionHandler(url, false, nil) }
            } catch {
                completionHandler(nil, false, error)
            }
        }
    }
}

/// `NSItemProvider`'s name, so code written for Apple platforms compiles unchanged.
public typealias NSItemProvider = ItemProvider

/// A load started with a completion handler: what `NSItemProvider` returns as a `Progress`, reduced to what
/// X11 can honour — cancelling it.
public final class ItemProviderLoad: Sendable {
    private let task: Task<Void, Never>

    init(_ work: @escaping @Sendable () async -> Void) {
        task = Task { await work() }
    }

    /// Stops the load (its handler gets the cancellation error, if the read was still running).
    public func cancel() { task.cancel() }

    /// Waits until the handler has run.
    public func wait() async { await task.value }
}

extension Clipboard {
    /// The current content as an item provider: its types now, its data when a load asks (the
    /// `UIPasteboard.itemProviders` counterpart; one provider for the whole content).
    /// - Throws: `SelectionError` `.noOwner` when nothing is copied.
    public func itemProvider() async throws -> ItemProvider {
        ItemProvider(offeredBy: self, types: try await contentTypes())
    }
}
