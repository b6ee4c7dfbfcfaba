// The no-hang promises of `clipbridge copy` (users-and-pains §B.1-1, scenario B-1): the command returns at
// once, even inside $(…), and the server it leaves behind survives the shell, SIGHUP and job control.

import ClipBridgeTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
import X11Selection

/// True when `signal` is in a /proc status signal mask (hex).
private func maskContains(_ mask: String?, _ signal: Int32) -> Bool {
    guard let mask, let value = UInt64(mask, radix: 16) else { return false }
    return value & (1 << UInt64(signal - 1)) != 0
}

@Suite("clipbridge copy detaches", .serialized, .xvfb, .timeLimit(.minutes(2)))
struct DetachTests {
    @Test("x=$(echo hi | clipbridge copy) returns at once, and the text is pasteable afterwards")
    func commandSubstitution() async throws {
        let display = try CLI.server().display
        let script = "x=$(echo hi | '\(CLI.binary)' copy); echo \"[$x] $?\""
        let result = try await runPeer(["sh", "-c", script], display: display, timeout: .seconds(5))
        #expect(result.stdoutText == "[] 0\n", "\(result)")
        #expect(result.duration < .seconds(3))
        #expect(try await Xclip.paste(display).stdoutText == "hi\n")
    }

    @Test("a caller's closed standard stream (0<&-, >&-, 2>&-) costs the copy nothing: its files never take 0-2")
    func closedStandardStreams() async throws {
        let display = try CLI.server().display
        for (stream, redirect) in [("stdin", "0<&-"), ("stdout", ">&-"), ("stderr", "2>&-")] {
            let script = "'\(CLI.binary)' copy 'closed \(stream)' \(redirect); echo $?"
            let result = try await runPeer(["sh", "-c", script], display: display, timeout: .seconds(5))
            #expect(result.stdoutText == "0\n", "\(stream): \(result)")
            #expect(try await Xclip.paste(display).stdoutText == "closed \(stream)")
        }
    }

    @Test("descriptors leaked by the caller do not reach the server (a $(…) pipe on fd 7)")
    func leakedDescriptors() async throws {
        let display = try CLI.server().display
        let script = "x=$(echo leak | '\(CLI.binary)' copy 7>&1 >/dev/null 2>&1); echo done"
        let result = try await runPeer(["sh", "-c", script], display: display, timeout: .seconds(5))
        #expect(result.stdoutText == "done\n", "\(result)")
        #expect(try await Xclip.paste(display).stdoutText == "leak\n")
    }

    @Test("the server runs in its own session, on /dev/null, in /, ignoring SIGHUP and job-control stops")
    func serverState() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "detached"], display: display).succeeded)
        let pid = try #require(await newestDetachedServer(display: display))
        // `copy` returns once the selection is claimed, without waiting for the forked server to leave the
        // caller's session and streams (ForkedServer: no handshake), so the server is looked at once it has
        // settled: its chdir("/") comes last, after setsid and the redirections. Under a loaded parallel run
        // the fds were once still the test's capture files when `copy` had returned.
        let settled = try await eventually(timeout: .seconds(5)) {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) == "/"
        }
        #expect(settled, "the server never moved to /")
        let fields = statFields(pid)
        #expect(fields.count > 4 && fields[3] == String(pid), "session leader: \(fields)")  // session == pid
        #expect(fields.count > 4 && fields[4] == "0", "no controlling terminal: \(fields)")
        for fd in 0...2 {
            let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")
            #expect(target == "/dev/null", "fd \(fd) → \(target)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd") == "/")
        let ignored = procStatus(pid, "SigIgn")
        #expect(maskContains(ignored, SIGHUP) && maskContains(ignored, SIGTSTP), "SigIgn \(ignored ?? "?")")
        #expect(procStatus(pid, "SigBlk") == "0000000000000000")
    }

    @Test("by default copy forks (bare and with options): the server is the copy process itself, no re-exec")
    func forkedServer() async throws {
        let display = try CLI.server().display
        for (arguments, stdin) in [(["copy"], "bare"), (["copy", "-t", "text/html", "<b>parsed</b>"], "")] {
            let copy = try await CLI.run(arguments, display: display, stdin: .data(Data(stdin.utf8)))
            #expect(copy.succeeded, "\(copy)")
            let pid = try #require(await newestDetachedServer(display: display))
            let command = (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data())
                .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            #expect(Array(command.dropFirst()) == arguments, "\(command)")
        }
        #expect(try await Xclip.paste(display, target: "text/html").stdoutText == "<b>parsed</b>")
    }

    @Test("CLIPBRIDGE_DETACH=exec starts the server as a new process (serve-detached) that behaves the same")
    func reexecutedServer() async throws {
        let display = try CLI.server().display
        let copy = try await CLI.run(["copy"], display: display, stdin: .data(Data("re-executed".utf8)),
                                     environment: ["CLIPBRIDGE_DETACH": "exec"])
        #expect(copy.succeeded, "\(copy)")
        let pid = try #require(await newestDetachedServer(display: display))
        let arguments = (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data())
            .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(arguments.count >= 2 && arguments[1] == "serve-detached", "\(arguments)")
        let fields = statFields(pid)
        #expect(fields.count > 4 && fields[3] == String(pid), "session leader: \(fields)")
        #expect(try await Xclip.paste(display).stdoutText == "re-executed")
        #expect(try await CLI.run(["copy", "replacement"], display: display).succeeded)
        #expect(try await eventually { !detachedServers(display: display).contains(pid) })
    }

    @Test("the server survives its shell's exit and SIGHUP, and a SIGTSTP, and still serves")
    func survivesHangup() async throws {
        let display = try CLI.server().display
        // A login-shell-like process group that copies and then is hung up, as when a terminal closes.
        let script = "echo survivor | '\(CLI.binary)' copy; kill -HUP 0"
        _ = try? await runPeer(["setsid", "--wait", "sh", "-c", script], display: display, timeout: .seconds(5))
        #expect(try await Xclip.paste(display).stdoutText == "survivor\n")
        let pid = try #require(await newestDetachedServer(display: display))
        kill(pid, SIGHUP)
        kill(pid, SIGTSTP)
        #expect(try await Xclip.paste(display).stdoutText == "survivor\n")
        #expect(statFields(pid).first != "T")
        kill(pid, SIGTERM)
        #expect(try await eventually { !detachedServers(display: display).contains(pid) })
        // SIGTERM releases cleanly: nothing is owned afterwards.
        #expect(try await CLI.run(["paste"], display: display).exitCode == 1)
    }

    @Test("a new copy replaces the old server, which exits")
    func replaced() async throws {
        let display = try CLI.server().display
        #expect(try await CLI.run(["copy", "first"], display: display).succeeded)
        let first = try #require(await newestDetachedServer(display: display))
        #expect(try await CLI.run(["copy", "second"], display: display).succeeded)
        #expect(try await eventually { !detachedServers(display: display).contains(first) })
        #expect(try await Xclip.paste(display).stdoutText == "second")
    }

    @Test("a server that loses the selection mid-INCR still finishes the transfer (ICCCM 2.2)")
    func finishesTransferAfterLoss() async throws {
        let display = try CLI.server().display
        // Above Xvfb's 16 MiB BIG-REQUESTS limit, so the paste is incremental and streamed from the spool.
        let size = 24 << 20
        #expect(try await CLI.run(["copy"], display: display, input: String(repeating: "x", count: size)).succeeded)
        let server = try #require(await newestDetachedServer(display: display))
        var configuration = Configuration()
        configuration.incrementalIdleTimeout = .seconds(2)
        let reader = try await X11Connection.open(display: display, configuration: configuration)
        let thief = try await X11Connection.open(display: display)
        let stolen = Mutex(false)
        let summary = try await reader.read(.clipboard, target: .utf8String) { _ in
            guard !stolen.withLock({ $0 }) else { return }
            stolen.withLock { $0 = true }
            // Another client takes the selection while the first chunks are still on their way.
            _ = try await thief.claim(.clipboard, offering: SelectionOffer([]))
            try await Task.sleep(for: .milliseconds(300))
        }
        await reader.shutdown()
        await thief.shutdown()
        #expect(summary.byteCount == size)
        #expect(try await eventually { !detachedServers(display: display).contains(server) })
    }
}
