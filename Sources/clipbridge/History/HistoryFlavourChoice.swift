// ClipBridge — the clipbridge command-line tool.
// Which flavour of a history entry `history show` writes.

import ClipBridge
import ClipBridgeOptions
import ClipHistory
import UniformTypes
import X11Selection

enum HistoryFlavourChoice {
    /// The flavour for `type` — its exact target name first, else the first flavour whose type conforms to the
    /// named one (`image` finds `image/png`) — or, without a type, the best text (`TargetMapping`'s ladder, as
    /// `paste` chooses), and whether it is written as text (decoded to UTF-8 as `paste` does).
    static func choose(_ type: String?, in flavours: [HistoryFlavour]) -> (HistoryFlavour, asText: Bool)? {
        guard let type else {
            guard let target = TargetMapping.preferredTextTarget(in: flavours.map(\.target)),
                let flavour = flavours.first(where: { $0.target == target })
            else { return nil }
            return (flavour, true)
        }
        if let exact = flavours.first(where: { $0.target.rawValue == type }) { return (exact, false) }
        guard let wanted = TargetMapping.contentType(named: type) else { return nil }
        if wanted.conforms(to: .plainText) || wanted == .text, let text = choose(nil, in: flavours) { return text }
        return flavours.first { TargetMapping.contentType(for: $0.target).conforms(to: wanted) }.map { ($0, false) }
    }

    /// When no flavour is `type` (nil: text), the flavour and the cheapest chain of the command's converters that
    /// make it: HTML to text, a PNG to JPEG, as a paste converts.
    static func conversion(to type: String?, in flavours: [HistoryFlavour]) -> (HistoryFlavour, ConversionChain)? {
        let wanted: UTType
        if let type {
            guard let named = TargetMapping.contentType(named: type) else { return nil }
            wanted = named
        } else {
            wanted = .utf8PlainText
        }
        let offered = flavours.map { TargetMapping.contentType(for: $0.target) }
        guard let chain = ConverterRegistry.command.cheapestChain(from: offered, to: wanted),
            let index = offered.firstIndex(of: chain.source)
        else { return nil }
        return (flavours[index], chain)
    }
}
