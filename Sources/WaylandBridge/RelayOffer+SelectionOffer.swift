// SPDX-License-Identifier: Apache-2.0
// ClipBridge — a copy's offer served on a Wayland compositor's selection

import FoundationEssentials
import SelectionCore
import Synchronization
import X11Selection

extension RelayOffer {
    /// A copy's offer — built once for every display server (`SelectionOffer.copying`), its representations named as
    /// X targets — as a Wayland source offers it: named by the bridge's translation (`WaylandTypeMapping.translation`),
    /// so a copy made on a compositor offers exactly what the same content offers there when bridged from X — text as
    /// `text/plain;charset=utf-8`, `text/plain` and `UTF8_STRING`, every other type by its name, in the offer's order,
    /// and the password managers' hint when the offer is sensitive. `asKept`: every representation under its own name
    /// instead, byte-exact (a history entry made for Wayland: `WaylandTypeMapping.servesAsKept(_:)`).
    ///
    /// Each paste reads its representation afresh: bytes as they are, a file a piece at a time (any size in bounded
    /// memory), a provider once for the whole claim. `inFlight` is told when a paste starts (+1) and ends (−1), so a
    /// server that lost its selection can let the pastes already asked for finish before it exits.
    package init(
        servingOnWayland offer: SelectionOffer, asKept: Bool = false, inFlight: @escaping @Sendable (Int) -> Void = { _ in },
        outcome: @escaping @Sendable (RelayOutcome) -> Void = { _ in }
    ) {
        let representations = offer.representations.filter { $0.target != SelectionOffer.passwordManagerHint }
        let byTarget = Dictionary(representations.map { ($0.target, RepresentationReader($0)) }) { first, _ in first }
        let targets = representations.map(\.target)
        let translated = asKept
            ? targets.map(TranslatedFlavour.same)
            : WaylandTypeMapping.translation.flavours(for: targets, from: .x11Targets, to: .mimeTypes)
        let flavours = translated
            .compactMap { translated -> RelayFlavour? in
                guard let reader = byTarget[translated.source] else { return nil }
                return RelayFlavour(type: translated.type) { sink in
                    inFlight(1)
                    defer { inFlight(-1) }
                    switch translated.conversion {
                    case .stream(let type):
                        try await reader.read { chunk in
                            var chunk = chunk
                            if let type { chunk.type = type }
                            try await sink(chunk)
                        }
                    case .whole(let convert):
                        let whole = Mutex(Data())
                        try await reader.read { chunk in whole.withLock { $0.append(chunk.bytes) } }
                        try await sink(try convert(whole.withLock { $0 }, reader.type))
                    }
                }
            }
        self.init(flavours: flavours, isSensitive: offer.isSensitive, outcome: outcome)
    }
}

/// Reads one representation of an offer as flavour pieces, whatever its source.
private final class RepresentationReader: Sendable {
    let representation: SelectionOffer.Representation
    /// A provider's bytes, made on the first paste and kept for the claim (as the X engine does).
    private let provided = Mutex<Task<Data, any Error>?>(nil)

    init(_ representation: SelectionOffer.Representation) {
        self.representation = representation
    }

    /// The reply type the pieces carry.
    var type: SelectionTarget { representation.type ?? representation.target }

    func read(into sink: FlavourSink) async throws {
        let type = self.type, format = representation.format
        switch representation.source {
        case .bytes(let bytes):
            try await SelectionSnapshot.Content.bytes(bytes).read(as: type, format: format, into: sink)
        case .provider(let produce):
            let task = provided.withLock { task in
                if let task { return task }
                let made = Task { try await produce() }
                task = made
                return made
            }
            try await sink(FlavourChunk(try await task.value, type: type, format: format))
        case .file(let url):
            try await SelectionSnapshot.Content.file(url).read(as: type, format: format, into: sink)
        case .openedFile(let file):
            try await SelectionSnapshot.Content.opened(file).read(as: type, format: format, into: sink)
        case .relay:
            throw RelayRefusal("\(representation.target) is relayed from an X display, which a Wayland source does not serve")
        }
    }
}
