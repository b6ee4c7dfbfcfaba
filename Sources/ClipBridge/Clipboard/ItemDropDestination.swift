// SPDX-License-Identifier: Apache-2.0
// ClipBridge — drops delivered as item providers (SwiftUI's onDrop(of:isTargeted:perform:))

import FoundationEssentials
import TransferKit
import UniformTypes
import X11Selection

/// A drop destination that hands over ``ItemProvider``s: the counterpart of SwiftUI's
/// `onDrop(of:isTargeted:perform:)`, for code that decides per drop what to load (or loads several types).
///
/// A drag is accepted when one of its types conforms to one of `types` (or a converter makes one that does).
/// The handler gets one provider for the drop, which reads from the drag source only what a load asks for,
/// with the drop's timestamp; load inside the handler, before it returns.
///
/// ```swift
/// let destination = try await ItemDropDestination.register(of: [.image, .fileURL], on: window, connection: connection) { providers, _ in
///     guard let provider = providers.first, provider.hasItemConformingTo(.image) else { return false }
///     let png = try? await provider.loadDataRepresentation(for: .png)
///     return png != nil
/// }
/// ```
public final class ItemDropDestination: Sendable {
    /// The window that takes the drops.
    public let window: X11Window
    /// The connection it talks through.
    public let connection: X11Connection

    private init(window: X11Window, connection: X11Connection) {
        self.window = window
        self.connection = connection
    }

    /// Makes `window` (this connection's own window when nil) take drops of `types`.
    ///
    /// - Parameters:
    ///   - types: What the destination takes; a drag offering nothing that conforms is refused while it moves.
    ///   - window: The toplevel that takes the drops (this connection's own window when nil; another client's
    ///     through `XdndProxy`).
    ///   - connection: The connection that speaks XDND for it and reads the drops.
    ///   - configuration: How drops are read: converters, where files are received.
    ///   - perform: Receives the drop's providers and where it landed; returns whether the drop was taken.
    ///   - isTargeted: True when an acceptable drag enters, false when it leaves or is dropped.
    public static func register(
        of types: [UTType], on window: X11Window? = nil, connection: X11Connection,
        configuration: ClipboardConfiguration = .init(),
        perform: @escaping @Sendable ([ItemProvider], DropLocation) async -> Bool,
        isTargeted: @escaping @Sendable (Bool) -> Void = { _ in }
    ) async throws -> ItemDropDestination {
        let converters = configuration.converters
        let taking = try await DropRegistration.register(
            on: window, connection: connection, configuration: configuration,
            accepts: { proposal in Self.accepts(offered: proposal.types, wanted: types, converters: converters) },
            take: { clipboard, location, _ in
                guard let contentTypes = try? await clipboard.contentTypes() else { return false }
                return await perform([ItemProvider(offeredBy: clipboard, types: contentTypes)], location)
            },
            isTargeted: isTargeted)
        return ItemDropDestination(window: taking, connection: connection)
    }

    /// Stops taking drops.
    public func unregister() async {
        await connection.unregisterDropTarget(on: window)
    }

    /// Whether an offered target's type, or one a converter makes from it, conforms to a wanted type.
    static func accepts(offered: [SelectionTarget], wanted: [UTType], converters: ConverterRegistry) -> Bool {
        let offeredTypes = offered.filter(TargetMapping.isContentTarget).map(TargetMapping.contentType(for:))
        let reachable = offeredTypes + converters.reachableTypes(from: offeredTypes).map(\.destination)
        return reachable.contains { type in wanted.contains { type.conforms(to: $0) } }
    }
}
