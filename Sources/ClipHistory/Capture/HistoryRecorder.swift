import Dispatch
import FoundationEssentials
import Logging
import SelectionCore

/// Writes the keeper's copies into a history, in order, on a thread of its own: the keeper hands each over
/// (``record(_:)`` returns at once) and goes on serving, whatever the copy's size — the copying application
/// never waits for the disk.
///
/// A copy that cannot be written (a full disk) is logged and dropped; the clipboard is served all the same and
/// the history stays readable.
public final class HistoryRecorder: Sendable {
    /// The history written to.
    public let store: HistoryStore
    /// Which copies are recorded.
    public let policy: CapturePolicy
    private let queue = DispatchQueue(label: "clipbridge.history")
    private let logger: Logger
    private let onRecorded: (@Sendable (RecordOutcome) -> Void)?

    /// Creates a recorder.
    /// - Parameters:
    ///   - store: the history written to.
    ///   - policy: which copies are recorded.
    ///   - logger: where each copy's fate is logged.
    ///   - onRecorded: told what became of each copy, on the recorder's thread (a status line, tests).
    public init(store: HistoryStore, policy: CapturePolicy, logger: Logger,
                onRecorded: (@Sendable (RecordOutcome) -> Void)? = nil) {
        self.store = store
        self.policy = policy
        self.logger = logger
        self.onRecorded = onRecorded
    }

    /// Takes a keeper's recording; it is written after every earlier one.
    public func record(_ recording: RecordedCopy) {
        queue.async { [self] in
            // The recording holds the snapshot's spooled files until this returns.
            let outcome = write(recording)
            withExtendedLifetime(recording) {}
            onRecorded?(outcome)
        }
    }

    /// Waits until every recording handed over so far is written.
    public func flush() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    private func write(_ recording: RecordedCopy) -> RecordOutcome {
        let copy = CapturedCopy(recording.snapshot, ownerClass: recording.ownerClass?.className)
        do {
            let paused = try store.pausedUntil()
            if let reason = policy.refusal(copy, application: recording.ownerClass, pausedUntil: paused) {
                logger.debug("history: not recorded: \(reason)")
                return .skipped(reason)
            }
            let outcome = try store.record(copy)
            switch outcome {
            case .added(let id): logger.info("history: entry \(id): \(copy.summary.line)")
            case .movedToTop(let id): logger.info("history: entry \(id) copied again")
            case .skipped(let reason): logger.info("history: not recorded: \(reason)")
            }
            return outcome
        } catch let error as HistoryError where error.isDiskFull {
            logger.error("history: the disk is full; this copy was not recorded (\(error))")
            return .skipped("\(error)")
        } catch {
            logger.error("history: this copy was not recorded: \(error)")
            return .skipped("\(error)")
        }
    }
}
