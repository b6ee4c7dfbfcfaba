import ClipBridgeTestSupport
import CX11
import Foundation
import Testing
import X11Selection

/// SelectionClear, judged by its time and by the server's word (ICCCM 2.2).
@Suite(.xvfb, .timeLimit(.minutes(1)))
struct SelectionClearTests {
    /// A clear carrying our claim's own time may be the one that ended an earlier claim of ours: the claim that
    /// replaced it can have been made in the same millisecond as our new one (two bridges claiming one copy at
    /// once did this, and the one that ended owner of the selection stopped serving it). While the server says
    /// we own the selection, such a clear is ignored; a later one ends the claim.
    @Test func aClearOfTheClaimsOwnTimeIsJudgedByTheServer() async throws {
        let display = try currentDisplay()
        let connection = try await openConnection()
        let selection = uniqueSelection()
        let lease = try await connection.claim(selection, offering: SelectionOffer([.init(target: "text/plain", source: .bytes(Data("kept".utf8)))]))
        let window = await connection.utilityWindow
        let time = lease.timestamp
        try await onThread {
            let raw = try RawXClient(display)
            raw.sendSelectionClear(to: Window(window.rawValue), selection: selection.rawValue, time: Time(time.rawValue))
            raw.close()
        }
        let served = try await connection.read(selection, target: "text/plain", timeout: .seconds(3))
        #expect(served.bytes == Data("kept".utf8), "the same-time clear ended the claim")

        // A later clear (another client really took it) ends it.
        try await onThread {
            let raw = try RawXClient(display)
            raw.sendSelectionClear(to: Window(window.rawValue), selection: selection.rawValue, time: Time(time.rawValue + 1))
            raw.close()
        }
        var lost = false
        for await event in lease.events {
            if case .lost = event {
                lost = true
                break
            }
        }
        #expect(lost)
        await connection.shutdown()
    }
}
