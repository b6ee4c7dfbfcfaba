import FoundationEssentials
import Glibc

/// The Direct Save Protocol's exchange with a drag source's window (`DirectSave` holds its rules).
extension X11Connection {
    /// The source window's `XdndDirectSave0` property: the file name it proposes (at most 4 KiB read) and the
    /// property's type name; nil when it has none.
    func directSaveProposal(of source: X11Window) throws(SelectionError) -> (bytes: Data, type: String)? {
        guard let display = xdisplay else { throw SelectionError(.shutDown, "the connection is closed") }
        let property = try atom(for: DirectSave.target.rawValue)
        guard let value = display.getProperty(source, property, delete: false, offset: 0, length: 4096), value.exists,
            value.format == 8
        else { return nil }
        let type = (try? names(for: [value.type]))?.first ?? nil
        return (value.bytes, type ?? "text/plain")
    }

    /// Writes the `file://` URI where the source is to save into its window's `XdndDirectSave0` property (ASCII,
    /// so of type `text/plain`).
    func offerDirectSaveLocation(_ uri: String, to source: X11Window) throws(SelectionError) {
        guard let display = xdisplay else { throw SelectionError(.shutDown, "the connection is closed") }
        let property = try atom(for: DirectSave.target.rawValue)
        let type = try atom(for: "text/plain")
        Array(uri.utf8).withUnsafeBytes { display.changeProperty(source, property, type: type, format: 8, bytes: $0) }
        display.flush()
    }
}

extension XdndDrop {
    /// How a direct save ended.
    public enum DirectSaveOutcome: Sendable, Equatable {
        /// The file is at this path: saved by the source (`S`), or by this target from the data it read (`F`).
        case saved(path: String, bySource: Bool)
        /// The drag offers no direct save, or proposes no usable file name.
        case notOffered
        /// The source failed (`E`, or no file where it said it saved, or an `F` with no data to fall back on).
        case failed(String)
    }

    /// Whether the drag offers a direct save (`XdndDirectSave0`).
    public var offersDirectSave: Bool { types.contains(DirectSave.target) }

    /// Saves the drag into `directory` through the Direct Save Protocol (XDS): the name the source proposes, made
    /// unique there (no existing file is ever named), its `file://` URI handed to the source, which saves there and
    /// answers; on `F` the `application/octet-stream` data is read and written by this target instead (mode 0600,
    /// created exclusively). Nothing is reserved before the source writes: a source finding a file at the URI
    /// saves elsewhere (Firefox adds `-1`), and a success is believed only when the file is there.
    /// - Throws: `SelectionError` from the conversions (the source went away, timed out).
    public func directSave(in directory: URL, timeout: Duration? = nil) async throws -> DirectSaveOutcome {
        guard offersDirectSave, let proposal = try await connection.directSaveProposal(of: source),
            let proposed = DirectSave.fileName(fromProperty: proposal.bytes, type: proposal.type)
        else { return .notOffered }
        let folder = directory.standardizedFileURL.path
        let exists: (String) -> Bool = { access(folder + "/" + $0, F_OK) == 0 }
        guard let name = DirectSave.uniqueName(proposed, exists: exists) else {
            return .failed("no free name for \(proposed) in \(folder)")
        }
        let path = folder + "/" + name
        var host = [CChar](repeating: 0, count: 256)
        let hostName = gethostname(&host, host.count) == 0
            ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        try await connection.offerDirectSaveLocation(DirectSave.fileURI(path: path, host: hostName), to: source)
        let answer = try await read(DirectSave.target, timeout: timeout)
        switch DirectSave.reply(answer.bytes) {
        case .saved:
            guard exists(name) else { return .failed("the source said it saved \(path), but nothing is there") }
            // Firefox answers S once it has *started* saving (a download), and writes the file afterwards: wait
            // until it holds something and stops growing, within the read's timeout, before calling it saved.
            guard await Self.settledSize(of: path, within: timeout ?? .seconds(10)) > 0 else {
                return .failed("the source said it saved \(path), but wrote nothing there")
            }
            return .saved(path: path, bySource: true)
        case .fallBack:
            guard types.contains(DirectSave.dataTarget) else { return .failed("the source could not save, and offers no data") }
            let data = try await read(DirectSave.dataTarget, timeout: timeout)
            // O_EXCL: never over a file that appeared meanwhile.
            guard let free = DirectSave.uniqueName(name, exists: exists) else { return .failed("no free name for \(name)") }
            let target = folder + "/" + free
            let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return .failed("\(target): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            let written = data.bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written == data.bytes.count else {
                unlink(target)
                return .failed("\(target): \(String(cString: strerror(errno)))")
            }
            return .saved(path: target, bySource: false)
        case .failed:
            return .failed("the source could not save \(name)")
        }
    }

    /// The size of the file at `path` once it is not empty and has not changed for 100 ms, or its size when
    /// `limit` runs out (0: still empty).
    private static func settledSize(of path: String, within limit: Duration) async -> Int {
        let deadline = ContinuousClock.now + limit
        var last = -1
        while true {
            var info = stat()
            let size = stat(path, &info) == 0 ? Int(info.st_size) : 0
            if size > 0 && size == last { return size }
            guard ContinuousClock.now < deadline, (try? await Task.sleep(for: .milliseconds(100))) != nil else { return size }
            last = size
        }
    }
}
