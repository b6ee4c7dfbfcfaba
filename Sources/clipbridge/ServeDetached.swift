// ClipBridge — the clipbridge command-line tool.
// The hidden subcommand the detached server runs as (see Support/Detach.swift).

import ArgumentParser
import FoundationEssentials
import Glibc

/// `clipbridge serve-detached PLAN`: the detached server started by `copy`. Not for direct use: it
/// expects the status pipe on descriptor 3 and the payloads on 4, 5, ….
struct ServeDetached: AsyncParsableCommand {
    /// The subcommand's name, which `copy` passes to the re-executed binary.
    static let commandName = "serve-detached"

    static let configuration = CommandConfiguration(
        commandName: commandName,
        abstract: "Internal: the background server started by copy.",
        shouldDisplay: false
    )

    @Argument(help: "The copy plan, as JSON.")
    var plan: String

    init() {}

    func run() async throws {
        try await Self.serve(plan: plan)
    }

    /// Serves the plan (JSON): what `run` does, callable without building the command (its
    /// ArgumentParser property wrapper), for the re-executed server's start-up.
    static func serve(plan: String) async throws {
        let status = Detach.statusDescriptor
        Signals.ignoreTerminalSignals()
        // Do not keep the caller's working directory busy (an unmountable USB stick).
        _ = chdir("/")
        guard let data = plan.data(using: .utf8), let plan = try? JSONDecoder().decode(CopyPlan.self, from: data) else {
            Detach.report(.failure(CLIFailure(status: .usage, message: "invalid serve plan")), to: status)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let count = ((plan.representations.map(\.payload) + plan.flavours.map(\.payload)).max() ?? -1) + 1
        let payloads: [SpooledPayload]
        do {
            payloads = try (0..<count).map { try Spool.adopt(descriptor: status + 1 + Int32($0)) }
        } catch {
            Detach.report(.failure(CLIFailure(error, display: plan.display)), to: status)
            throw ExitCode(ExitStatus.ioError.rawValue)
        }
        var exitStatus = ExitStatus.success
        _ = await CopyServer(plan: plan, payloads: payloads).run { result in
            if case .failure(let failure) = result { exitStatus = failure.status }
            Detach.report(result, to: status)
        }
        if exitStatus != .success { throw ExitCode(exitStatus.rawValue) }
    }
}
