/// A small picture shown before a line of a text window (`X11TextWindows`) (a thumbnail of the file it names).
public struct WindowIcon: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `height` rows of `width` RGBA pixels, 8 bits a channel, straight alpha.
    public let rgba: [UInt8]

    /// An icon; nil when `rgba` does not hold `width × height` pixels.
    public init?(width: Int, height: Int, rgba: [UInt8]) {
        guard width > 0, height > 0, width <= 256, height <= 256, rgba.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}
