import Glibc

/// Private temporary files and directories, for every module of this package that spools bytes to disk: the
/// engine's snapshots, the CLI's copy spool, its paste output and its daemon's directory. Only the user can
/// read them (files 0600, directories 0700), and their names cannot be guessed or pre-empted (mkstemp(3),
/// mkdtemp(3)).
package enum PrivateFiles {
    /// `$TMPDIR` when set and not empty, else `/tmp`.
    package static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Creates a new file `<directory>/<prefix><6 random characters>`: mode 0600, close-on-exec. Returns its
    /// descriptor and path, or nil with `errno` set.
    package static func makeFile(in directory: String, prefix: String) -> (descriptor: Int32, path: String)? {
        var template = self.template(directory, prefix)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // (mkostemp would need _GNU_SOURCE)
        return (descriptor, path(of: template))
    }

    /// Creates a file that lives only in memory while its descriptor is open: made (as ``makeFile(in:prefix:)``)
    /// in `/dev/shm`, a tmpfs — else `$XDG_RUNTIME_DIR`, else ``temporaryDirectory`` — and unlinked at once, so
    /// nothing of it is left on any disk, even after a crash (memfd_create(2) is not imported into Swift).
    /// Returns its descriptor and the name it had, or nil with `errno` set.
    package static func makeMemoryFile(prefix: String) -> (descriptor: Int32, path: String)? {
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        for directory in ["/dev/shm", runtime, temporaryDirectory].compactMap({ $0 }) {
            guard let (descriptor, path) = makeFile(in: directory, prefix: prefix) else { continue }
            unlink(path)
            return (descriptor, path)
        }
        return nil
    }

    /// Creates a new directory `<parent>/<prefix><6 random characters>` of mode 0700. Returns its path, or nil
    /// with `errno` set.
    package static func makeDirectory(in parent: String, prefix: String) -> String? {
        var template = self.template(parent, prefix)
        guard mkdtemp(&template) != nil else { return nil }
        return path(of: template)
    }

    /// The template mkstemp and mkdtemp fill in: they replace exactly the last six characters, which must be X.
    private static func template(_ directory: String, _ prefix: String) -> [CChar] {
        Array("\(directory)/\(prefix)\(String(repeating: "X", count: 6))".utf8CString)
    }

    private static func path(of template: [CChar]) -> String {
        String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
