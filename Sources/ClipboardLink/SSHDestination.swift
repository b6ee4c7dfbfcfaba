/// Where `clipbridge bridge … ssh:[user@]host[:REMOTE]` links to, and the command that starts the far end there.
package struct SSHDestination: Sendable, Equatable {
    /// `host`, `user@host`, an ssh config alias, or an IPv6 address (given in brackets, kept without them).
    package var host: String
    /// The display on the far machine (`:0`, `wayland-1`, `wayland:NAME`); nil: its own session's.
    package var display: String?

    package init(host: String, display: String?) {
        self.host = host
        self.display = display
    }

    /// `argument` as a destination, when it starts with `ssh:`; nil for any other argument (a display here).
    /// - Throws: ``Invalid`` when it names no host.
    package static func parse(_ argument: String) throws -> SSHDestination? {
        guard argument.hasPrefix("ssh:") else { return nil }
        var rest = Substring(argument.dropFirst(4))
        let host: Substring
        if rest.hasPrefix("[") || rest.contains("@[") {
            // user@[::1]:REMOTE — the brackets keep an IPv6 address's colons apart from the display's.
            guard let open = rest.firstIndex(of: "["), let close = rest.firstIndex(of: "]"), open < close else {
                throw Invalid("'\(argument)' has an unclosed '['")
            }
            host = rest[rest.startIndex..<open] + rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { throw Invalid("'\(argument)' has text after ']' that is not ':DISPLAY'") }
        } else {
            host = rest.prefix { $0 != ":" }
            rest = rest.dropFirst(host.count)
        }
        guard !host.isEmpty, !host.hasSuffix("@"), !host.hasPrefix("-") else {
            throw Invalid("'\(argument)' names no host: write ssh:[user@]host[:DISPLAY]")
        }
        let display = rest.isEmpty ? nil : String(rest.dropFirst())
        return SSHDestination(host: String(host), display: display?.isEmpty == true ? nil : display)
    }

    /// The command line the far machine's shell runs: `remoteCommand` as given (a path, or a command with its own
    /// arguments, as rsync's `--rsync-path` — the far shell expands it), then `bridge --stdio`, `options`, and the
    /// display, each quoted for that shell.
    package func remoteCommandLine(remoteCommand: String, options: [String]) -> String {
        ([remoteCommand] + (["bridge", "--stdio"] + options + (display.map { [$0] } ?? [])).map(Self.shellQuoted))
            .joined(separator: " ")
    }

    /// `word` as one word of a POSIX shell: in single quotes where it has anything the shell would act on.
    package static func shellQuoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_./:=@,+%".unicodeScalars.contains($0)
        }
        if plain && !word.isEmpty { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// A destination argument that cannot be used.
    package struct Invalid: Error, Sendable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }
}
