// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — richest-first order, validators, converters on paste, visibility, many items, sensitivity

import ClipBridge
import ClipBridgeTestSupport
import Foundation
import Testing
import TransferKit
import X11Selection

@Suite(.xvfb, .serialized, .timeLimit(.minutes(2)))
struct NegotiationTests {
    @Test("TARGETS lists every exported representation in declaration order, as ClipBridge reads it back")
    func richestFirstOrder() async throws {
        try await withTwoApps { apps in
            try await apps.owner.copy(RichNote(title: "t", htmlContent: "<i>x</i>", plainText: "x"))
            let xclip = contentTargets(try await apps.xclipTargets()).filter { $0 != "x-kde-passwordManagerHint" }
            let ours = try await apps.reader.availableTypes().filter { !$0.isConverted }.map(\.target.rawValue)
            #expect(ours == xclip)
            #expect(
                xclip == [
                    "application/json", "text/html", "text/plain;charset=utf-8", "UTF8_STRING", "COMPOUND_TEXT", "TEXT",
                    "STRING", "text/plain",
                ])
        }
    }

    @Test("the validator sees the decoded candidates and decides what is pasted")
    func validatorFilters() async throws {
        try await withTwoApps { apps in
            try await apps.owner.copy([Todo(text: "keep", isDone: false), Todo(text: "drop", isDone: true)])
            let all = try await apps.reader.paste(Todo.self)
            #expect(all.map(\.text) == ["keep", "drop"])
            let open = try await apps.reader.paste(Todo.self) { candidates in candidates.filter { !$0.isDone } }
            #expect(open.map(\.text) == ["keep"])
            let none = try await apps.reader.paste(Todo.self) { _ in [] }
            #expect(none.isEmpty)
        }
    }

    @Test("an HTML-only owner (xclip -t text/html) pastes as String through the HTML converter")
    func htmlOnlyOwnerGoesThroughConverter() async throws {
        try await withTwoApps { apps in
            let html = "<html><body><h1>Title</h1><p>Some <b>bold</b> &amp; more</p></body></html>"
            let xclip = try startPeer(
                ["xclip", "-quiet", "-selection", "clipboard", "-t", "text/html", "-i"], display: apps.server.display,
                stdin: Data(html.utf8))
            defer { Task { _ = await xclip.stop() } }
            try await xclip.waitUntilOwning("CLIPBOARD", display: apps.server.display)
            #expect(try await apps.reader.paste(String.self) == ["Title\n\nSome bold & more"])
            let types = try await apps.reader.availableTypes()
            let converted = try #require(types.first { $0.isConverted && $0.contentType == .utf8PlainText })
            #expect(converted.sourceTarget == "text/html")
            #expect(converted.conversion?.steps.map(\.name) == ["HTML → plain text"])
            #expect(try await apps.reader.text() == "Title\n\nSome bold & more")
            // The asked type is absent and nothing converts to it: the error lists what is there.
            await #expect {
                try await apps.reader.paste(Todo.self)
            } throws: { error in
                let error = try #require(error as? ClipboardError)
                return error.code == .typeUnavailable && error.availableTypes.contains { $0.target == "text/html" }
            }
        }
    }

    @Test("xclip's STRING-only text is decoded as Latin-1")
    func latin1Owner() async throws {
        try await withTwoApps { apps in
            let xclip = try startPeer(
                ["xclip", "-quiet", "-selection", "clipboard", "-t", "STRING", "-i"], display: apps.server.display,
                stdin: Data([0x63, 0x61, 0x66, 0xE9]))
            defer { Task { _ = await xclip.stop() } }
            try await xclip.waitUntilOwning("CLIPBOARD", display: apps.server.display)
            #expect(try await apps.reader.paste(String.self) == ["café"])
        }
    }

    @Test("COMPOUND_TEXT beyond ASCII is decoded through Xlib")
    func compoundTextOwner() async throws {
        try await withTwoApps { apps in
            // "ü" in Compound Text: ESC - A designates ISO 8859-1's right half into G1, then 0xFC.
            let xclip = try startPeer(
                ["xclip", "-quiet", "-selection", "clipboard", "-t", "COMPOUND_TEXT", "-i"],
                display: apps.server.display,
                stdin: Data([0x47, 0x72, 0x1B, 0x2D, 0x41, 0xFC, 0xDF, 0x65]))
            defer { Task { _ = await xclip.stop() } }
            try await xclip.waitUntilOwning("CLIPBOARD", display: apps.server.display)
            #expect(try await apps.reader.paste(String.self) == ["Grüße"])
        }
    }

    @Test("canPaste follows what is offered, by conformance and converters")
    func canPaste() async throws {
        try await withTwoApps { apps in
            #expect(await !apps.reader.canPaste(String.self))
            try await apps.owner.copy(Todo(text: "x", isDone: false))
            #expect(await apps.reader.canPaste(Todo.self))
            #expect(await !apps.reader.canPaste(String.self))
            #expect(await !apps.reader.canPaste(Video.self))
            try await apps.owner.copy(RichNote(title: "", htmlContent: "<b>x</b>", plainText: "x"))
            #expect(await apps.reader.canPaste(String.self))
            #expect(await apps.reader.canPaste(RichNote.self))
            #expect(await !apps.reader.canPaste(Todo.self))
        }
    }

    @Test(".ownProcess representations are served in-process only; exportingCondition is evaluated at copy")
    func visibilityAndConditions() async throws {
        try await withTwoApps { apps in
            let secret = Secretive(body: "hidden body", isPublic: false)
            try await apps.owner.copy(secret)
            // Nothing is advertised: the only visible representation's condition is false.
            #expect(contentTargets(try await apps.xclipTargets()).filter { $0 != "x-kde-passwordManagerHint" } == [])
            // Another clipboard of this process still gets it, in-process.
            #expect(try await apps.reader.paste(Secretive.self) == [secret])

            let open = Secretive(body: "open body", isPublic: true)
            try await apps.owner.copy(open)
            let targets = contentTargets(try await apps.xclipTargets())
            #expect(!targets.contains("com.example.bridge-tests.secretive"))
            #expect(targets.contains("UTF8_STRING"))
            #expect(try await apps.xclip("UTF8_STRING").stdoutText == "open body")
        }
    }

    @Test("several items: ClipBridge pastes the list, other apps get the joined text")
    func manyItems() async throws {
        try await withTwoApps { apps in
            let profiles = [Profile(name: "Ada", phoneNumber: "1"), Profile(name: "Grace", phoneNumber: "2")]
            try await apps.owner.copy(profiles)
            #expect(try await apps.reader.paste(Profile.self) == profiles)
            let targets = contentTargets(try await apps.xclipTargets())
            #expect(targets.first == "application/x-clipbridge-items")
            #expect(targets[1] == "com.example.profile")
            #expect(try await apps.xclip("UTF8_STRING").stdoutText == "Ada\nGrace")
            // The first item for formats that cannot join.
            let first = try await apps.xclip("com.example.profile").stdout
            #expect(try JSONDecoder().decode(Profile.self, from: first) == profiles[0])
        }
    }

    @Test("a URL list pastes as one URL per line")
    func urlList() async throws {
        try await withTwoApps { apps in
            let urls = [URL(string: "https://example.org/a")!, URL(string: "https://example.org/b")!]
            try await apps.owner.copy(urls)
            #expect(
                try await apps.xclip("text/uri-list").stdoutText == "https://example.org/a\r\nhttps://example.org/b\r\n"
            )
            #expect(try await apps.reader.paste(URL.self) == urls)
        }
    }

    @Test("a sensitive copy offers the password hint; watchers see it without reading content")
    func sensitive() async throws {
        try await withTwoApps { apps in
            let changes = try await apps.reader.changes()
            var iterator = changes.makeAsyncIterator()
            try await apps.owner.copy("hunter2", options: CopyOptions(isSensitive: true))
            let change = try #require(try await iterator.next())
            #expect(change.isSensitive)
            #expect(change.reason == .newOwner)
            #expect(change.types.contains { $0.target == "UTF8_STRING" })
            #expect(try await apps.xclip("x-kde-passwordManagerHint").stdoutText == "secret")
            #expect(try await apps.owner.handOverToClipboardManager(timeout: .seconds(1)) == .skippedSensitive)

            try await apps.owner.copy("public words")
            let next = try #require(try await iterator.next())
            #expect(!next.isSensitive)
            #expect(!contentTargets(try await apps.xclipTargets()).contains("x-kde-passwordManagerHint"))
        }
    }

    @Test("the availability stream flips when another client takes and releases the clipboard")
    func availabilityFlips() async throws {
        try await withTwoApps { apps in
            var states = apps.reader.availability(of: Todo.self).makeAsyncIterator()
            #expect(await states.next() == false)
            try await apps.owner.copy(Todo(text: "x", isDone: false))
            #expect(await states.next() == true)
            // xclip takes the clipboard with text: a Todo cannot be pasted any more.
            let xclip = try startPeer(
                ["xclip", "-quiet", "-selection", "clipboard", "-i"], display: apps.server.display,
                stdin: Data("t".utf8))
            try await xclip.waitForOutput("Waiting for selection requests", in: .stderr)
            #expect(await states.next() == false)
            try await apps.owner.copy(Todo(text: "y", isDone: false))
            #expect(await states.next() == true)
            _ = await xclip.stop()
            // Releasing (clear) leaves nobody owning it.
            await apps.owner.clear()
            #expect(await states.next() == false)
        }
    }

    @Test("unknown atoms are listed as dynamic types, never dropped")
    func unknownAtomsAreKept() async throws {
        try await withTwoApps { apps in
            var item = ClipboardItem()
            item.append(TargetMappingProbe.customAtomType, target: "MY_PRIVATE_ATOM", source: .data(Data("p".utf8)))
            item.append(.data, target: "application/x-bridge-unknown", source: .data(Data("u".utf8)))
            try await apps.owner.copy([item], options: CopyOptions(widensWithConverters: false))
            let types = try await apps.reader.availableTypes()
            #expect(types.map(\.target) == ["MY_PRIVATE_ATOM", "application/x-bridge-unknown"])
            #expect(types.allSatisfy { $0.contentType.isDynamic })
            #expect(try await apps.reader.data(for: types[0]) == Data("p".utf8))
        }
    }
}

enum TargetMappingProbe {
    static let customAtomType = TargetMapping.contentType(for: "MY_PRIVATE_ATOM")
}
