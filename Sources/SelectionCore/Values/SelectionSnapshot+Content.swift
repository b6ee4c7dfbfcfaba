import FoundationEssentials

extension SelectionSnapshot.Content {
    /// Hands `sink` the bytes in pieces of at most 1 MiB — from memory, or the file a piece at a time, so serving a
    /// spooled flavour costs one piece of memory — typed `type`; at least one piece (empty content is one empty
    /// piece: on X its type still crosses).
    package func read(as type: SelectionTarget, format: Int = 8, into sink: FlavourSink) async throws {
        guard let path else { return try await sink(FlavourChunk(try wholeBytes(), type: type, format: format)) }
        let file = try FilePieces(path)
        var sent = false
        while let piece = try file.next() {
            sent = true
            try await sink(FlavourChunk(piece, type: type, format: format))
        }
        if !sent { try await sink(FlavourChunk(Data(), type: type, format: format)) }
    }

    /// The first `count` bytes at most: from a file, only those are read (a hook's text, a history summary — never
    /// the whole of a spooled flavour). A multi-byte character cut at the end is the caller's to decode.
    package func prefix(_ count: Int) throws -> Data {
        guard let path else { return try wholeBytes().prefix(count) }
        let file = try FilePieces(path)
        var data = Data()
        while data.count < count, let piece = try file.next(min(count - data.count, 1 << 20)) { data.append(piece) }
        return data
    }

    /// All the bytes (a file read whole: for content known to be small, or a test).
    package func wholeBytes() throws -> Data {
        if case .bytes(let bytes) = self { return bytes }
        guard let path else { return Data() }
        let file = try FilePieces(path)
        var bytes = Data()
        while let piece = try file.next() { bytes.append(piece) }
        return bytes
    }
}
