import SelectionCore

extension KeptFacts {
    /// The facts of a snapshot the engine took.
    init(_ snapshot: SelectionSnapshot) {
        self.init(flavours: snapshot.flavours.count, bytes: snapshot.byteCount, omitted: snapshot.omissions.map(\.target),
                  isSensitive: snapshot.isSensitive, ownerLeft: snapshot.ownerLeft, isCut: snapshot.isCut)
    }
}
