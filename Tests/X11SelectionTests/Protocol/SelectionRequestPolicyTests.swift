import Foundation
import Testing
@testable import X11Selection

@Suite struct SelectionRequestPolicyTests {
    let target = X11Atom(rawValue: 300)
    let property = X11Atom(rawValue: 301)
    let claimTime = X11Timestamp(rawValue: 1000)
    let table = TargetTable(offer: SelectionOffer([.init(target: "text/html", source: .bytes(Data("x".utf8)))]))

    func decide(
        _ name: SelectionTarget?, property: X11Atom? = nil, time: X11Timestamp = .currentTime,
        holding: SelectionRequestPolicy.Holding? = nil
    ) -> SelectionRequestPolicy.Decision {
        SelectionRequestPolicy.decide(
            target: target, property: property ?? self.property, time: time, targetName: name,
            holding: holding ?? .claim(time: claimTime, table: table))
    }

    @Test func contentAndMetaTargetsAreAnsweredIntoTheRequestersProperty() {
        #expect(decide("text/html") == .answer(.content(0), property: property))
        #expect(decide(.targets) == .answer(.targets, property: property))
        #expect(decide(.timestamp) == .answer(.timestamp, property: property))
        #expect(decide(.multiple) == .answer(.multiple, property: property))
    }

    @Test func obsoleteRequestorsGetTheTargetAsProperty() {
        // ICCCM 2.2: property None names the target atom as the property.
        #expect(decide("text/html", property: X11Atom.none) == .answer(.content(0), property: target))
        // Except MULTIPLE, whose pairs live in the property.
        #expect(decide(.multiple, property: X11Atom.none) == .refuse(.multipleWithoutProperty))
    }

    @Test func requestsStampedBeforeTheClaimAreRefused() {
        #expect(decide("text/html", time: X11Timestamp(rawValue: 999)) == .refuse(.beforeClaim))
        #expect(decide("text/html", time: X11Timestamp(rawValue: 1000)) == .answer(.content(0), property: property))
        #expect(decide("text/html", time: .currentTime) == .answer(.content(0), property: property))
    }

    @Test func whatIsNotOwnedOrNotOfferedIsRefused() {
        #expect(decide("text/html", holding: .nothing) == .refuse(.notOwner))
        #expect(decide(nil) == .refuse(.unknownTarget))
        #expect(decide("image/png") == .refuse(.notOffered))
    }

    @Test func aPreparedClaimWithoutItsOfferHoldsTheRequest() {
        #expect(decide("text/html", holding: .adoptedWithoutOffer) == .hold)
        #expect(decide(nil, holding: .adoptedWithoutOffer) == .hold)
    }
}
