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
            // Decided once per drag, when it enters: the provider's types, or nil when none is wanted.
            plan: { offered in Self.providedTypes(offered: offered, wanted: types, converters: converters) },
            take: { providedTypes, clipboard, location, _ in
                await perform([ItemProvider(offeredBy: clipboard, types: providedTypes)], location)
            },
            isTargeted: isTargeted)
        return ItemDropDestination(window: taking, connection: connection)
    }

    /// Stops taking drops.
    public func unregister() async {
        await connection.unregisterDropTarget(on: window)
    }

    /// The content types a drop's provider has — each offered type, then those the converters make, once each —
    /// when one of them conforms to a wanted type; nil (the drag is refused) when none does.
    static func providedTypes(offered: [SelectionTarget], wanted: [UTType], converters: ConverterRegistry) -> [UTType]? {
        var seen = Set<UTType>()
        let provided = Clipboard.types(for: TargetMapping.contentTargets(in: offered), converters: converters)
            .map(\.contentType).filter { seen.insert($0).inserted }
        return provided.contains { type in wanted.contains { type.conforms(to: $0) } } ? provided : nil
    }
}
