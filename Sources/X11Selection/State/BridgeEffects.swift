/// What carries out a ``BridgeMachine``'s actions on the sides it joins — X displays (the X display bridge's
/// `BridgeCoordinator`), or an X display and a compositor (the X ↔ Wayland bridge) — and the one loop that runs them
/// (``perform(_:)``), so that both bridges carry out the machine's decisions in the same order.
package protocol BridgeEffects {
    /// Feeds `event` to the machine; what it decides.
    func decide(_ event: BridgeMachine.Event) -> [BridgeMachine.Action]
    /// Starts reading what `side`'s owner of `selection` offers; the outcome comes back later, as an event.
    func readTargets(_ selection: SelectionName, on side: Int, generation: UInt64)
    /// Claims `selection` on `side` with the source's offer; false when that failed (reported).
    mutating func claim(_ selection: SelectionName, on side: Int, from source: BridgeMachine.Source) async -> Bool
    /// Gives up `selection` on `side`, where the bridge may hold it.
    func release(_ selection: SelectionName, on side: Int) async
    /// Tells the bridge's user.
    func tell(_ event: SelectionBridge.Event)
}

extension BridgeEffects {
    /// Carries out what the machine decides on `event`, in order. A claim's outcome is fed back at once, and what the
    /// machine decides on it goes ahead of the actions still queued: a source's claims are settled before anything
    /// else of the same event is done.
    package mutating func perform(_ event: BridgeMachine.Event) async {
        var queue = decide(event)[...]
        while let action = queue.popFirst() {
            switch action {
            case .readTargets(let selection, let side, let generation):
                readTargets(selection, on: side, generation: generation)
            case .claim(let selection, let sides, let source, let announces):
                var claimed: [Int] = []
                for side in sides where await claim(selection, on: side, from: source) {
                    claimed.append(side)
                }
                queue = decide(.claimsEnded(selection, generation: source.generation, claimed: claimed, announces: announces))
                    + queue
            case .release(let selection, let sides):
                for side in sides { await release(selection, on: side) }
            case .report(let event):
                tell(event)
            }
        }
    }
}
