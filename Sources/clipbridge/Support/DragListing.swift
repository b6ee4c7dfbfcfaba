// ClipBridge — the clipbridge command-line tool.
// What `clipbridge drag`'s window shows: the items still to drag, with a thumbnail before each image.

import ClipBridge
import FoundationEssentials
import Glibc
import ImageCodecs
import UniformTypes
import X11Selection
import X11TextWindows

/// The items of `clipbridge drag`'s window and their thumbnails, redrawn as items go and thumbnails arrive.
actor DragListing {
    let connection: X11Connection
    let window: X11Window
    /// Every drag takes all the items (`--all`): a header line says so.
    let all: Bool
    private(set) var remaining: [Drag.Item]
    private var icons: [Int: WindowIcon] = [:]

    /// The thumbnails' size in pixels.
    static let iconSize = 32

    init(connection: X11Connection, window: X11Window, items: [Drag.Item], all: Bool) {
        self.connection = connection
        self.window = window
        self.remaining = items
        self.all = all
    }

    /// The lines shown: a header with `--all` and several items, then one line per item.
    static func lines(for items: [Drag.Item], all: Bool) -> [String] {
        all && items.count > 1 ? ["All \(items.count) items:"] + items.map { "  " + $0.label } : items.map(\.label)
    }

    private var headerLines: Int { all && remaining.count > 1 ? 1 : 0 }

    /// The items a drag from `line` takes: all of them with `--all` or when one is left, else that line's.
    func items(at line: Int?) -> [Drag.Item]? {
        if all || remaining.count == 1 { return remaining }
        guard let line, line >= headerLines, line - headerLines < remaining.count else { return nil }
        return [remaining[line - headerLines]]
    }

    /// Removes the items of a drop (`--exit-when-empty`); true when none is left.
    func remove(_ dropped: [Drag.Item]) async -> Bool {
        let ids = Set(dropped.map(\.id))
        remaining.removeAll { ids.contains($0.id) }
        await redraw()
        return remaining.isEmpty
    }

    func setIcon(_ icon: WindowIcon, for id: Int) async {
        icons[id] = icon
        await redraw()
    }

    private func redraw() async {
        var byLine: [Int: WindowIcon] = [:]
        for (index, item) in remaining.enumerated() {
            if let icon = icons[item.id] { byLine[index + headerLines] = icon }
        }
        await connection.setLines(Self.lines(for: remaining, all: all), icons: byLine, in: window)
    }

    /// The image file an item names, if it is one (by its extension).
    static func imageFile(_ item: Drag.Item) -> (url: URL, type: UTType)? {
        guard case .file(let url) = item.content, let type = UTType(filenameExtension: url.pathExtension),
            type.conforms(to: .image)
        else { return nil }
        return (url, type)
    }

    /// Makes the thumbnails of the image files, one after the other (off the window's loop), and shows each as
    /// it is ready. Files over 64 MiB, images over 50 megapixels and anything that does not decode get none.
    nonisolated func makeThumbnails() async {
        let decoder = ImageDecoder(maximumPixelCount: 50_000_000)
        for item in await remaining {
            guard !Task.isCancelled else { return }
            guard let (url, type) = Self.imageFile(item), decoder.canDecode(type) else { continue }
            var info = stat()
            guard stat(url.path, &info) == 0, info.st_size <= 64 << 20,
                let data = FileManager.default.contents(atPath: url.path),
                let image = try? await decoder.decode(data)
            else { continue }
            let thumbnail = image.thumbnail(fitting: Self.iconSize)
            guard let icon = WindowIcon(width: thumbnail.width, height: thumbnail.height, rgba: [UInt8](thumbnail.pixels))
            else { continue }
            await setIcon(icon, for: item.id)
        }
    }
}
