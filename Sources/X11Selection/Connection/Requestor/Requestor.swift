/// The connection as a requestor: the reads in flight (by their property on our window), the rotation of those
/// properties, and the MULTIPLE counters. A component of ``X11Connection`` (GTK 4's `gdkclipboard-x11.c` reads
/// the same way): it runs on the loop thread — or on a caller's thread holding the loop token (a loan,
/// ThreadingModel.md) — isolated to the connection, and is touched only there. The rules are
/// `ReadStateMachine`'s; the component's methods carry them out, taking `on connection: isolated X11Connection`
/// for the display, the atoms and the deadlines (`Requestor+ReadDriver.swift`: starting a read, its events and
/// actions, its end; `+Reading`, `+StreamedReads`, `+MultipleReads`, `+Properties`). The public reads stay
/// methods of the connection (`X11Connection+Reading.swift`, `+StreamedReads`, `+MultipleReads`, `+Snapshot`,
/// `+Text`): `nonisolated(nonsending)`, they run on their caller's executor and hand the loop closures that
/// call these methods (`X11Connection+Loans.swift`).
final class Requestor {
    /// The requestor's deadlines (one `X11Connection.DeadlineKey.requestor` each), keyed by a read's property.
    enum Deadline: Hashable, Sendable {
        /// A read's reply (or its next INCR chunk) is late.
        case read(X11Atom)
        /// Hand a streamed read's buffered chunks to its consumer (`handOverBatch`).
        case streamBatch(X11Atom)
        /// Check that the owner of a read's selection still exists (`ReadStateMachine.probeDue`).
        case ownerProbe(X11Atom)
    }

    var reads: [X11Atom: PendingRead] = [:]
    /// Names the reads (`PendingRead.id`) and the properties they get (`CLIPBRIDGE_SEL_<n>`).
    var ids = IDCounter()
    var properties = PropertyRotation()
    /// MULTIPLE requests that were unusable and replaced by single reads (read by the MULTIPLE tests).
    var multipleFallbacks = 0
    /// MULTIPLE requests sent (diagnostics, for tests).
    var multipleRequests = 0

    func deadlinePassed(_ deadline: Deadline, on connection: isolated X11Connection) {
        switch deadline {
        case .read(let property):
            if let read = reads[property] { perform(read.machine.deadlinePassed(), for: read, on: connection) }
        case .ownerProbe(let property):
            if let read = reads[property] { perform(read.machine.probeDue(), for: read, on: connection) }
        case .streamBatch(let property):
            // The queue already dropped the fired deadline; a re-armed one would be newer.
            if let read = reads[property], read.batchDeadlineArmed {
                read.batchDeadlineArmed = false
                handOverBatch(read, force: true, on: connection)
            }
        }
    }

    /// A fresh server time arrived (WM_NAME's PropertyNotify): reads whose request an owner refused
    /// (`.requestTimestamp`) ask again with it.
    func serverTimeArrived(_ time: X11Timestamp, on connection: isolated X11Connection) {
        for read in reads.values where read.machine.state == .awaitingTimestamp {
            perform(read.machine.freshTime(time), for: read, on: connection)
        }
    }

    /// A property on our window changed: the read it belongs to, if any, goes on.
    func propertyChanged(_ property: X11Atom, deleted: Bool, on connection: isolated X11Connection) {
        if let read = reads[property] {
            perform(read.machine.propertyChanged(deleted: deleted), for: read, on: connection)
        }
    }

    /// Another client's window is gone: reads from it end as "owner gone".
    func windowVanished(_ vanished: X11Window, on connection: isolated X11Connection) {
        for read in reads.values where read.machine.watchedOwner == vanished {
            perform(read.machine.windowDestroyed(vanished), for: read, on: connection)
        }
    }

    /// The connection closes: every read fails with `error`.
    func tearDown(_ error: SelectionError, on connection: isolated X11Connection) {
        let failed = reads
        for read in failed.values {
            fail(read, error, on: connection)
        }
        reads.removeAll()
    }
}
