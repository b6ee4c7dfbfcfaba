import ClipBridgeTestSupport
import Foundation
import Testing
@testable import X11Selection

@Suite(.xvfb, .timeLimit(.minutes(2)))
struct CorePathTests {
    @Test func openingAnUnreachableDisplayNamesIt() async throws {
        let error = await #expect(throws: SelectionError.self) {
            _ = try await X11Connection.open(display: ":4711")
        }
        #expect(error?.code == .displayUnavailable)
        #expect(error?.message.contains(":4711") == true)
    }

    @Test func ownAndReadAcrossTwoConnections() async throws {
        let owner = try await openConnection()
        let reader = try await openConnection()
        let selection = uniqueSelection()
        let offer = SelectionOffer([
            .init(target: "text/html", source: .bytes(Data("<b>hi</b>".utf8))),
            .init(target: .utf8String, source: .provider { Data("hi there".utf8) }),
        ])
        let lease = try await owner.claim(selection, offering: offer)
        #expect(try await reader.owner(of: selection) == owner.utilityWindow)

        let targets = try await reader.targets(of: selection)
        #expect(targets == ["text/html", "UTF8_STRING", "TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS",
                            "DELETE", "TARGET_SIZES"])
        let html = try await reader.read(selection, target: "text/html")
        #expect(html.bytes == Data("<b>hi</b>".utf8))
        #expect(html.type == "text/html")
        #expect(html.format == 8)
        let text = try await reader.read(selection, target: .utf8String)
        #expect(text.bytes == Data("hi there".utf8))

        let timestamp = try await reader.read(selection, target: .timestamp)
        #expect(timestamp.type == .integer)
        #expect(timestamp.bytes == withUnsafeBytes(of: UInt32(lease.timestamp.rawValue).littleEndian) { Data($0) })

        let refused = await #expect(throws: SelectionError.self) {
            _ = try await reader.read(selection, target: "image/png")
        }
        #expect(refused?.code == .targetUnavailable)
        #expect(refused?.availableTargets.contains("text/html") == true)

        await owner.shutdown()
        await reader.shutdown()
    }

    @Test func readingAnUnownedSelectionSaysNoOwner() async throws {
        let reader = try await openConnection()
        let error = await #expect(throws: SelectionError.self) {
            _ = try await reader.read(uniqueSelection(), target: .utf8String)
        }
        #expect(error?.code == .noOwner)
        await reader.shutdown()
    }
}
