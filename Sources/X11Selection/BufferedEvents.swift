/// A buffered sequence of events from a connection: no event is lost between iterations, it finishes when
/// the connection shuts down, and throws (`SelectionError`) when the connection breaks. The one shape of
/// X11Selection's and ClipBridge's event streams (``OwnerChanges``, ClipBridge's `ClipboardChanges`), so
/// their element type is all that tells them apart.
public struct BufferedEvents<Element: Sendable>: AsyncSequence, Sendable {
    /// The error type.
    public typealias Failure = any Error

    let stream: AsyncThrowingStream<Element, any Error>

    /// Wraps `stream` (for the modules of this package that produce events).
    package init(stream: AsyncThrowingStream<Element, any Error>) {
        self.stream = stream
    }

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator

        /// The next event; nil when the sequence finished.
        public mutating func next() async throws -> Element? { try await base.next() }
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
}

@available(*, unavailable)
extension BufferedEvents.AsyncIterator: Sendable {}
