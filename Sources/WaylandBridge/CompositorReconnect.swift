import SelectionCore
import WaylandSelection

/// When a long-running client (the daemon) whose compositor connection ended connects again, as a pure decision.
///
/// A compositor that still takes connections dropped ours: libwayland-server before 1.23 drops a client it could not
/// write to — after another client's offer of thousands of types — and drops it again while that offer is current.
/// Such a drop is retried with the bridge's backoff (`BridgePolicy.retryDelay`). A compositor whose socket is gone
/// (nothing listens: it has ended), or a machine without libwayland-client, is given up on at once.
package enum CompositorReconnect {
    /// What to do next.
    package enum Decision: Equatable, Sendable {
        /// Try to connect after this wait.
        case retry(after: Duration)
        /// The compositor is gone: end, with the connection's loss as the reason.
        case giveUp
    }

    /// The decision after `failures` failed attempts in a row since the connection was lost; `lastError` is the last
    /// attempt's failure (nil before the first attempt).
    package static func next(failures: Int, lastError: WaylandError?) -> Decision {
        switch lastError?.code {
        case .noCompositor, .libraryUnavailable: .giveUp
        default: .retry(after: BridgePolicy.retryDelay(failures: failures))
        }
    }
}
