import Testing
@testable import X11Selection

/// The rules the connection follows about time, clears and its read properties.
@Suite struct ConnectionRulesTests {
    func time(_ value: UInt) -> X11Timestamp { X11Timestamp(rawValue: value) }

    @Test func theServerClockMovesForwardOnly() {
        var clock = ServerClock()
        #expect(clock.latest == .currentTime)
        clock.note(.currentTime)
        #expect(clock.latest == .currentTime)
        clock.note(time(500))
        // An XFixes notification about another client's older claim arrives after our newer one.
        clock.note(time(400))
        #expect(clock.latest == time(500))
        clock.note(.currentTime)
        clock.note(time(501))
        #expect(clock.latest == time(501))
    }

    @Test func aClearEndsAClaimOnlyWhenItIsNotAnEarlierClaimsOfOurs() {
        #expect(SelectionClearRule.verdict(clearedAt: time(99), claimedAt: time(100)) == .ignore)
        #expect(SelectionClearRule.verdict(clearedAt: time(100), claimedAt: time(100)) == .askServer)
        #expect(SelectionClearRule.verdict(clearedAt: time(101), claimedAt: time(100)) == .lost)
        #expect(SelectionClearRule.verdict(clearedAt: .currentTime, claimedAt: time(100)) == .lost)
        #expect(SelectionClearRule.endsAdoption(clearedAt: time(100), adoptedAt: time(100)))
        #expect(SelectionClearRule.endsAdoption(clearedAt: .currentTime, adoptedAt: time(100)))
        #expect(!SelectionClearRule.endsAdoption(clearedAt: time(99), adoptedAt: time(100)))
    }

    @Test func readPropertiesAreReusedOnlyInRotationAndNeverAfterAnUncleanEnd() {
        var rotation = PropertyRotation()
        #expect(rotation.take() == nil)
        let atoms = (1...UInt(PropertyRotation.rotation + 1)).map { X11Atom(rawValue: $0 + 500) }
        for atom in atoms.dropLast() { rotation.giveBack(atom, clean: true) }
        // As many released as the rotation asks for: still not reused.
        #expect(rotation.take() == nil)
        rotation.giveBack(X11Atom(rawValue: 999), clean: false)
        #expect(rotation.take() == nil)
        rotation.giveBack(atoms.last!, clean: true)
        #expect(rotation.take() == atoms[0])
        for index in 0..<(PropertyRotation.capacity * 2) { rotation.giveBack(X11Atom(rawValue: UInt(2000 + index)), clean: true) }
        var taken = 0
        while rotation.take() != nil { taken += 1 }
        #expect(taken == PropertyRotation.capacity - PropertyRotation.rotation)
    }

    @Test func xfixesSubtypesAreDecodedByTheProtocolsNames() {
        #expect(X11Event.ownerChangeReason(0) == .newOwner)
        #expect(X11Event.ownerChangeReason(1) == .ownerWindowDestroyed)
        #expect(X11Event.ownerChangeReason(2) == .ownerClientClosed)
    }
}
