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
        /// Nothing, and the pipe left open: a source that hangs.
        case silent
        /// One byte every `interval`, without end: a source that trickles.
        case trickle(Duration)
        /// The first `count` bytes, then the end: a source that dies mid-send.
        case closeAfter(Int)
    }

    /// What was asked of the source, in order.
    public final class ReadLog: Sendable {
        private let types = Mutex<[String]>([])
        func append(_ type: String) { types.withLock { $0.append(type) } }
        /// Every MIME type asked for.
        public var all: [String] { types.withLock { $0 } }
    }

    public let connection: WaylandConnection
    public let reads = ReadLog()
    private let serving: Task<Void, Never>

    /// Offers `flavours` (MIME type, bytes) in this order on `display`'s clipboard (or primary selection).
    public init(
        on display: String, _ flavours: [(String, Data)], primary: Bool = false, behaviour: Behaviour = .serve
    ) async throws {
        let connection = try await WaylandConnection.open(display: display)
        let source = try await connection.offer(flavours.map(\.0), as: primary ? .primary : .clipboard)
        let reads = self.reads
        self.connection = connection
        serving = Task {
            await withTaskGroup(of: Void.self) { group in
                for await event in connection.events {
                    guard case .sendRequested(let request) = event, request.source == source else { continue }
                    reads.append(request.mimeType)
                    let bytes = flavours.first(where: { $0.0 == request.mimeType })?.1 ?? Data()
                    group.addTask {
                        switch behaviour {
                        case .serve:
                            try? await request.write(bytes)
                        case .silent:
                            // Holds the pipe open until the test closes the source.
                            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
                        case .trickle(let interval):
                            while !Task.isCancelled {
                                guard (try? await request.write(Data("x".utf8))) != nil else { break }
                                try? await Task.sleep(for: interval)
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
        connection.close()
    }
}
