import FoundationEssentials
import Glibc

/// A kept flavour's file read in pieces of bounded size, so that serving it costs one piece of memory whatever its
/// size (FoundationEssentials has no FileHandle).
package struct FilePieces: ~Copyable {
    private let descriptor: Int32
    package let path: String

    /// Opens `path` for reading.
    /// - Throws: ``RelayRefusal`` naming the file and errno.
    package init(_ path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        self.path = path
        guard descriptor >= 0 else { throw RelayRefusal("cannot open \(path): errno \(errno)") }
    }

    deinit { close(descriptor) }

    /// The next piece of at most `count` bytes; nil at the end.
    package func next(_ count: Int = 1 << 20) throws -> Data? {
        var piece = Data(count: count)
        let read = piece.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
        guard read >= 0 else { throw RelayRefusal("cannot read \(path): errno \(errno)") }
        if read == 0 { return nil }
        piece.count = read
        return piece
    }
}
