extension Requestor {
    /// A property atom on our window for one read (`PropertyRotation`).
    func allocateProperty(on connection: isolated X11Connection) throws(SelectionError) -> X11Atom {
        if let reused = properties.take() { return reused }
        return try connection.atom(for: "CLIPBRIDGE_SEL_\(ids.next())")
    }

    /// Returns a property to the rotation after its read ended.
    func recycleProperty(_ property: X11Atom, clean: Bool) {
        properties.giveBack(property, clean: clean)
    }
}
