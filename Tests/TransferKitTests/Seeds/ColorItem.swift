// Seed: ColorItem (CodableRepresentation(for:contentType:) with a custom exported type)
// From ../shared/reference/seeds/first-experience-with-transferable.txt. That copy of the tutorial lost its
// code blocks, so this file is reconstructed from the prose, statement by statement: a Codable, Identifiable
// struct with `id`, `name` and `red`/`green`/`blue`; sample colors from a static property; a `UTType`
// extension declaring `color` with the tutorial's identifier; and `CodableRepresentation` with the item type
// spelled out ("I keep it here however in order to demonstrate how the transferable type can be explicitly
// specified"). The tutorial imports UniformTypeIdentifiers and SwiftUI; both became `import TransferKit`.
import TransferKit

struct ColorItem: Identifiable, Codable, Transferable {
    var id = UUID()
    let name: String
    let red: Double
    let green: Double
    let blue: Double

    static var sampleColors: [ColorItem] {
        [
            ColorItem(name: "Persian Green", red: 42 / 255, green: 157 / 255, blue: 143 / 255),
            ColorItem(name: "Saffron", red: 233 / 255, green: 196 / 255, blue: 106 / 255),
            ColorItem(name: "Sandy Brown", red: 244 / 255, green: 162 / 255, blue: 97 / 255),
            ColorItem(name: "Burnt Sienna", red: 231 / 255, green: 111 / 255, blue: 81 / 255),
        ]
    }

    static var transferRepresentation: some TransferRepresentation {
        CodableRepresentation(for: ColorItem.self, contentType: .color)
    }
}

extension UTType {
    static let color = UTType(exportedAs: "com.gabrieltheodoropoulos.TransferableDemo.color")
}
