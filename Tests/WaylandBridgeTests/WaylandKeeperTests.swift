// SelectionCore's keeper over a Wayland compositor (sway headless): the same `KeeperDriver` the X daemon runs, with
// `WaylandSelectionBackend` beneath it — a copy outlives the client that made it, with every flavour.

import ClipBridgeTestSupport
import Foundation
import Synchronization
import Testing
@testable import SelectionCore
@testable import WaylandBridge
import WaylandSelection

@Suite("The keeper on Wayland: a copy outlives its client", .serialized, .timeLimit(.minutes(3)))
struct WaylandKeeperTests {
    final class Reports: Sendable {
        private let list = Mutex<[KeeperReport<Int>]>([])
        func add(_ report: KeeperReport<Int>) { list.withLock { $0.append(report) } }
        var all: [KeeperReport<Int>] { list.withLock { $0 } }
    }

    /// An application's copy: a connection of its own offering `flavours`, answering every request until closed.
    final class Application: Sendable {
        let connection: WaylandConnection
        let task: Task<Void, Never>

        init(display: String, flavours: [(String, Data)]) async throws {
            connection = try await WaylandConnection.open(display: display)
            let connection = connection
            task = Task {
                for await event in connection.events {
                    guard case .sendRequested(let request) = event else { continue }
                    Task {
                        defer { request.finish() }
                        if let bytes = flavours.first(where: { $0.0 == request.mimeType })?.1 { try? await request.write(bytes) }
                    }
                }
            }
            _ = try await connection.offer(flavours.map(\.0), as: .clipboard)
        }

        /// The client exits: its connection closes, and the compositor empties the selection.
        func exit() {
            connection.close()
            task.cancel()
        }
    }

    @Test("every flavour of a copy is kept, and served again in its order once the client exits; a secret is not",
          arguments: SwayServer.Build.allCases)
    func aCopyOutlivesItsClient(_ build: SwayServer.Build) async throws {
        try await SwayServer.with(build, xwayland: false) { sway in
            let wayland = sway.waylandEnvironment
            let keeping = try await WaylandConnection.open(display: sway.waylandDisplay)
            defer { keeping.close() }
            let backend = WaylandSelectionBackend(keeping)
            let reports = Reports()
            // Past 1 MiB a flavour is spooled to a private file, which goes with the last reference to it.
            let spool = URL(fileURLWithPath: try makeRuntimeDirectory("clipbridge-wayland-spool"))
            defer { try? FileManager.default.removeItem(at: spool) }
            var limits = SnapshotLimits()
            limits.spoolDirectory = spool
            let keeper = Task { [limits] in
                try await KeeperDriver(backend: backend, selection: .clipboard, limits: limits).run(manager: nil, reports.add)
            }
            func spooled() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? [] }
            defer { keeper.cancel() }
            #expect(try await eventually { backend.watching })

            let big = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) })
            let flavours: [(String, Data)] = [
                ("application/x-clipbridge-test", big), ("text/html", Data("<b>kept</b> on Wayland".utf8)),
                ("text/plain;charset=utf-8", Data("kept on Wayland ✓".utf8)),
            ]
            let application = try await Application(display: sway.waylandDisplay, flavours: flavours)
            #expect(try await eventually(timeout: .seconds(20)) {
                reports.all.contains(.kept(.clipboard, flavours: 3, bytes: flavours.reduce(0) { $0 + $1.1.count }, omitted: []))
            }, "\(reports.all)")
            #expect(spooled().count == 1, "\(spooled())")
            application.exit()
            #expect(try await eventually(timeout: .seconds(20)) { reports.all.contains(.restored(.clipboard, flavours: 3)) },
                    "\(reports.all)")
            let types = try await runPeer(["wl-paste", "--list-types"], display: nil, environment: wayland)
            #expect(types.stdoutText == flavours.map { $0.0 + "\n" }.joined(), "\(types)")
            for (type, bytes) in flavours {
                let pasted = try await runPeer(["wl-paste", "--no-newline", "--type", type], display: nil, environment: wayland,
                                               timeout: .seconds(30))
                let same = pasted.stdout == bytes
                #expect(pasted.succeeded && same, "\(type): \(pasted.stdout.count) bytes of \(bytes.count)")
            }

            // A password manager's copy: nothing read, nothing restored.
            let secret = try await Application(display: sway.waylandDisplay, flavours: [
                ("text/plain;charset=utf-8", Data("hunter2".utf8)), ("x-kde-passwordManagerHint", Data("secret".utf8)),
            ])
            #expect(try await eventually(timeout: .seconds(20)) { reports.all.contains(.skippedSensitive(.clipboard)) },
                    "\(reports.all)")
            secret.exit()
            #expect(try await eventually(timeout: .seconds(20)) { reports.all.last == .lostWithOwner(.clipboard) }, "\(reports.all)")
            #expect(try await keeping.types(of: .clipboard).isEmpty)
            // Nothing refers to the first copy any more: its file is gone.
            #expect(try await eventually { spooled().isEmpty }, "\(spooled())")
        }
    }
}
