// Seed: PaletteColor (JSON, then an export-only proxy to String)
// Copied verbatim from ../shared/reference/seeds/transferable-protocol-guide.txt; only the import line changed.
// The model part of the sample (its PaletteView is SwiftUI). The three imports (SwiftUI, CoreTransferable,
// UniformTypeIdentifiers) became one. `Color` is TransferKit's; `Color(hex:)` is the app helper in
// AppHelpers/Color+HexHelper.swift.
import TransferKit

// MARK: - Model

struct PaletteColor: Identifiable, Codable, Hashable, Transferable {
    let id: UUID
    var name: String
    var hex: String

    init(name: String, hex: String) {
        self.id = UUID()
        self.name = name
        self.hex = hex
    }

    var color: Color {
        Color(hex: hex)
    }

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(contentType: .json)
        ProxyRepresentation(exporting: \.hex)
    }
}
