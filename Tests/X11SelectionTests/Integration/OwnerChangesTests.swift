import ClipBridgeTestSupport
import Foundation
import Testing
import X11Selection

@Suite(.xvfb, .timeLimit(.minutes(2)))
struct OwnerChangesTests {
    @Test func seesXclipTakeOwnershipAndItsWindowGo() async throws {
        let display = try currentDisplay()
        let watcher = try await openConnection()
        let changes = try await watcher.ownerChanges(of: [.secondary])
        var iterator = changes.makeAsyncIterator()
        let peer = try startPeer(["xclip", "-quiet", "-selection", "secondary", "-i"], display: display,
                                 stdin: Data("watched".utf8))
        try await peer.waitForOutput("Waiting for selection requests", in: .stderr)
        let claimed = try await iterator.next()
        #expect(claimed?.selection == .secondary)
        #expect(claimed?.reason == .newOwner)
        #expect(claimed?.owner != nil)
        #expect(claimed?.isOwnedByThisProcess == false)
        #expect(claimed?.owner == (try await watcher.owner(of: .secondary)))

        // A killed client: Xorg handles the client's departure before destroying its windows, so XFixes
        // reports "client closed" (observed on Xvfb 21.1).
        await peer.kill()
        let gone = try await iterator.next()
        #expect(gone?.reason == .ownerClientClosed)
        #expect(gone?.owner == nil)
        await watcher.shutdown()
    }

    @Test func seesTheOwnerWindowDestroyed() async throws {
        let display = try currentDisplay()
        let watcher = try await openConnection()
        let selection = uniqueSelection()
        let changes = try await watcher.ownerChanges(of: [selection])
        var iterator = changes.makeAsyncIterator()
        let client = try await onThread { () throws -> RawXClient in
            let client = try RawXClient(display)
            guard client.claim(selection.rawValue) else { throw RawXError("claim failed") }
            client.destroyWindow()
            return client
        }
        let claimed = try await iterator.next()
        #expect(claimed?.reason == .newOwner)
        #expect(claimed?.owner == X11Window(rawValue: client.window))
        let destroyed = try await iterator.next()
        #expect(destroyed?.reason == .ownerWindowDestroyed)
        #expect(destroyed?.owner == nil)
        _ = try await onThread { client.close() }
        await watcher.shutdown()
    }

    @Test func seesTheOwnerClientClose() async throws {
        let display = try currentDisplay()
        let watcher = try await openConnection()
        let selection = uniqueSelection()
        let changes = try await watcher.ownerChanges(of: [selection])
        var iterator = changes.makeAsyncIterator()
        // The root window outlives its owner's client: disconnecting is reported as "client closed".
        try await onThread {
            let client = try RawXClient(display)
            client.claimWithRootWindow(selection.rawValue)
            client.close()
        }
        let claimed = try await iterator.next()
        #expect(claimed?.reason == .newOwner)
        let closed = try await iterator.next()
        #expect(closed?.reason == .ownerClientClosed)
        #expect(closed?.owner == nil)
        #expect(closed?.selection == selection)
        await watcher.shutdown()
    }

    @Test func ourClaimsAreOursWhateverSpellingOfTheDisplayEachConnectionUsed() async throws {
        // ":N" and ":N.0" name the same server: a process-wide comparison of display-name
        // strings called the owner a stranger.
        let display = try currentDisplay()
        let watcher = try await X11Connection.open(display: display + ".0")
        let owner = try await X11Connection.open(display: display)
        let selection = uniqueSelection()
        let changes = try await watcher.ownerChanges(of: [selection])
        var iterator = changes.makeAsyncIterator()
        _ = try await owner.claim(selection, offering: SelectionOffer(SelectionOffer.textRepresentations("x")))
        let claimed = try await iterator.next()
        #expect(claimed?.owner == (await owner.utilityWindow))
        #expect(claimed?.isOwnedByThisProcess == true)

        // A peer of another process on the same server is still not ours.
        try await onThread {
            let client = try RawXClient(display)
            _ = client.claim(selection.rawValue)
            client.close()
        }
        let stolen = try await iterator.next()
        #expect(stolen?.owner != nil)
        #expect(stolen?.isOwnedByThisProcess == false)
        await owner.shutdown()
        await watcher.shutdown()
    }

    @Test func anyNumberOfWatchersSeeOurOwnClaimsAsOurs() async throws {
        let watcher = try await openConnection()
        let owner = try await openConnection()
        let selection = uniqueSelection()
        let first = try await watcher.ownerChanges(of: [selection, .clipboard])
        let second = try await watcher.ownerChanges(of: [selection])
        let lease = try await owner.claim(selection, offering: SelectionOffer(SelectionOffer.textRepresentations("x")))
        await owner.release(selection)
        for changes in [first, second] {
            var iterator = changes.makeAsyncIterator()
            let claimed = try await iterator.next()
            #expect(claimed?.reason == .newOwner)
            #expect(claimed?.owner == (await owner.utilityWindow))
            #expect(claimed?.isOwnedByThisProcess == true)
            #expect(claimed?.selectionTimestamp == lease.timestamp)
            let released = try await iterator.next()
            #expect(released?.reason == .newOwner)
            #expect(released?.owner == nil)
            #expect(released?.isOwnedByThisProcess == false)
        }
        await watcher.shutdown()
        // Shutdown finishes the sequences without an error.
        var after = first.makeAsyncIterator()
        #expect(try await after.next() == nil)
        await owner.shutdown()
    }
}
