import FoundationEssentials
import Glibc

/// Directories private to the user (mode 0700), made and synced with the system calls directly.
enum PrivateDirectory {
    /// Makes `path` and its missing parents, each 0700; an existing directory is left as it is.
    static func make(_ path: String) throws {
        var isDirectory = stat()
        if stat(path, &isDirectory) == 0 {
            guard isDirectory.st_mode & S_IFMT == S_IFDIR else { throw HistoryError("\(path) is not a directory") }
            return
        }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try make(String(path[..<slash]))
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw HistoryError.system("cannot create \(path)") }
    }

    /// Syncs the directory `path` itself, so a file renamed into it is found after a power loss.
    static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HistoryError.system("cannot open \(path)") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw HistoryError.system("cannot sync \(path)") }
    }

    /// The names in directory `path` (without `.` and `..`); none when it cannot be read.
    static func entries(_ path: String) -> [String] {
        guard let stream = opendir(path) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
