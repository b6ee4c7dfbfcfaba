// App helper for the PaletteColor seed: SwiftUI has no `Color(hex:)`; apps add one like this. It is built on
// TransferKit's `Color(hexString:)` and falls back to black for malformed input, as such helpers usually do.
import TransferKit

extension Color {
    init(hex: String) {
        self = Color(hexString: hex) ?? Color(red: 0, green: 0, blue: 0)
    }
}
