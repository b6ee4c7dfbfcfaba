// ClipBridge test support: which programs the tests start, for the fresh-machine check.

import Glibc

/// Records the program behind every command a test starts, so that `scripts/check-install-deps.sh` can check
/// each one comes from a Debian package `scripts/install-deps.sh` installs.
///
/// Why at run time: a list written by hand goes stale the day a test starts a new peer, and a program that is on
/// CI's machine only because someone installed it by hand is exactly what a green run cannot see. When the
/// environment names a file in `CLIPBRIDGE_SPAWN_LOG` (`scripts/test.sh` sets it), each spawn appends one line
/// per program: the absolute path the command resolves to in the child's `PATH`, or the bare name when nothing
/// in `PATH` has it. Lines are appended with `O_APPEND` in one `write` each, so the parallel tests' lines never
/// interleave (each is far below `PIPE_BUF`).
public enum SpawnLog {
    /// The file the lines go to, or nil when the run does not ask for them.
    static let path: String? = getenv("CLIPBRIDGE_SPAWN_LOG").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }

    /// A program a test starts because it does not exist (the fixture's own "not found" test): not recorded.
    public static let deliberatelyMissingPrefix = "clipbridge-no-such-"

    /// Records `arguments[0]` and, for `sh -c SCRIPT`, the programs the script names.
    ///
    /// - Parameter searchPath: the child's `PATH` (the parent's when the child has none).
    public static func record(_ arguments: [String], searchPath: String?) {
        guard let path, let first = arguments.first, !first.hasPrefix(deliberatelyMissingPrefix) else { return }
        var programs = [first]
        if ["sh", "bash", "/bin/sh", "/bin/bash"].contains(first), arguments.count >= 3, arguments[1] == "-c" {
            programs += commandWords(inShellScript: arguments[2])
        }
        let directories = (searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
            .split(separator: ":").map(String.init)
        let lines = programs.map { resolve($0, in: directories) + "\n" }.joined()
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = lines.withCString { write(fd, $0, strlen($0)) }
    }

    /// The first word of each simple command in a shell script: after the start, `;`, `|`, `&`, a newline, `(`
    /// or `` ` ``/`$(`, skipping variable assignments, `exec` and the shell's own keywords and builtins.
    ///
    /// Not a shell parser: the tests' scripts are one-liners (`head -c N /dev/urandom > F`, `exec wl-copy … < F`),
    /// and a word this misreads names a program that does not exist, which the check reports rather than hides.
    static func commandWords(inShellScript script: String) -> [String] {
        let skipped: Set<String> = [
            "exec", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "in", "case", "esac",
            "!", "{", "}", "read", "echo", "printf", "cd", "exit", "test", "[", "true", "false", "set", "export",
            "trap", "wait", "kill", "sleep", "return", ":", ".", "eval", "shift", "local", "umask", "ulimit", "unset",
            "command", "type", "pwd", "times", "hash", "alias",
        ]
        var words: [String] = []
        var atCommandStart = true
        var current = ""
        var quote: Character?
        func finishWord() {
            defer { current = "" }
            guard !current.isEmpty else { return }
            guard atCommandStart else { return }
            if current.contains("=") && !current.hasPrefix("=") { return }  // FOO=bar stays at the command's start
            if skipped.contains(current) { if current != "exec" && current != "!" { atCommandStart = false }; return }
            if current.hasPrefix(">") || current.hasPrefix("<") || current.first?.isNumber == true { return }
            words.append(current)
            atCommandStart = false
        }
        for character in script {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "'", "\"": quote = character
            case " ", "\t": finishWord()
            case "&" where current.last == ">" || current.last == "<":
                // A redirection's `>&` / `<&` (`2>&1`, `>&-`), not a command separator.
                current.append(character)
            case ";", "|", "&", "\n", "(", ")", "`":
                finishWord()
                atCommandStart = character != ")"
            default: current.append(character)  // `$` too: a word that starts with it is a variable, left out below
            }
        }
        finishWord()
        return words.filter { !$0.hasPrefix("$") }
    }

    /// `name` as `posix_spawnp` would find it: unchanged when it holds a slash, else the first executable
    /// `DIR/name` in `directories`.
    static func resolve(_ name: String, in directories: [String]) -> String {
        guard !name.contains("/") else { return name }
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return name
    }
}
