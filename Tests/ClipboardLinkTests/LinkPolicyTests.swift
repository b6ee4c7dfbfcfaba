import SelectionCore
import Testing
@testable import ClipboardLink

/// The link's pure decisions: what crosses machines, which of two crossing announcements wins, credit, the ssh
/// destination's syntax and quoting, and the far machine's own display.
@Suite struct LinkPolicyTests {
    @Test func fileListsAndTheirCompanionsStayOnTheirMachineEverythingElseCrossesInOrder() {
        let offer: [SelectionTarget] = [
            "x-special/gnome-copied-files", "text/uri-list", "UTF8_STRING", "application/x-kde-cutselection", "image/png",
            "text/html", "FILE_NAME", "application/x-custom",
        ]
        #expect(LinkPolicy.crossing(offer) == ["UTF8_STRING", "image/png", "text/html", "application/x-custom"])
        #expect(LinkPolicy.crossing([]) == [])
    }

    @Test func crossingAnnouncementsAreSettledForTheInitiatorAndOthersAreTaken() {
        // No claim of ours, or one the peer had seen: taken, whoever we are.
        for role in [LinkPolicy.Role.initiator, .responder] {
            #expect(LinkPolicy.acceptsAnnouncement(seen: 0, ourClaim: nil, role: role))
            #expect(LinkPolicy.acceptsAnnouncement(seen: 5, ourClaim: 5, role: role))
            #expect(LinkPolicy.acceptsAnnouncement(seen: 6, ourClaim: 5, role: role))
        }
        // Our claim 6 was not seen when the peer announced: they crossed; the initiator keeps its own.
        #expect(!LinkPolicy.acceptsAnnouncement(seen: 5, ourClaim: 6, role: .initiator))
        #expect(LinkPolicy.acceptsAnnouncement(seen: 5, ourClaim: 6, role: .responder))
    }

    @Test func creditIsGivenBackInStepsAndDataIsSentInWholeItemsWithinCredit() {
        #expect(LinkPolicy.creditToGive(passed: 0) == nil)
        #expect(LinkPolicy.creditToGive(passed: UInt64(LinkLimits.creditStep) - 1) == nil)
        #expect(LinkPolicy.creditToGive(passed: UInt64(LinkLimits.creditStep)) == LinkLimits.creditStep)
        #expect(LinkPolicy.creditToGive(passed: 3 << 20) == 3 << 20)
        #expect(LinkPolicy.sendable(remaining: 10, credit: 100, format: 8) == 10)
        #expect(LinkPolicy.sendable(remaining: 1 << 20, credit: 1 << 30, format: 8) == LinkLimits.maximumDataBytes)
        #expect(LinkPolicy.sendable(remaining: 1000, credit: 7, format: 8) == 7)
        #expect(LinkPolicy.sendable(remaining: 1000, credit: 7, format: 32) == 4)
        #expect(LinkPolicy.sendable(remaining: 1000, credit: 3, format: 32) == 0)
        #expect(LinkPolicy.sendable(remaining: 1000, credit: 0, format: 8) == 0)
        #expect(LinkPolicy.sendable(remaining: 0, credit: 0, format: 8) == 0)
    }

    @Test func aMissingOrUnrunnableFarCommandIsNotRetriedSshFailuresAre() {
        #expect(!LinkPolicy.retries(afterExitStatus: 127))
        #expect(!LinkPolicy.retries(afterExitStatus: 126))
        for status: Int32 in [255, 1, 4, 5, 143] { #expect(LinkPolicy.retries(afterExitStatus: status)) }
    }

    @Test(arguments: [
        ("ssh:devbox", SSHDestination(host: "devbox", display: nil)),
        ("ssh:devbox:", SSHDestination(host: "devbox", display: nil)),
        ("ssh:me@devbox::1", SSHDestination(host: "me@devbox", display: ":1")),
        ("ssh:devbox:wayland-1", SSHDestination(host: "devbox", display: "wayland-1")),
        ("ssh:devbox:wayland:wayland-0", SSHDestination(host: "devbox", display: "wayland:wayland-0")),
        ("ssh:[::1]::0", SSHDestination(host: "::1", display: ":0")),
        ("ssh:me@[fe80::1%eth0]", SSHDestination(host: "me@fe80::1%eth0", display: nil)),
        ("ssh:10.0.0.2:localhost:10.0", SSHDestination(host: "10.0.0.2", display: "localhost:10.0")),
    ])
    func destinationsParse(_ argument: String, _ expected: SSHDestination) throws {
        #expect(try SSHDestination.parse(argument) == expected)
    }

    @Test func argumentsThatAreNotDestinationsOrNameNoHost() throws {
        #expect(try SSHDestination.parse(":0") == nil)
        #expect(try SSHDestination.parse("wayland-1") == nil)
        for bad in ["ssh:", "ssh::0", "ssh:me@", "ssh:me@:0", "ssh:[::1", "ssh:[::1]x", "ssh:-oProxyCommand=evil"] {
            #expect(throws: SSHDestination.Invalid.self, "\(bad)") { _ = try SSHDestination.parse(bad) }
        }
    }

    @Test func theFarCommandLineQuotesEveryWordButTheCommandAsGiven() {
        let destination = SSHDestination(host: "box", display: "wayland:my socket")
        #expect(destination.remoteCommandLine(remoteCommand: "~/bin/clipbridge", options: ["-s", "clipboard", "--timeout", "2.5"])
            == "~/bin/clipbridge bridge --stdio -s clipboard --timeout 2.5 'wayland:my socket'")
        #expect(SSHDestination(host: "box", display: nil).remoteCommandLine(remoteCommand: "clipbridge", options: [])
            == "clipbridge bridge --stdio")
        #expect(SSHDestination.shellQuoted("it's $(rm -rf ~)") == "'it'\\''s $(rm -rf ~)'")
        #expect(SSHDestination.shellQuoted("") == "''")
        #expect(SSHDestination.shellQuoted(":0") == ":0")
    }

    @Test func theFarSessionsDisplayIsTheEnvironmentsThenTheOnlyOneTheUserRuns() {
        func choose(_ display: String? = nil, _ wayland: String? = nil, sockets: [String] = [], x: [String] = []) -> String {
            switch SessionDisplay.choose(.init(display: display, waylandDisplay: wayland, waylandSockets: sockets, xDisplays: x)) {
            case .success(let chosen): chosen
            case .failure(let unchosen): "none: " + unchosen.candidates.joined(separator: " ")
            }
        }
        #expect(choose(":3", "wayland-0", sockets: ["wayland-1"], x: ["0"]) == ":3")
        #expect(choose(nil, "wayland-0", sockets: ["wayland-1"]) == "wayland:wayland-0")
        #expect(choose(sockets: ["wayland-1"], x: ["0"]) == "wayland:wayland-1")
        #expect(choose(x: ["10"]) == ":10")
        #expect(choose(sockets: ["wayland-1", "wayland-0"]) == "none: wayland:wayland-0 wayland:wayland-1")
        #expect(choose(x: ["10", "2"]) == "none: :2 :10")
        #expect(choose() == "none: ")
    }
}
