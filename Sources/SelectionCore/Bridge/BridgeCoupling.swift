/// What a bridge consults where two of its sides are not independent — a Wayland compositor that syncs its own
/// XWayland display (`CompositorSync`) — so that the one ``BridgeDriver`` leaves to that link what it already
/// carries. The driver asks it; it decides nothing the ``BridgeMachine`` decides.
package protocol BridgeCoupling: Sendable {
    /// Side `side` is connected (a coupling that knows the backend's kind looks at it).
    func connected(_ endpoint: BridgeEndpoint, side: Int) async
    /// Side `side`'s connection ended.
    func disconnected(side: Int)
    /// What an owner change on `side` means for the bridge; nil: what the backend said.
    func meaning(of change: BridgeEndpoint.Change, on side: Int) async -> OwnerChangeMeaning?
    /// Whether `side`'s offers are read whole before they are offered elsewhere (its owner will not stay to be asked).
    func readsAhead(on side: Int) -> Bool
    /// Owner changes no backend reports that the bridge acts on, in order (a focus leaving X).
    var changes: AsyncStream<(SelectionName, OwnerChangeMeaning, side: Int)> { get }
}
