/// The ids a component of `X11Connection` names its own things by — reads and their properties, claims,
/// transfers, waiters, drags, watchers — 1, 2, 3… for the connection's life. Each component counts its own: an
/// id is only ever looked up among its component's things (its maps, its `Deadline` cases).
struct IDCounter {
    private var last: UInt64 = 0

    mutating func next() -> UInt64 {
        last += 1
        return last
    }
}
