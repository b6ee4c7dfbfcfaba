import Testing
@testable import ClipboardLink

/// OSC 52's forms and limits (`TerminalClipboard`): the sequence as xterm's ctlseqs define it, wrapped for tmux and
/// screen, the terminal known from the environment, and the size check that refuses rather than lose text.
@Suite struct TerminalClipboardTests {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func theSequenceCarriesBase64OfTheBytesForTheSelection() {
        #expect(text(TerminalClipboard.sequence(Array("hello".utf8))) == "\u{1B}]52;c;aGVsbG8=\u{07}")
        #expect(text(TerminalClipboard.sequence(Array("Grüße ✓".utf8), selection: "PRIMARY")) == "\u{1B}]52;p;R3LDvMOfZSDinJM=\u{07}")
        #expect(text(TerminalClipboard.sequence([], selection: "SECONDARY")) == "\u{1B}]52;s;\u{07}")
    }

    @Test func tmuxGetsItsPassthroughWithEveryEscapeDoubled() {
        let wrapped = text(TerminalClipboard.sequence(Array("hi".utf8), through: .tmux))
        #expect(wrapped == "\u{1B}Ptmux;\u{1B}\u{1B}]52;c;aGk=\u{07}\u{1B}\\")
    }

    @Test func screenGetsPiecesThatFitItsStringBufferAndJoinToTheSequence() {
        let bytes = Array((0..<1000).map { UInt8($0 % 256) })
        let plain = TerminalClipboard.sequence(bytes)
        let wrapped = TerminalClipboard.sequence(bytes, through: .screen)
        var joined: [UInt8] = []
        var rest = wrapped[...]
        while !rest.isEmpty {
            #expect(rest.starts(with: [0x1B, 0x50]))
            guard let end = rest.firstRange(of: [0x1B, 0x5C]) else { Issue.record("a piece without its end"); return }
            let piece = rest[(rest.startIndex + 2)..<end.lowerBound]
            #expect(piece.count <= 76)
            joined += piece
            rest = rest[end.upperBound...]
        }
        #expect(joined == plain)
    }

    @Test func theTerminalIsKnownFromItsEnvironment() {
        func terminal(_ environment: [String: String], override: Int? = nil) -> TerminalClipboard.Terminal {
            TerminalClipboard.terminal(environment: { environment[$0] }, override: override)
        }
        #expect(terminal(["TERM": "xterm-256color", "VTE_VERSION": "7006"]).limit == nil)
        #expect(terminal(["TERM": "linux"]).limit == nil && terminal(["TERM": "linux"]).name == "the Linux console")
        #expect(terminal(["TERM": "dumb"]).limit == nil)
        #expect(terminal(["TERM": "xterm-kitty"]).limit == 6_138)
        #expect(terminal(["KITTY_WINDOW_ID": "1", "TERM": "xterm-256color"]).limit == 6_138)
        #expect(terminal(["TERMUX_VERSION": "0.118"]).limit == 6_000)
        #expect(terminal(["XTERM_VERSION": "XTerm(379)", "TERM": "xterm"]).name == "xterm")
        #expect(terminal(["TERM": "screen-256color"]).limit == 100_000)
        #expect(terminal([:]).limit == 100_000)
        #expect(terminal(["TERM": "xterm-kitty"], override: 1 << 20).limit == 1 << 20)
    }

    @Test func aTextPastTheLimitIsRefusedAndOneAtItPasses() {
        let terminal = TerminalClipboard.Terminal(name: "kitty", limit: 6_138)
        let most = TerminalClipboard.mostBytes(within: 6_138)
        #expect(most == 4_602)
        #expect((try? TerminalClipboard.check(byteCount: most, for: terminal).get()) != nil)
        guard case .failure(let refusal) = TerminalClipboard.check(byteCount: most + 1, for: terminal) else {
            Issue.record("one byte past the limit passed")
            return
        }
        #expect(refusal.description.contains("kitty takes at most 6138"))
        #expect(refusal.description.contains("nothing was copied"))
        guard case .failure(let endless) = TerminalClipboard.check(byteCount: most + 1, atLeast: true, for: terminal) else {
            Issue.record("an input that goes on passed")
            return
        }
        #expect(endless.description.contains("more than \(most) bytes"))
        let vte = TerminalClipboard.Terminal(name: "a VTE terminal", limit: nil)
        guard case .failure(.unsupported(let name)) = TerminalClipboard.check(byteCount: 1, for: vte) else {
            Issue.record("a VTE terminal was sent OSC 52")
            return
        }
        #expect(name == "a VTE terminal")
    }

    @Test func theMultiplexerIsTmuxThenScreenFromTheirVariables() {
        #expect(TerminalClipboard.multiplexer(environment: { ["TMUX": "/tmp/tmux-0/default,1,0", "STY": "1.pts"][$0] }) == .tmux)
        #expect(TerminalClipboard.multiplexer(environment: { ["STY": "1.pts-0.host"][$0] }) == .screen)
        #expect(TerminalClipboard.multiplexer(environment: { ["TMUX": ""][$0] }) == .none)
        #expect(TerminalClipboard.multiplexer(environment: { _ in nil }) == .none)
    }
}
