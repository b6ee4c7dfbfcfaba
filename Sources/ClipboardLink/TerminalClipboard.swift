import FoundationEssentials

/// Copying through the terminal when there is no display: OSC 52, the escape sequence xterm introduced (its
/// ctlseqs, "Operating System Commands", `Ps = 5 2`) that vim, neovim, tmux and many terminals write — honoured by
/// xterm, kitty, foot, WezTerm, Alacritty, Konsole, Windows Terminal, tmux; refused by VTE's terminals
/// (gnome-terminator/terminator#779). Pure: the sequences, the terminal's known limit, and the decision; the CLI
/// writes them to the controlling terminal.
package enum TerminalClipboard {
    /// Where the sequence must go through to reach the terminal.
    package enum Multiplexer: Sendable, Equatable {
        /// The terminal itself.
        case none
        /// GNU screen (`$STY`): its DCS passthrough, in pieces short enough for its string buffer.
        case screen
        /// tmux (`$TMUX`): its DCS passthrough (`allow-passthrough on`); the CLI prefers `tmux load-buffer -w`, which
        /// needs no setting.
        case tmux
    }

    /// The terminal's selection parameter: `c` for CLIPBOARD, `p` for PRIMARY, `s` for SECONDARY (xterm's ctlseqs).
    package static func parameter(for selection: String) -> String {
        switch selection.uppercased() {
        case "PRIMARY": "p"
        case "SECONDARY": "s"
        default: "c"
        }
    }

    /// `text`'s bytes as one OSC 52 sequence setting `selection` (BEL-terminated: what xterm, tmux and every
    /// terminal that takes OSC 52 accept), wrapped for `multiplexer`.
    package static func sequence(_ bytes: some Collection<UInt8>, selection: String = "CLIPBOARD", through multiplexer: Multiplexer = .none) -> [UInt8] {
        let osc = Array("\u{1B}]52;\(parameter(for: selection));".utf8) + base64(bytes) + [0x07]
        switch multiplexer {
        case .none:
            return osc
        case .tmux:
            // tmux's passthrough: the sequence inside `ESC P tmux; … ESC \`, every ESC in it doubled (tmux(1),
            // allow-passthrough).
            return Array("\u{1B}Ptmux;".utf8) + osc.flatMap { $0 == 0x1B ? [0x1B, 0x1B] : [$0] } + [0x1B, 0x5C]
        case .screen:
            // screen passes a DCS string through, but holds at most 768 bytes of one (its MAXSTR): the sequence is cut
            // into pieces of 76 bytes, each in a DCS of its own, which the terminal sees joined (hterm's osc52.sh).
            var out: [UInt8] = []
            var index = osc.startIndex
            while index < osc.endIndex {
                let end = min(index + 76, osc.endIndex)
                out += Array("\u{1B}P".utf8) + osc[index..<end] + [0x1B, 0x5C]
                index = end
            }
            return out
        }
    }

    /// Standard base64 with padding (RFC 4648 §4), as OSC 52 carries its data.
    static func base64(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array(Data(bytes).base64EncodedString().utf8)
    }

    /// What is known of a terminal from its environment.
    package struct Terminal: Sendable, Equatable {
        /// Its name in messages.
        package var name: String
        /// The most base64 bytes one OSC 52 sequence may carry there; nil: it takes no OSC 52.
        package var limit: Int?
    }

    /// The terminal the environment names, with what it is known to accept (sizes of the base64 text):
    /// - VTE's terminals (GNOME Terminal, Tilix, Terminator: `$VTE_VERSION`) take none (terminator#779), nor do the
    ///   Linux console (`TERM=linux`: its console_codes(4) know no OSC 52) and `TERM=dumb`;
    /// - kitty (`xterm-kitty`, `$KITTY_WINDOW_ID`): 6,138 bytes in one sequence — more needs its chunking extension
    ///   (kovidgoyal/kitty#3031);
    /// - Termux (`$TERMUX_VERSION`): about 6 KB (termux/termux-app#5324);
    /// - xterm (`$XTERM_VERSION`): 1 MB, its longest control string;
    /// - any other terminal, or one behind ssh where only `$TERM` crosses: 100,000 bytes — hterm's limit, the
    ///   smallest of the terminals that name themselves xterm — unless `override` says otherwise.
    package static func terminal(environment: (String) -> String?, override: Int? = nil) -> Terminal {
        let term = environment("TERM") ?? ""
        let known: Terminal =
            if environment("VTE_VERSION") != nil { Terminal(name: "a VTE terminal (GNOME Terminal, Tilix, Terminator)", limit: nil) }
            else if term == "linux" { Terminal(name: "the Linux console", limit: nil) }
            else if term == "dumb" { Terminal(name: "a dumb terminal", limit: nil) }
            else if term == "xterm-kitty" || environment("KITTY_WINDOW_ID") != nil { Terminal(name: "kitty", limit: 6_138) }
            else if environment("TERMUX_VERSION") != nil { Terminal(name: "Termux", limit: 6_000) }
            else if environment("XTERM_VERSION") != nil { Terminal(name: "xterm", limit: 1_000_000) }
            else { Terminal(name: term.isEmpty ? "the terminal" : "the terminal (\(term))", limit: 100_000) }
        guard let override else { return known }
        return Terminal(name: known.name, limit: override)
    }

    /// Why a copy cannot go through the terminal.
    package enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case unsupported(terminal: String)
        /// `bytes` (or more, when `atLeast`: the input was not read further) encode to `encoded` bytes, past `limit`.
        case tooLarge(bytes: Int, encoded: Int, limit: Int, terminal: String, atLeast: Bool)
        case notText

        package var description: String {
            switch self {
            case .unsupported(let terminal):
                "\(terminal) does not take OSC 52: nothing was copied"
            case .tooLarge(let bytes, let encoded, let limit, let terminal, let atLeast):
                (atLeast
                    ? "the text is more than \(bytes - 1) bytes, over \(limit) bytes of OSC 52"
                    : "the text's \(bytes) bytes are \(encoded) bytes of OSC 52")
                    + ", and \(terminal) takes at most \(limit): nothing was copied (--osc52-limit BYTES if yours takes more)"
            case .notText:
                "OSC 52 carries text only: nothing was copied"
            }
        }
    }

    /// Whether `byteCount` bytes of text may be sent to `terminal` (their base64 length against its limit);
    /// `atLeast`: the input goes on past them.
    package static func check(byteCount: Int, atLeast: Bool = false, for terminal: Terminal) -> Result<Void, Refusal> {
        guard let limit = terminal.limit else { return .failure(.unsupported(terminal: terminal.name)) }
        let encoded = (byteCount + 2) / 3 * 4
        guard encoded <= limit, !atLeast else {
            return .failure(.tooLarge(bytes: byteCount, encoded: encoded, limit: limit, terminal: terminal.name, atLeast: atLeast))
        }
        return .success(())
    }

    /// The most bytes of text whose base64 fits in `limit`.
    package static func mostBytes(within limit: Int) -> Int { limit / 4 * 3 }

    /// The multiplexer the environment says this runs in: tmux when `$TMUX` is set, screen when `$STY` is.
    package static func multiplexer(environment: (String) -> String?) -> Multiplexer {
        if environment("TMUX").map({ !$0.isEmpty }) == true { return .tmux }
        if environment("STY").map({ !$0.isEmpty }) == true { return .screen }
        return .none
    }
}
