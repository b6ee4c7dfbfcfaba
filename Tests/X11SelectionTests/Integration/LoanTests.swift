import ClipBridgeTestSupport
import Foundation
import Synchronization
import Testing
@testable import X11Selection

/// How the loan counters of `connection` moved since `before`.
private struct LoanDelta: CustomStringConvertible {
    var taken: Int
    var finished: Int
    var wakeUps: Int
    var description: String { "taken \(taken), finished \(finished), wake-ups \(wakeUps)" }
}

private func delta(
    _ connection: X11Connection, since before: (taken: Int, finished: Int, wakeUps: Int)
) -> LoanDelta {
    let now = connection.loanStatistics
    return LoanDelta(
        taken: now.taken - before.taken, finished: now.finished - before.finished,
        wakeUps: now.wakeUps - before.wakeUps)
}

/// Reads `selection` as `target` in batches of 50 on the default path, every result checked against
/// `expected`, and returns the batch with the most reads finished on loan. Up to three batches: on a machine
/// loaded by the rest of the test run (2 CPUs), a reply can outlast the 2 ms loan now and then and the read
/// is handed back (then the loop is woken), so one batch may fall short by chance; all three would not.
private func bestLoanBatch(
    _ reader: X11Connection, _ selection: SelectionName, _ target: SelectionTarget, expected: Data
) async throws -> LoanDelta {
    var best: LoanDelta?
    for _ in 0..<3 {
        let before = reader.loanStatistics
        for _ in 0..<50 {
            let data = try await reader.read(selection, target: target).bytes
            #expect(data == expected)
        }
        let moved = delta(reader, since: before)
        if best == nil || moved.finished > best!.finished { best = moved }
        if moved.finished >= 45 { break }
        await letLoopsSettle()
    }
    return best!
}

/// A thread of its own for the tasks that take long loans (`inlineWaitLimit` of seconds): the borrower blocks
/// this thread rather than one of the cooperative pool's, which has two threads on a two-CPU machine and is
/// shared with every other suite running in parallel (a 2 s loan there delayed an unrelated test's task by
/// half a second).
private final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Invariant for `@unchecked Sendable`: `jobs` is guarded by its Mutex, `signal` is thread-safe.
    static let shared = DedicatedThreadExecutor()
    private let jobs = Mutex<[UnownedJob]>([])
    private let signal = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [unowned self] in
            while true {
                signal.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = "long-loans"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        signal.signal()
    }
}

/// Gives a connection's loop time to finish its turn and go to sleep (a loan is only taken then).
private func letLoopsSettle() async {
    try? await Task.sleep(for: .milliseconds(30))
}

/// Loans (`X11EventLoop.lend`): a read called off the loop while the loop sleeps drives the connection on the
/// caller's own thread for up to `Configuration.inlineWaitLimit`, then hands back and parks (`LoanedWait`).
/// These tests check the data that comes back on both paths and, through `loanStatistics`, which path ran.
@Suite(.xvfb, .timeLimit(.minutes(2)))
struct LoanTests {
    // MARK: 1. The default path runs on loan

    @Test func sequentialReadsFromATaskFinishOnLoan() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let bytes = payload(64, seed: 5)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-loan", source: .bytes(bytes)),
        ]))
        await letLoopsSettle()
        let moved = try await bestLoanBatch(reader, selection, "application/x-loan", expected: bytes)
        #expect(moved.finished >= 40, "most reads should finish on loan: \(moved)")
        #expect(moved.wakeUps <= 10, "reads on loan should not wake the loop: \(moved)")
        #expect(await reader.activeReadCount == 0)
        await owner.shutdown()
        await reader.shutdown()
    }

    /// The same against an independent peer: xclip owns CLIPBOARD (only this test of the suite uses it).
    @Test func sequentialReadsOfXclipFinishOnLoan() async throws {
        let display = try currentDisplay()
        let bytes = payload(300, seed: 21)
        let peer = try startPeer(
            ["xclip", "-quiet", "-selection", "clipboard", "-i", "-t", "application/x-clipbridge-test"],
            display: display, stdin: bytes)
        try await peer.waitUntilOwning("CLIPBOARD", display: display)
        let reader = try await openConnection()
        await letLoopsSettle()
        let moved = try await bestLoanBatch(reader, .clipboard, "application/x-clipbridge-test", expected: bytes)
        #expect(moved.finished >= 40, "most reads of xclip should finish on loan: \(moved)")
        #expect(moved.wakeUps <= 10, "reads on loan should not wake the loop: \(moved)")
        await peer.stop()
        await reader.shutdown()
    }

    // MARK: 2. Loans disabled

    @Test func zeroInlineWaitLimitNeverLends() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection { $0.inlineWaitLimit = .zero }
        let selection = uniqueSelection()
        let bytes = payload(64, seed: 6)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-loan", source: .bytes(bytes)),
            .init(target: .utf8String, source: .bytes(Data("no loans".utf8))),
        ]))
        await letLoopsSettle()
        let before = reader.loanStatistics
        var results: [Data] = []
        for _ in 0..<30 {
            results.append(try await reader.read(selection, target: "application/x-loan").bytes)
        }
        let streamed = Mutex(Data())
        let summary = try await reader.read(selection, target: "application/x-loan") { chunk in
            streamed.withLock { $0.append(chunk) }
        }
        let targets = try await reader.targets(of: selection)
        let text = try await reader.readText(selection)
        let moved = delta(reader, since: before)
        #expect(results.allSatisfy { $0 == bytes })
        #expect(streamed.withLock { $0 } == bytes)
        #expect(summary.byteCount == bytes.count)
        #expect(targets.contains("application/x-loan"))
        #expect(text == "no loans")
        #expect(reader.loanStatistics.taken == 0, "no loan may be taken with inlineWaitLimit == .zero")
        #expect(moved.finished == 0)
        // Every read was handed to the loop instead: it had to be woken for some of them.
        #expect(moved.wakeUps > 0, "\(moved)")
        await owner.shutdown()
        await reader.shutdown()
    }

    // MARK: 3. Hand-over when the reply is slow

    @Test func slowOwnerHandsTheReadBackToTheLoop() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let bytes = payload(5000, seed: 7)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-slow", source: .provider {
                try await Task.sleep(for: .milliseconds(30))
                return bytes
            }),
        ]))
        await letLoopsSettle()
        let before = reader.loanStatistics
        let started = ContinuousClock.now
        let data = try await reader.read(selection, target: "application/x-slow")
        let elapsed = started.duration(to: .now)
        let moved = delta(reader, since: before)
        #expect(data.bytes == bytes)
        #expect(data.type == "application/x-slow")
        #expect(elapsed >= .milliseconds(30))
        #expect(elapsed < .seconds(3))
        #expect(moved.taken >= 1, "the read should have started on loan: \(moved)")
        #expect(moved.finished == 0, "a 30 ms reply cannot finish within a 2 ms loan: \(moved)")
        #expect(await reader.activeReadCount == 0)
        await owner.shutdown()
        await reader.shutdown()
    }

    // MARK: 4. Reading what the same connection owns

    @Test func readingOwnSelectionServesTheRequestOnLoan() async throws {
        let connection = try await openConnection()
        let selection = uniqueSelection()
        let bytes = payload(1000, seed: 8)
        _ = try await connection.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-bytes", source: .bytes(bytes)),
        ]))
        await letLoopsSettle()
        let before = connection.loanStatistics
        var results: [Data] = []
        for _ in 0..<20 {
            results.append(try await connection.read(selection, target: "application/x-bytes").bytes)
        }
        let streamed = Mutex(Data())
        _ = try await connection.read(selection, target: "application/x-bytes") { chunk in
            streamed.withLock { $0.append(chunk) }
        }
        let moved = delta(connection, since: before)
        #expect(results.allSatisfy { $0 == bytes })
        #expect(streamed.withLock { $0 } == bytes)
        // The caller answers its own SelectionRequest while on loan: nothing needs the loop. (Not every read
        // gets a loan: one that comes while the loop is still finishing its previous turn parks instead —
        // serving arms the lease's `.served` window, which wakes the loop after the loan. Alone, 15–21 of the
        // 21 finish on loan; with the whole test target running in parallel on 2 CPUs, as few as 3.)
        #expect(moved.finished >= 1, "reads of our own selection should finish on loan: \(moved)")
        #expect(await connection.activeReadCount == 0)
        #expect(await connection.activeTransferCount == 0)
        await connection.shutdown()
    }

    @Test func readingOwnProviderHandsBackToTheLoop() async throws {
        let connection = try await openConnection()
        let selection = uniqueSelection()
        let produced = payload(50_000, seed: 9)
        _ = try await connection.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-provided", source: .provider { produced }),
        ]))
        await letLoopsSettle()
        let before = connection.loanStatistics
        let started = ContinuousClock.now
        // The provider runs in a task enqueued on the loop: the loan must hand back (not wait out its time
        // holding the role the provider's task needs) and the loop must then finish the read.
        let data = try await connection.read(selection, target: "application/x-provided", timeout: .seconds(10))
        let elapsed = started.duration(to: .now)
        let moved = delta(connection, since: before)
        #expect(data.bytes == produced)
        #expect(elapsed < .seconds(2), "the read of our own provider took \(elapsed)")
        #expect(moved.taken >= 1, "\(moved)")
        #expect(moved.finished == 0, "the provider's task needs the loop, so the loan cannot finish: \(moved)")
        // Provided data is cached for the claim: later reads of it work too (on loan or parked).
        for _ in 0..<5 {
            #expect(try await connection.read(selection, target: "application/x-provided").bytes == produced)
        }
        #expect(await connection.activeReadCount == 0)
        await connection.shutdown()
    }

    // MARK: 5. Concurrent callers on one connection

    @Test func concurrentReadersShareOneConnection() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        var offers: [(SelectionName, SelectionTarget, Data)] = []
        for index in 0..<8 {
            let selection = uniqueSelection("concurrent\(index)")
            let target = SelectionTarget(rawValue: "application/x-loan-\(index)")
            let bytes = payload(100 + index * 1_999, seed: UInt32(100 + index))
            _ = try await owner.claim(
                selection, offering: SelectionOffer([.init(target: target, source: .bytes(bytes))]))
            offers.append((selection, target, bytes))
        }
        let offered = offers
        await letLoopsSettle()
        let before = reader.loanStatistics
        let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
            for (selection, target, bytes) in offered {
                group.addTask {
                    var wrong: [String] = []
                    for round in 0..<20 {
                        let data: Data
                        if round % 4 == 3 {
                            let collected = Mutex(Data())
                            _ = try await reader.read(selection, target: target) { chunk in
                                collected.withLock { $0.append(chunk) }
                            }
                            data = collected.withLock { $0 }
                        } else {
                            data = try await reader.read(selection, target: target).bytes
                        }
                        if data != bytes { wrong.append("\(target) round \(round): \(data.count) bytes") }
                    }
                    return wrong
                }
            }
            var all: [String] = []
            for try await wrong in group { all += wrong }
            return all
        }
        let moved = delta(reader, since: before)
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(moved.taken > 0, "\(moved)")
        #expect(await reader.activeReadCount == 0)
        await owner.shutdown()
        await reader.shutdown()
    }

    /// MULTIPLE (ICCCM 2.6.2) reads take loans too: one request, several targets, one refused.
    @Test func multipleReadsFinishOnLoan() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let html = Data("<p>loan</p>".utf8)
        let blob = payload(7000, seed: 31)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "text/html", source: .bytes(html)),
            .init(target: "application/x-blob", source: .bytes(blob)),
        ]))
        await letLoopsSettle()
        let before = reader.loanStatistics
        var wrong: [String] = []
        for round in 0..<20 {
            let results = try await reader.read(selection, targets: ["text/html", "application/x-blob", "image/png"])
            if (try? results["text/html"]?.get().bytes) != html { wrong.append("round \(round): text/html") }
            if (try? results["application/x-blob"]?.get().bytes) != blob { wrong.append("round \(round): blob") }
            guard case .failure(let refused)? = results["image/png"], refused.code == .targetUnavailable else {
                wrong.append("round \(round): image/png \(String(describing: results["image/png"]))")
                continue
            }
        }
        let moved = delta(reader, since: before)
        #expect(wrong.isEmpty, "\(wrong)")
        // Alone, most of the 20 finish on loan; with the whole test target running in parallel on 2 CPUs a
        // MULTIPLE reply (three targets, 7 KB) outlasts the 2 ms loan more often (as few as 8 finished).
        #expect(moved.finished >= 3, "MULTIPLE reads should finish on loan: \(moved)")
        #expect(await reader.activeReadCount == 0)
        await owner.shutdown()
        await reader.shutdown()
    }

    // MARK: 6. INCR on loan

    @Test func incrementalStreamAndWholeReadOnLoan() async throws {
        let owner = try await openConnection {
            $0.incrementalThreshold = 4096
            $0.chunkSize = 16 * 1024
        }
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let bytes = payload(1 << 20, seed: UInt32.random(in: 1...UInt32.max))
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-big", source: .bytes(bytes)),
        ]))
        await letLoopsSettle()
        let before = reader.loanStatistics
        let collected = Mutex((data: Data(), chunks: 0))
        let summary = try await reader.read(selection, target: "application/x-big") { chunk in
            collected.withLock {
                $0.data.append(chunk)
                $0.chunks += 1
            }
        }
        let (streamed, chunks) = collected.withLock { ($0.data, $0.chunks) }
        let moved = delta(reader, since: before)
        #expect(streamed.count == bytes.count)
        #expect(streamed == bytes)
        #expect(summary.byteCount == bytes.count)
        #expect(summary.type == "application/x-big")
        #expect(chunks > 1, "an INCR transfer of 1 MiB in 16 KiB chunks came in \(chunks) chunk(s)")
        #expect(moved.taken > 0, "\(moved)")

        let whole = try await reader.read(selection, target: "application/x-big")
        #expect(whole.bytes.count == bytes.count)
        #expect(whole.bytes == bytes)
        #expect(await reader.activeReadCount == 0)
        #expect(await eventually { await owner.activeTransferCount == 0 })
        await owner.shutdown()
        await reader.shutdown()
    }

    // MARK: 7. Cancellation while parked

    @Test func cancellingAParkedReadThrowsCancellationQuickly() async throws {
        let reader = try await openConnection()
        let (silent, silentSelection) = try await rawOwner("silent")
        await letLoopsSettle()
        let before = reader.loanStatistics
        let started = ContinuousClock.now
        let whole = Task {
            try await reader.read(silentSelection, target: .utf8String, timeout: .seconds(30)).bytes.count
        }
        let streamed = Task {
            try await reader.read(silentSelection, target: .utf8String, timeout: .seconds(30)) { _ in }.byteCount
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(await reader.activeReadCount == 2)
        whole.cancel()
        streamed.cancel()
        await #expect(throws: CancellationError.self) { _ = try await whole.value }
        await #expect(throws: CancellationError.self) { _ = try await streamed.value }
        let elapsed = started.duration(to: .now)
        #expect(elapsed < .seconds(2), "cancellation took \(elapsed)")
        #expect(delta(reader, since: before).taken >= 1, "at least one read should have started on loan")
        #expect(await eventually { await reader.activeReadCount == 0 })

        // The connection still works, on the default path.
        let owner = try await openConnection()
        let selection = uniqueSelection()
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: .utf8String, source: .bytes(Data("still here".utf8))),
        ]))
        #expect(try await reader.read(selection, target: .utf8String).bytes == Data("still here".utf8))
        #expect(try await reader.readText(selection) == "still here")
        _ = try await onThread { silent.close() }
        await owner.shutdown()
        await reader.shutdown()
    }

    // MARK: 8. Timeouts of reads started on loan

    @Test func readStartedOnLoanTimesOutOnTime() async throws {
        let reader = try await openConnection()
        let (silent, silentSelection) = try await rawOwner("silent")
        // The same deadline for a whole read and a streamed one.
        let reads: [(kind: String, read: @Sendable () async throws -> Void)] = [
            ("whole", { _ = try await reader.read(silentSelection, target: .utf8String, timeout: .milliseconds(300)) }),
            ("streamed", {
                _ = try await reader.read(silentSelection, target: .utf8String, timeout: .milliseconds(300)) { _ in }
            }),
        ]
        for (kind, read) in reads {
            await letLoopsSettle()
            let before = reader.loanStatistics
            let started = ContinuousClock.now
            let error = await #expect(throws: SelectionError.self) { try await read() }
            let elapsed = started.duration(to: .now)
            #expect(error?.code == .timedOut, "the \(kind) read")
            #expect(elapsed >= .milliseconds(250), "the \(kind) read timed out after \(elapsed)")
            #expect(elapsed < .seconds(3), "the \(kind) read timed out after \(elapsed)")
            if kind == "whole" { #expect(delta(reader, since: before).taken >= 1) }
        }
        #expect(await reader.activeReadCount == 0)
        _ = try await onThread { silent.close() }
        await reader.shutdown()
    }

    // MARK: 9. The X server dies during reads

    @Test func serverKilledDuringReadsFailsThemAndTheProcessLivesOn() async throws {
        let server = try await XvfbServer.start()
        let owner = try await X11Connection.open(display: server.display)
        let reader = try await X11Connection.open(display: server.display)
        let selection = SelectionName(rawValue: "CLIPBRIDGE_LOAN_DOOMED")
        let bytes = payload(256, seed: 17)
        _ = try await owner.claim(selection, offering: SelectionOffer([
            .init(target: "application/x-fast", source: .bytes(bytes)),
            .init(target: "application/x-never", source: .provider {
                try await Task.sleep(for: .seconds(20))
                return Data()
            }),
        ]))
        // One caller reads in a loop (mostly on loan), another waits parked for a reply that never comes.
        let looping = Task { () async -> (reads: Int, wrong: Int, error: (any Error)?) in
            var reads = 0
            var wrong = 0
            do {
                while true {
                    let data = try await reader.read(selection, target: "application/x-fast", timeout: .seconds(30))
                    if data.bytes != bytes { wrong += 1 }
                    reads += 1
                }
            } catch {
                return (reads, wrong, error)
            }
        }
        let parked = Task {
            try await reader.read(selection, target: "application/x-never", timeout: .seconds(30))
        }
        #expect(await eventually { reader.loanStatistics.finished >= 20 })
        await server.kill()
        let killed = ContinuousClock.now
        let outcome = await looping.value
        let parkedResult = await parked.result
        #expect(killed.duration(to: .now) < .seconds(5), "the reads took \(killed.duration(to: .now)) to fail")
        #expect(outcome.reads >= 20)
        #expect(outcome.wrong == 0)
        let code = (outcome.error as? SelectionError)?.code
        #expect(
            code == .connectionLost || code == .shutDown,
            "the looping read ended with \(String(describing: outcome.error))")
        if case .failure(let error as SelectionError) = parkedResult {
            #expect(error.code == .connectionLost || error.code == .shutDown, "\(error)")
        } else {
            Issue.record("the parked read should fail with connectionLost, got \(parkedResult)")
        }
        let laterStarted = ContinuousClock.now
        let later = await #expect(throws: SelectionError.self) {
            _ = try await reader.read(selection, target: "application/x-fast", timeout: .seconds(30))
        }
        #expect(later?.code == .connectionLost || later?.code == .shutDown)
        #expect(laterStarted.duration(to: .now) < .seconds(2))
        await owner.shutdown()
        await reader.shutdown()

        // The process and the suite's own server are fine: new connections read as before.
        let survivorOwner = try await openConnection()
        let survivor = try await openConnection()
        let fresh = uniqueSelection()
        _ = try await survivorOwner.claim(fresh, offering: SelectionOffer([
            .init(target: .utf8String, source: .bytes(Data("alive".utf8))),
        ]))
        #expect(try await survivor.readText(fresh) == "alive")
        await survivorOwner.shutdown()
        await survivor.shutdown()
    }

    /// Loans longer than the default 2 ms (`inlineWaitLimit` of 1-2 s). A borrower blocks its thread for its
    /// whole loan: the long loans run on `DedicatedThreadExecutor`, one test at a time.
    @Suite(.serialized)
    struct LongLoans {
        /// A reply timeout shorter than the loan fires on the borrowing thread (it runs the connection's deadlines).
        @Test func timeoutWithinALongLoanFiresOnLoan() async throws {
            let reader = try await openConnection { $0.inlineWaitLimit = .seconds(2) }
            let (silent, silentSelection) = try await rawOwner("silent")
            await letLoopsSettle()
            let before = reader.loanStatistics
            let started = ContinuousClock.now
            let error = await #expect(throws: SelectionError.self) {
                try await Task(executorPreference: DedicatedThreadExecutor.shared) {
                    _ = try await reader.read(silentSelection, target: .utf8String, timeout: .milliseconds(200))
                }.value
            }
            let elapsed = started.duration(to: .now)
            let moved = delta(reader, since: before)
            #expect(error?.code == .timedOut)
            #expect(elapsed >= .milliseconds(150), "timed out after \(elapsed)")
            #expect(elapsed < .seconds(1), "timed out after \(elapsed) (the loan lasts up to 2 s)")
            #expect(moved.taken == 1 && moved.finished == 1, "the timeout should end the loan itself: \(moved)")
            #expect(await reader.activeReadCount == 0)
            _ = try await onThread { silent.close() }
            await reader.shutdown()
        }

        /// A caller on a long loan serves requests for the connection's own selection, as the loop would.
        @Test func aLongLoanServesOwnedSelections() async throws {
            let reader = try await openConnection { $0.inlineWaitLimit = .seconds(1) }
            let other = try await openConnection()
            let (silent, silentSelection) = try await rawOwner("silent")
            let own = uniqueSelection("own")
            let ownBytes = payload(3000, seed: 23)
            _ = try await reader.claim(own, offering: SelectionOffer([
                .init(target: "application/x-own", source: .bytes(ownBytes)),
            ]))
            await letLoopsSettle()
            let before = reader.loanStatistics
            let blocked = Task(executorPreference: DedicatedThreadExecutor.shared) {
                try await reader.read(silentSelection, target: .utf8String, timeout: .seconds(20))
            }
            #expect(await eventually(timeout: .milliseconds(500)) { reader.loanStatistics.taken > before.taken })
            try await Task.sleep(for: .milliseconds(50))

            // Our selection is requested while the loop's role is lent: the borrowing thread answers.
            let started = ContinuousClock.now
            #expect(try await other.read(own, target: "application/x-own").bytes == ownBytes)
            let elapsed = started.duration(to: .now)
            #expect(elapsed < .milliseconds(500), "our own selection was served after \(elapsed)")

            blocked.cancel()
            await #expect(throws: CancellationError.self) { _ = try await blocked.value }
            #expect(await eventually { await reader.activeReadCount == 0 })
            _ = try await onThread { silent.close() }
            await other.shutdown()
            await reader.shutdown()
        }

        /// A caller on a long loan hands the role back as soon as another caller of the connection enqueues work
        /// (`lend` polls the eventfd for that). Idle: the borrower waits on a silent owner; busy: it also serves an
        /// INCR transfer of our selection to another client meanwhile. Ten attempts each.
        @Test(arguments: [false, true])
        func aLongLoanHandsBackToOtherCallers(busy: Bool) async throws {
            let reader = try await openConnection {
                $0.inlineWaitLimit = .seconds(2)
                $0.incrementalThreshold = 16 * 1024
                $0.chunkSize = 16 * 1024
            }
            let requestor = try await openConnection()
            let quickOwner = try await openConnection()
            let (silent, silentSelection) = try await rawOwner("silent")
            let quick = uniqueSelection("quick")
            _ = try await quickOwner.claim(quick, offering: SelectionOffer([
                .init(target: .utf8String, source: .bytes(Data("quick".utf8))),
            ]))
            let big = uniqueSelection("big")
            let bigBytes = payload(4 << 20, seed: 29)
            _ = try await reader.claim(big, offering: SelectionOffer([
                .init(target: "application/x-big", source: .bytes(bigBytes)),
            ]))
            var waits: [Duration] = []
            for _ in 0..<10 {
                await letLoopsSettle()
                let before = reader.loanStatistics
                let blocked = Task(executorPreference: DedicatedThreadExecutor.shared) {
                    try await reader.read(silentSelection, target: .utf8String, timeout: .seconds(20))
                }
                #expect(await eventually(timeout: .milliseconds(500)) { reader.loanStatistics.taken > before.taken })
                let transfer: Task<Data, any Error>? =
                    busy ? Task { try await requestor.read(big, target: "application/x-big").bytes } : nil
                try await Task.sleep(for: .milliseconds(20))
                let started = ContinuousClock.now
                #expect(try await reader.read(quick, target: .utf8String).bytes == Data("quick".utf8))
                waits.append(started.duration(to: .now))
                blocked.cancel()
                _ = await blocked.result
                if let transfer { #expect(try await transfer.value == bigBytes) }
            }
            #expect(
                waits.allSatisfy { $0 < .milliseconds(500) }, "a second caller waited for the loan to end: \(waits)")
            #expect(await eventually { await reader.activeReadCount == 0 })
            _ = try await onThread { silent.close() }
            await quickOwner.shutdown()
            await requestor.shutdown()
            await reader.shutdown()
        }
    }
}
