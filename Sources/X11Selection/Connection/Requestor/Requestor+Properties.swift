extension X11Connection {
    /// A property atom on our window for one read (`PropertyRotation`).
    func allocateProperty() throws(SelectionError) -> X11Atom {
        if let reused = requestor.properties.take() { return reused }
        return try atom(for: "CLIPBRIDGE_SEL_\(nextID())")
    }

    /// Returns a property to the rotation after its read ended.
    func recycleProperty(_ property: X11Atom, clean: Bool) {
        requestor.properties.giveBack(property, clean: clean)
    }

    /// MULTIPLE requests that were unusable and replaced by single reads (read by the MULTIPLE tests).
    var multipleFallbacks: Int { requestor.multipleFallbacks }
    /// MULTIPLE requests sent (diagnostics, for tests).
    var multipleRequests: Int { requestor.multipleRequests }
}
