import Glibc

/// A file held open for as long as something serves it: the content of a history entry being restored. Deleting
/// or replacing the file's name meanwhile (the history pruning that entry, another restore) changes nothing for
/// the readers; the descriptor closes with the last reference.
///
/// Every read opens ``path``, Linux's `/proc/self/fd` link to the descriptor (proc(5)), so each requestor has a
/// file offset of its own.
public final class OpenedFile: Sendable {
    /// The open descriptor (close-on-exec), owned by this object.
    public let descriptor: Int32

    /// Takes ownership of `descriptor`.
    public init(adopting descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// A path that opens the same file with an offset of its own, even once its name is gone.
    public var path: String { "/proc/self/fd/\(descriptor)" }

    /// The file's size now, or nil when it cannot be asked.
    public var size: Int? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : nil
    }

    deinit {
        close(descriptor)
    }
}
