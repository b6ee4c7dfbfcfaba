// ClipBridge test support: a compositor's runtime directory (its XDG_RUNTIME_DIR).

import Glibc

/// Makes a new directory `/tmp/<prefix>.XXXXXX`, readable by its owner only (mkdtemp), as libwayland wants an
/// `XDG_RUNTIME_DIR` (and a spool folder should be); its path.
/// - Throws: `CommandError` (`.notReady`) when it cannot.
public func makeRuntimeDirectory(_ prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
        throw CommandError(kind: .notReady, arguments: ["mkdtemp"], detail: String(cString: strerror(errno)))
    }
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
