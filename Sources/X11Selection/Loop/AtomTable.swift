/// Per-connection cache between atom names and atoms, so each name costs at most one round trip
/// (interning) and each atom at most one (XGetAtomNames) for the life of the connection; with the well-known
/// atoms interned when it opened, and the XDND ones once a drag or a drop target needed them.
struct AtomTable {
    private var atomsByName: [String: X11Atom] = [:]
    private var namesByAtom: [X11Atom: String] = [:]
    /// The atoms every connection needs (`X11Connection.start`).
    var wellKnown = WellKnownAtoms()
    /// The XDND atoms once interned (`X11Connection.xdndAtoms()`), shared by the drop targets and the drag source.
    var xdnd: XdndAtoms?

    func cachedAtom(_ name: String) -> X11Atom? { atomsByName[name] }

    func cachedName(_ atom: X11Atom) -> String? { namesByAtom[atom] }

    mutating func record(_ name: String, _ atom: X11Atom) {
        guard !atom.isNone else { return }
        atomsByName[name] = atom
        namesByAtom[atom] = name
    }

    /// Names missing from the cache, deduplicated, in first-seen order.
    func missingNames(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { atomsByName[$0] == nil && seen.insert($0).inserted }
    }

    /// Atoms missing from the cache, deduplicated, in first-seen order.
    func missingAtoms(_ atoms: [X11Atom]) -> [X11Atom] {
        var seen = Set<X11Atom>()
        return atoms.filter { !$0.isNone && namesByAtom[$0] == nil && seen.insert($0).inserted }
    }
}
