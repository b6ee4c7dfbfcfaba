import FoundationEssentials

/// What an owner offers: an ordered list (richest first) of targets, each with a data source.
public struct SelectionOffer: Sendable {
    /// Where a representation's bytes come from.
    public enum DataSource: Sendable {
        /// Bytes given up front.
        case bytes(Data)
        /// Produced lazily on the first request and cached for the rest of the claim; the provider runs
        /// outside the X event loop.
        case provider(@Sendable () async throws -> Data)
        /// A file streamed from disk in chunks (never loaded whole); its size is taken when served.
        case file(URL)
        /// A file this offer holds open, streamed like ``file(_:)`` through its `/proc/self/fd` link: deleting its
        /// name meanwhile (a history pruning the entry being restored) does not affect the claim.
        case openedFile(OpenedFile)
        /// Produced anew for each request, as it streams: the closure runs outside the event loop and sends
        /// the reply's type, format and bytes to the ``SelectionRelay`` as they come (a selection on another
        /// display, read as it arrives). A reply that ends within the INCR threshold is written whole; a
        /// longer one is served by INCR while it is still being produced, paced by the requestor, with at most
        /// `Configuration.streamBufferLimit` bytes waiting (``SelectionRelay/send(_:type:format:)`` suspends).
        /// A closure that throws before the reply was started refuses the request; mid-INCR the transfer
        /// stops without its end marker, so a partial reply is never presented as complete. Never cached.
        case relay(@Sendable (SelectionRelay) async throws -> Void)
    }

    /// Text encodings the engine applies when serving, for representations built by
    /// `textRepresentations(_:)` (whose source holds UTF-8).
    enum TextEncoding: Sendable, Equatable {
        /// Xlib's XCompoundTextStyle conversion.
        case compoundText
        /// Xlib's XStdICCTextStyle conversion: STRING when Latin-1 suffices, otherwise COMPOUND_TEXT.
        case text
    }

    /// One target and how to produce it.
    public struct Representation: Sendable {
        /// The target requestors ask for.
        public var target: SelectionTarget
        /// The property type to write; nil means the target itself.
        public var type: SelectionTarget?
        /// 8 (bytes), 16 or 32 (32-bit little-endian values in the data).
        public var format: Int
        /// Where the bytes come from.
        public var source: DataSource
        /// Set by `textRepresentations` for COMPOUND_TEXT and TEXT: the source is UTF-8, converted by Xlib.
        var textEncoding: TextEncoding?

        /// The format written: `format` when it is 16 or 32, otherwise 8.
        var propertyFormat: Int { format == 16 || format == 32 ? format : 8 }

        /// Creates a representation.
        public init(target: SelectionTarget, type: SelectionTarget? = nil, format: Int = 8, source: DataSource) {
            self.target = target
            self.type = type
            self.format = format
            self.source = source
        }
    }

    /// The representations, in preference order; TARGETS lists them in this order.
    public var representations: [Representation]
    /// Marks content a clipboard manager must not keep (passwords): the offer also carries
    /// `x-kde-passwordManagerHint` = `secret`, and `handOverToClipboardManager` skips it.
    public var isSensitive: Bool

    /// Creates an offer. Later duplicates of a target are ignored (the first one wins).
    public init(_ representations: [Representation], isSensitive: Bool = false) {
        var seen = Set<SelectionTarget>()
        var unique: [Representation] = []
        for representation in representations where !representation.target.isMetaTarget {
            if seen.insert(representation.target).inserted { unique.append(representation) }
        }
        if isSensitive && !seen.contains(Self.passwordManagerHint) {
            unique.append(Representation(target: Self.passwordManagerHint, source: .bytes(Data("secret".utf8))))
        }
        self.representations = unique
        self.isSensitive = isSensitive
    }

    /// The KDE/Klipper convention other managers (CopyQ, wl-clipboard's `--sensitive`) also follow.
    public static let passwordManagerHint: SelectionTarget = .passwordManagerHint

    /// The text family for one string, in this order: `UTF8_STRING`, `text/plain;charset=utf-8`,
    /// `COMPOUND_TEXT`, `TEXT`, and — only when every character is in ISO-8859-1 — `STRING` and
    /// `text/plain`.
    ///
    /// The STRING rule: ICCCM defines STRING as ISO-8859-1 (plus newline and tab). Text with a character
    /// outside Latin-1 cannot be represented, and replacing it (Qt writes `?`) silently corrupts the
    /// paste, so such text does not offer STRING nor `text/plain` at all; a requestor that asks for them
    /// is refused and falls back to UTF8_STRING, TEXT or COMPOUND_TEXT, which carry every character
    /// (TEXT answers STRING-typed data when Latin-1 suffices, COMPOUND_TEXT otherwise).
    public static func textRepresentations(_ text: String) -> [Representation] {
        let utf8 = Data(text.utf8)
        var result = [
            Representation(target: .utf8String, source: .bytes(utf8)),
            Representation(target: .utf8PlainText, source: .bytes(utf8)),
        ]
        var compound = Representation(target: .compoundText, source: .bytes(utf8))
        compound.textEncoding = .compoundText
        result.append(compound)
        var textTarget = Representation(target: .text, source: .bytes(utf8))
        textTarget.textEncoding = .text
        result.append(textTarget)
        if let latin1 = TextEncodings.latin1(text) {
            result.append(Representation(target: .string, source: .bytes(latin1)))
            result.append(Representation(target: .plainText, source: .bytes(latin1)))
        }
        return result
    }
}
