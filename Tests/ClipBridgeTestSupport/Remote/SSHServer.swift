// ClipBridge test support: OpenSSH's sshd on loopback, as the far machine of a link.

import Foundation
import Glibc

/// OpenSSH's `sshd`, started by the test as its own process on a free loopback port, with a host key, a user key and
/// an authorized-keys file it makes in a private folder; clients reach it as ``host`` through ``sshCommand``
/// (`ssh -F CONFIG`, a config of its own: that key, no host-key prompt, no agent, no X11 forwarding). Stopped by its
/// pid; ``dropConnections()`` kills the per-connection processes it forked, as a network that drops them would.
public final class SSHServer: Sendable {
    /// The name the client config gives the server.
    public var host: String { Self.hostAlias }
    static let hostAlias = "clipbridge-test-machine"
    public let port: Int
    /// The private folder: keys, configs.
    public let folder: String
    /// The client's config file.
    public let clientConfig: String
    private let child: ChildProcess
    private let logFile: CaptureFile

    /// `ssh -F CONFIG`: what `--ssh-command` is given.
    public var sshCommand: String { "ssh -F \(clientConfig)" }

    /// What sshd logged (`-e`: to its standard error).
    public var log: String { String(decoding: logFile.contents(), as: UTF8.self) }

    private init(port: Int, folder: String, clientConfig: String, child: ChildProcess, log: CaptureFile) {
        self.port = port
        self.folder = folder
        self.clientConfig = clientConfig
        self.child = child
        logFile = log
    }

    /// Starts sshd and waits until a login through ``sshCommand`` runs a command.
    /// - Throws: `CommandError` when sshd or ssh-keygen is missing, or the server does not let the client in.
    public static func start(timeout: Duration = .seconds(20)) async throws -> SSHServer {
        let sshd = "/usr/sbin/sshd"
        guard access(sshd, X_OK) == 0 else {
            throw CommandError(kind: .notFound, arguments: [sshd], detail: "OpenSSH's server is not installed (openssh-server)")
        }
        let folder = NSTemporaryDirectory() + "clipbridge-sshd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for key in ["host_key", "user_key"] {
            let made = try await runPeer(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "clipbridge test", "-f", "\(folder)/\(key)"],
                                         display: nil, timeout: .seconds(20))
            guard made.succeeded else { throw CommandError(kind: .notReady, arguments: made.arguments, detail: made.stderrText) }
        }
        try FileManager.default.copyItem(atPath: "\(folder)/user_key.pub", toPath: "\(folder)/authorized_keys")
        // sshd run as root wants its privilege-separation folder (Debian's is /run/sshd, made by the service normally).
        if getuid() == 0 { try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }
        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        var lastFailure = ""
        for _ in 0..<5 {
            let port = freePort()
            let serverConfig = """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(folder)/host_key
                AuthorizedKeysFile \(folder)/authorized_keys
                StrictModes no
                PubkeyAuthentication yes
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                UsePAM no
                PermitRootLogin prohibit-password
                AllowUsers \(user)
                X11Forwarding no
                AllowTcpForwarding no
                PrintMotd no
                PrintLastLog no
                UseDNS no
                PidFile none
                MaxStartups 100:30:200
                MaxSessions 50
                LogLevel INFO

                """
            try serverConfig.write(toFile: "\(folder)/sshd_config", atomically: true, encoding: .utf8)
            let clientConfig = """
                Host \(hostAlias)
                  HostName 127.0.0.1
                  Port \(port)
                  User \(user)
                  IdentityFile \(folder)/user_key
                  IdentitiesOnly yes
                  IdentityAgent none
                  BatchMode yes
                  StrictHostKeyChecking no
                  UserKnownHostsFile /dev/null
                  GlobalKnownHostsFile /dev/null
                  ForwardX11 no
                  ConnectTimeout 10
                  LogLevel ERROR

                """
            try clientConfig.write(toFile: "\(folder)/ssh_config", atomically: true, encoding: .utf8)
            let log = try CaptureFile()
            let child = try ChildProcess.spawn(
                [sshd, "-D", "-e", "-f", "\(folder)/sshd_config"], environment: ProcessInfo.processInfo.environment,
                redirections: [.init(source: log.descriptor, target: 1), .init(source: log.descriptor, target: 2)])
            let server = SSHServer(port: port, folder: folder, clientConfig: "\(folder)/ssh_config", child: child, log: log)
            // Listening once the log says so; in then once a command runs through the client's config.
            let listening = await eventually(timeout: timeout) { server.log.contains("Server listening") || child.poll() != nil }
            if listening, child.poll() == nil {
                let login = try await runPeer(["ssh", "-F", server.clientConfig, server.host, "echo", "in"], display: nil, timeout: timeout)
                if login.succeeded, login.stdoutText == "in\n" { return server }
                lastFailure = "ssh: \(login.stderrText)"
            } else {
                lastFailure = server.log
            }
            _ = await child.terminate(grace: .seconds(2))
        }
        throw CommandError(kind: .notReady, arguments: [sshd], detail: "sshd did not let the test in: \(lastFailure)")
    }

    /// A loopback TCP port nobody listens on now (bound and released; sshd is given another on the rare clash).
    private static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The processes under sshd, by pid: per connection a monitor, the session process that holds the network
    /// connection, and the commands run in it.
    public var connectionProcesses: [Int32] {
        func children(of pid: Int32) -> [Int32] {
            let listed = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            return listed.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        var found: [Int32] = []
        var pending = children(of: child.pid)
        while let pid = pending.popLast() {
            found.append(pid)
            pending += children(of: pid)
        }
        return found
    }

    /// Kills every connection's processes (SIGKILL): the clients see their connection drop, as when a network goes,
    /// and the commands run through it end.
    public func dropConnections() {
        for pid in connectionProcesses { Glibc.kill(pid, SIGKILL) }
    }

    /// Stops sshd (its connections with it) and removes the folder.
    public func stop() async {
        dropConnections()
        _ = await child.terminate(grace: .seconds(3))
        try? FileManager.default.removeItem(atPath: folder)
    }
}
