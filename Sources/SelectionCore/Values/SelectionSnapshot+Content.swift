import FoundationEssentials

extension SelectionSnapshot.Content {
    /// Hands `sink` the bytes in pieces of at most 1 MiB — from memory, or the file a piece at a time, so serving a
    /// spooled flavour costs one piece of memory — typed `type`; at least one piece (empty content is one empty
    /// piece: on X its type still crosses).
    package func read(as type: SelectionTarget, format: Int = 8, into sink: FlavourSink) async throws {
        switch self {
        case .bytes(let bytes):
            try await sink(FlavourChunk(bytes, type: type, format: format))
        case .file(let url):
            let file = try FilePieces(url.path)
            var sent = false
            while let piece = try file.next() {
                sent = true
                try await sink(FlavourChunk(piece, type: type, format: format))
            }
            if !sent { try await sink(FlavourChunk(Data(), type: type, format: format)) }
        }
    }

    /// All the bytes (a file read whole: for content known to be small, or a test).
    package func wholeBytes() throws -> Data {
        switch self {
        case .bytes(let bytes): return bytes
        case .file(let url):
            let file = try FilePieces(url.path)
            var bytes = Data()
            while let piece = try file.next() { bytes.append(piece) }
            return bytes
        }
    }
}
