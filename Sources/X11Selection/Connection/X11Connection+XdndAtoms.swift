/// The atoms XDND needs, interned once.
struct XdndAtoms: Sendable {
    let aware: X11Atom
    let proxy: X11Atom
    let typeList: X11Atom
    let window: X11Atom
    let selection: X11Atom
    let actionList: X11Atom
    let actionDescription: X11Atom
    let wmState: X11Atom
    let kinds: [X11Atom: XdndMessage.Kind]
    let atomsByKind: [XdndMessage.Kind: X11Atom]
}

extension X11Connection {
    /// The XDND atoms, interned on first use (drop targets and the drag source share them).
    func xdndAtoms() throws(SelectionError) -> XdndAtoms {
        if let known = xdndNames { return known }
        let kinds = XdndMessage.Kind.allCases
        let fixed = [
            "XdndAware", "XdndProxy", "XdndTypeList", "WINDOW", "XdndSelection", "XdndActionList",
            "XdndActionDescription", "WM_STATE",
        ]
        let interned = try atoms(for: fixed + kinds.map(\.rawValue))
        var byAtom: [X11Atom: XdndMessage.Kind] = [:]
        var byKind: [XdndMessage.Kind: X11Atom] = [:]
        for (index, kind) in kinds.enumerated() {
            byAtom[interned[fixed.count + index]] = kind
            byKind[kind] = interned[fixed.count + index]
        }
        let names = XdndAtoms(
            aware: interned[0], proxy: interned[1], typeList: interned[2], window: interned[3],
            selection: interned[4], actionList: interned[5], actionDescription: interned[6], wmState: interned[7],
            kinds: byAtom, atomsByKind: byKind)
        atoms.xdnd = names
        return names
    }
}
