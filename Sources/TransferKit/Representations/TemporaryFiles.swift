// SPDX-License-Identifier: Apache-2.0

/// Private temporary directories for staging transferred files.
///
/// Each transfer gets its own directory (`<tmp>/TransferKit-<UUID>`) so concurrent transfers of files
/// with the same name never collide, and removing the directory afterwards cannot touch anything else.
enum TemporaryFiles {
    /// Creates a fresh directory.
    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("TransferKit-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Removes a directory made by ``makeDirectory()``. Failure is ignored: the directory is in the
    /// system's temporary area and a leftover there is harmless, whereas throwing would mask the result
    /// (or error) of the transfer itself.
    static func remove(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file name that cannot escape its directory: the last path component of `name`, or `fallback`
    /// when that is empty or a dot entry. Suggested names come from app code and, through the
    /// clipboard, from other processes.
    static func safeFileName(_ name: String?, fallback: String) -> String {
        guard let name else { return fallback }
        let last = name.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? ""
        let cleaned = String(last.unicodeScalars.filter { $0 != "\u{0}" })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? fallback : cleaned
    }

    /// `base` with the content type's preferred extension, unless it already has an extension valid
    /// for the type.
    static func fileName(_ base: String, for contentType: UTType) -> String {
        guard let ext = contentType.preferredFilenameExtension else { return base }
        let current = FilenameExtensionRule.pathExtension(of: base) ?? ""
        if !current.isEmpty, let existing = UTType(filenameExtension: current), existing.conforms(to: contentType) {
            return base
        }
        return base + "." + ext
    }

    /// A path in `directory` named `name`, or `name 2`, `name 3`, … when that exists already.
    static func uniqueURL(in directory: URL, name: String) -> URL {
        let candidate = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: candidate.path) else { return candidate }
        let ext = FilenameExtensionRule.pathExtension(of: name) ?? ""
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        var counter = 2
        while true {
            let numbered = ext.isEmpty ? "\(stem) \(counter)" : "\(stem) \(counter).\(ext)"
            let url = directory.appendingPathComponent(numbered)
            if !FileManager.default.fileExists(atPath: url.path) { return url }
            counter += 1
        }
    }
}
