import FoundationEssentials

/// Bounds on what a snapshot of an owner's offer keeps (X11's `X11Connection.snapshot`, a backend's
/// `SelectionBackend.snapshot(of:_:)`). Every size an owner announces or sends
/// is untrusted: a flavour over its limit is omitted as soon as its bytes pass it, never read to its end.
public struct SnapshotLimits: Sendable {
    /// The largest flavour kept, in bytes.
    public var maximumFlavourBytes: Int = 256 << 20
    /// The most kept of one offer, in bytes; flavours that would pass it are omitted.
    public var maximumTotalBytes: Int = 512 << 20
    /// Flavours up to this size stay in memory; larger ones are spooled to a file.
    public var inMemoryBytes: Int = 1 << 20
    /// Where spooled flavours go; nil uses `$TMPDIR`, else `/tmp`. It should be private to the user (0700).
    public var spoolDirectory: URL? = nil
    /// Which targets are kept; nil keeps every one. A target it rejects is not read, and is listed among
    /// the omissions ("not among the kept types").
    public var keepsTarget: (@Sendable (SelectionTarget) -> Bool)? = nil
    /// The most targets read of one offer, in the owner's order; the others are listed among the omissions.
    /// An owner chooses how many targets it lists (thousands, or a million), and each is a request.
    public var maximumFlavours: Int = 256

    /// The default limits: 256 MiB per flavour, 512 MiB per offer, 1 MiB in memory per flavour, 256 flavours.
    public init() {}
}
