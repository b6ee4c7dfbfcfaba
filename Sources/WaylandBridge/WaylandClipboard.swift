// SPDX-License-Identifier: Apache-2.0
// ClipBridge — a Wayland compositor's selection as a paste source

import ClipBridge
import FoundationEssentials
import SelectionCore
import WaylandSelection
import X11Selection

/// A Wayland compositor's clipboard or primary selection, read through its data-control protocol (ext preferred,
/// wlr otherwise), as ClipBridge's `PasteSource`: what a paste decides — the types listed with their conversions,
/// the ladder's choice, decoding, converting — is the same as on X11; only the bytes come from here.
///
/// Targets are the source's MIME types as it offers them, in its order. Each wait for the source is bounded by the
/// read timeout; a large flavour streams with bounded memory.
public final class WaylandClipboard: PasteSource {
    /// The selection read: `.clipboard` or `.primary`.
    public let selection: SelectionName
    /// The connection it reads through.
    public let connection: WaylandConnection
    /// The settings (its `readTimeout`, when set, bounds each wait; else ``timeout``).
    public let configuration: ClipboardConfiguration
    /// How long each wait for the source may take when the configuration sets none.
    public let timeout: Duration
    /// The compositor's name for ``selection``.
    public let waylandSelection: WaylandSelectionName

    /// Wraps an open connection.
    /// - Throws: `WaylandError` `.protocolUnavailable` for a selection Wayland does not have (SECONDARY, any other).
    public init(
        _ selection: SelectionName = .clipboard, connection: WaylandConnection,
        configuration: ClipboardConfiguration = .init(), timeout: Duration = .seconds(5)
    ) throws {
        waylandSelection = try selection.wayland()
        self.selection = selection
        self.connection = connection
        self.configuration = configuration
        self.timeout = timeout
    }

    private var readTimeout: Duration { configuration.readTimeout ?? timeout }

    /// Every MIME type the source offers, in its order (what `wl-paste --list-types` prints).
    /// - Throws: `SelectionError` `.noOwner` when the selection is empty, as on X11.
    public func offeredTypes() async throws -> [String] {
        let types = try await connection.types(of: waylandSelection)
        guard !types.isEmpty else { throw SelectionError(.noOwner, "the Wayland \(waylandSelection) is empty") }
        return types
    }

    /// The source's MIME types in its order, as targets (meta targets and the password hint removed).
    /// - Throws: `SelectionError` `.noOwner` when the selection is empty, as on X11.
    public func contentTargets() async throws -> [SelectionTarget] {
        TargetMapping.contentTargets(in: try await offeredTypes().map(SelectionTarget.init(rawValue:)))
    }

    /// One type, whole: its bytes are typed by its own MIME type (a Wayland transfer has no reply type).
    public func rawData(of target: SelectionTarget) async throws -> SelectionData {
        let bytes = try await connection.read(target.rawValue, from: waylandSelection, timeout: readTimeout)
        return SelectionData(target: target, type: target, format: 8, bytes: bytes)
    }

    /// One type, streamed from the source's pipe a piece at a time.
    public func stream(_ target: SelectionTarget, into sink: @Sendable (Data) async throws -> Void) async throws -> Int {
        var count = 0
        try await connection.read(target.rawValue, from: waylandSelection, timeout: readTimeout) { piece in
            count += piece.count
            try await sink(piece)
        }
        return count
    }

    /// Wayland has no COMPOUND_TEXT and no server-side converters: a text type nothing here decodes fails.
    public func textThroughServerConverters() async throws -> Data {
        throw ClipboardError(.conversionFailed, "the Wayland \(waylandSelection)'s text is in an encoding nothing here decodes")
    }
}
