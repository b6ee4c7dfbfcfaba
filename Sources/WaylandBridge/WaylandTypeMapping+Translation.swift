import ClipBridge
import FoundationEssentials
import SelectionCore
import X11Selection

extension WaylandTypeMapping {
    /// The bridge's translation between X11 targets and MIME types, as ``xOffer(forWayland:)`` and
    /// ``waylandOffer(forX:)`` map them: every type by name, text as each side names it — streamed where the bytes are
    /// already UTF-8, read whole where they are re-encoded.
    package static let translation: any FlavourTranslation = Translation()

    private struct Translation: FlavourTranslation {
        func flavours(for types: [SelectionTarget], from source: FlavourNaming, to destination: FlavourNaming) -> [TranslatedFlavour] {
            switch (source, destination) {
            case (.x11Targets, .mimeTypes):
                return waylandOffer(forX: types).map { representation in
                    let type = SelectionTarget(rawValue: representation.mimeType)
                    switch representation.conversion {
                    case .verbatim, .utf8Text(from: .utf8String):
                        return TranslatedFlavour(type: type, source: representation.target, conversion: .stream(as: nil))
                    case .utf8Text(let from):
                        return TranslatedFlavour(type: type, source: from, conversion: .whole { bytes, propertyType in
                            guard let text = TargetMapping.canonicalText(bytes, target: from, propertyType: propertyType) else {
                                throw SelectionError(.invalidReply, "\(from) is not text that can be decoded")
                            }
                            return FlavourChunk(text, type: type)
                        })
                    }
                }
            case (.mimeTypes, .x11Targets):
                return xOffer(forWayland: types.map(\.rawValue)).map { representation in
                    let source = SelectionTarget(rawValue: representation.mimeType)
                    switch representation.conversion {
                    case .verbatim(let type):
                        return TranslatedFlavour(type: representation.target, source: source, conversion: .stream(as: type))
                    case .latin1, .text:
                        let fallsBack = representation.conversion == .text
                        return TranslatedFlavour(type: representation.target, source: source, conversion: .whole { utf8, _ in
                            guard let text = String(validating: utf8, as: UTF8.self) else {
                                throw SelectionError(.invalidReply, "\(source) is not UTF-8 text")
                            }
                            if let latin1 = TextEncodings.latin1(text) { return FlavourChunk(latin1, type: .string) }
                            // TEXT may be UTF8_STRING; STRING may not: nothing is substituted, and the requestor falls
                            // back to UTF8_STRING.
                            guard fallsBack else {
                                throw SelectionError(.targetUnavailable, "the text has characters outside ISO-8859-1 (STRING)")
                            }
                            return FlavourChunk(utf8, type: .utf8String)
                        })
                    }
                }
            default:
                return types.map(TranslatedFlavour.same)
            }
        }
    }
}
