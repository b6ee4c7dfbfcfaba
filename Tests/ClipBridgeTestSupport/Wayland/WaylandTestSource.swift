// ClipBridge test support: a copy on a compositor, made through data-control by the test itself — as a clipboard
// manager offers one — with every flavour it names, served as the test says: whole, never, or a byte at a time.

import Foundation
import Synchronization
import WaylandSelection

/// A copy of several flavours on a compositor's clipboard or primary selection, served from the test until closed.
public final class WaylandTestSource: Sendable {
    /// How the source answers a paste.
    public enum Behaviour: Sendable {
        /// The flavour's bytes, then the end.
        case serve
        /// Nothing, and the pipe left open until the source is closed: a source that hangs.
        case silent
        /// One byte every `interval`, without end: a source that trickles.
        case trickle(Duration)
        /// The first `count` bytes, then the end: a source that dies mid-send.
        case closeAfter(Int)
        /// The flavour's bytes again and again, without end: a source that never stops writing.
        case endless
    }

    /// What was asked of the source, in order.
    public final class ReadLog: Sendable {
        private let types = Mutex<[String]>([])
        private let gone = Mutex<[String]>([])
        func append(_ type: String) { types.withLock { $0.append(type) } }
        func requestorGone(_ type: String) { gone.withLock { $0.append(type) } }
        /// Every MIME type asked for.
        public var all: [String] { types.withLock { $0 } }
        /// The types of the requests whose requestor closed its end while the source still wrote (a trickling or
        /// endless source notices only so).
        public var abandoned: [String] { gone.withLock { $0 } }
    }

    public let connection: WaylandConnection
    public let reads = ReadLog()
    private let serving: Task<Void, Never>
    /// The requests a silent source holds open, finished when it closes.
    private final class Held: Sendable {
        private let requests = Mutex<[WaylandSendRequest]>([])
        func append(_ request: WaylandSendRequest) { requests.withLock { $0.append(request) } }
        func finishAll() { for request in requests.withLock({ $0 }) { request.finish() } }
    }
    private let held = Held()

    /// Offers `flavours` (MIME type, bytes) in this order on `display`'s clipboard (or primary selection).
    public init(
        on display: String, _ flavours: [(String, Data)], primary: Bool = false, behaviour: Behaviour = .serve
    ) async throws {
        let connection = try await WaylandConnection.open(display: display)
        let source = try await connection.offer(flavours.map(\.0), as: primary ? .primary : .clipboard)
        let reads = self.reads
        let held = self.held
        self.connection = connection
        serving = Task {
            await withTaskGroup(of: Void.self) { group in
                for await event in connection.events {
                    guard case .sendRequested(let request) = event, request.source == source else { continue }
                    reads.append(request.mimeType)
                    let bytes = flavours.first(where: { $0.0 == request.mimeType })?.1 ?? Data()
                    if case .silent = behaviour {
                        held.append(request)
                        continue
                    }
                    group.addTask {
                        switch behaviour {
                        case .serve, .silent:
                            try? await request.write(bytes)
                        case .trickle(let interval):
                            while !Task.isCancelled {
                                guard (try? await request.write(Data("x".utf8))) != nil else {
                                    reads.requestorGone(request.mimeType)
                                    break
                                }
                                try? await Task.sleep(for: interval)
                            }
                        case .endless:
                            let piece = bytes.isEmpty ? Data(repeating: UInt8(ascii: "x"), count: 65_536) : bytes
                            while !Task.isCancelled {
                                guard (try? await request.write(piece)) != nil else {
                                    reads.requestorGone(request.mimeType)
                                    break
                                }
                            }
                        case .closeAfter(let count):
                            try? await request.write(bytes.prefix(count))
                        }
                        request.finish()
                    }
                }
                group.cancelAll()
            }
        }
    }

    /// Stops serving and disconnects: the selection empties (a compositor clears a source whose client left).
    public func close() {
        serving.cancel()
        held.finishAll()
        connection.close()
    }
}
