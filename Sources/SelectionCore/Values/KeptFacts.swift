/// What the orchestrators (keeper, sync) decide on about a snapshot they took, without its bytes: the one
/// place that says whether kept content may be served.
package struct KeptFacts: Sendable, Equatable {
    /// The flavours kept.
    package var flavours: Int
    /// Their bytes in all.
    package var bytes: Int
    /// The targets offered but not kept.
    package var omitted: [SelectionTarget]
    /// The offer carried the password managers' hint: nothing was read.
    package var isSensitive: Bool
    /// The owner went away while it was read: only part was kept.
    package var ownerLeft: Bool
    /// A file manager's cut (a paste moves the files): only its owner may serve it.
    package var isCut: Bool

    package init(flavours: Int, bytes: Int = 0, omitted: [SelectionTarget] = [], isSensitive: Bool = false,
         ownerLeft: Bool = false, isCut: Bool = false) {
        self.flavours = flavours
        self.bytes = bytes
        self.omitted = omitted
        self.isSensitive = isSensitive
        self.ownerLeft = ownerLeft
        self.isCut = isCut
    }

    /// Why this content is never served in the owner's stead — marked sensitive (KeePassXC's
    /// `x-kde-passwordManagerHint`: nothing was read), or nothing kept — or nil when it may be.
    package var refusal: String? {
        if isSensitive { return "the content is marked sensitive" }
        if flavours == 0 { return "nothing could be read" }
        return nil
    }
}
