import FoundationEssentials
import Glibc

/// The spooled files of kept content (``FlavourSpool``'s), removed when the last reference goes: whatever still
/// serves or records the content holds them — a keeper's copy, a claim still serving it, a narrowed copy sharing them,
/// a history recording being written.
package final class SpooledFiles: Sendable {
    package let paths: [String]

    /// The files among `contents`.
    package init(of contents: [SelectionSnapshot.Content]) {
        paths = contents.compactMap { content in
            if case .file(let url) = content { return url.path }
            return nil
        }
    }

    deinit {
        for path in paths { unlink(path) }
    }
}
