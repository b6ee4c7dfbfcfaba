import Logging

/// Tunables of one connection.
public struct Configuration: Sendable {
    /// The wait for a reply to a conversion request (the whole reply for a direct transfer, the first
    /// reply for an INCR one), and for the server timestamp when claiming.
    public var readTimeout: Duration = .seconds(5)
    /// The longest pause between two chunks of an incremental transfer, in both directions. An owner
    /// drops a requestor that stops deleting the property for this long (others go on).
    public var incrementalIdleTimeout: Duration = .seconds(5)
    /// Payloads larger than this many bytes are sent with INCR. nil: 256 KiB (what Tk, Java's AWT, xsel, GTK, Qt
    /// and xclip all read whole from one property), or less when the server's maximum request size is smaller.
    public var incrementalThreshold: Int? = nil
    /// Bytes of the first INCR chunk when sending. The sender doubles it, up to `maximumChunkSize`, while the
    /// requestor takes doubled chunks faster (a toolkit's event loop does; a tight C loop does not): see
    /// `IncrementalSender`.
    public var chunkSize: Int = 128 * 1024
    /// The largest INCR chunk when sending, never more than the INCR threshold (``incrementalThreshold``: a chunk
    /// is a property too, and Tk 8.6 reads each in one request of at most 400,000 bytes), so 256 KiB by default.
    /// 1 MiB is the chunk xclip sends: a C requestor read 4 MiB chunks at half its speed (they no longer stay in cache),
    /// and toolkits gained nothing more from them (`Benchmarks/run.sh --only throughput,readers`).
    public var maximumChunkSize: Int = 1024 * 1024
    /// How many bytes a streamed read may buffer before it stops acknowledging INCR chunks (backpressure).
    public var streamBufferLimit: Int = 4 * 1024 * 1024
    /// The most bytes one property read takes from the server. A reply written in one big property (no
    /// INCR; any owner may write one as large as the server allows) is read in slices of this size, so a
    /// streamed read holds at most one slice of it at a time.
    public var propertySliceBytes: Int = 4 * 1024 * 1024
    /// The most relayed conversions (``SelectionOffer/DataSource/relay(_:)``) served at once; a request past it
    /// is refused. Each holds up to `streamBufferLimit` bytes in its relay and as much in its producer's read,
    /// and requests are the requestors' choice: without a cap, one client asking for a thousand conversions at
    /// once (a MULTIPLE, or a loop) would make the owner buffer gigabytes.
    public var maximumRelays: Int = 16
    /// How long a read called off the connection's thread may drive the connection on its own thread
    /// while the connection's loop sleeps, before it parks and lets the loop finish the read.
    ///
    /// On loan, a read costs what it costs a single-threaded Xlib client: no thread is woken to send the
    /// request or to deliver the reply (two wake-ups otherwise, each as costly as an X round trip when it
    /// crosses CPUs). The price is that the calling thread — a thread of Swift's cooperative pool, usually —
    /// blocks in `poll(2)` for up to this long; a reply that comes later is delivered by the loop as usual.
    /// `.zero` turns loans off.
    /// How long a drop target may take to answer a drag's XdndPosition before it counts as refusing (and, once
    /// the button is released, before the drag is abandoned). GTK and Qt answer in milliseconds.
    public var dragStatusTimeout: Duration = XdndSource.statusTimeout
    /// How long a drop target may take to finish a drop (XdndFinished): its conversion of `XdndSelection`, INCR
    /// for big data, and its handler. Past it the drag is abandoned, so a dead or hung target never holds a
    /// source (react-x11 #126).
    public var dragFinishTimeout: Duration = XdndSource.finishTimeout
    public var inlineWaitLimit: Duration = .milliseconds(2)
    /// Where the engine logs (peer misbehaviour, dropped transfers). Defaults to a logger that discards.
    public var logger: Logger = Logger(label: "X11Selection", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The defaults.
    public init() {}
}
