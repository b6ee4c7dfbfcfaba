extension SelectionSnapshot {
    /// The flavours as an offer to claim the selection with, in the owner's order.
    public var offer: SelectionOffer {
        SelectionOffer(flavours.map { flavour in
            let source: SelectionOffer.DataSource
            switch flavour.content {
            case .bytes(let data): source = .bytes(data)
            case .file(let url): source = .file(url)
            case .opened(let file): source = .openedFile(file)
            }
            return SelectionOffer.Representation(
                target: flavour.target, type: flavour.type, format: flavour.format, source: source)
        })
    }
}
