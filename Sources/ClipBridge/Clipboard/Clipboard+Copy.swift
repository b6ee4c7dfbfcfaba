// SPDX-License-Identifier: Apache-2.0
// ClipBridge — copying (the owner side)

import FoundationEssentials
import TransferKit
import X11Selection

extension Clipboard {
    /// Copies one value: its exported representations in declaration order, `exportingCondition` evaluated
    /// now, each under the X targets the table maps it to, then the targets converters add.
    ///
    /// Representations whose visibility is `.ownProcess`, `.team` or `.group` are never advertised: X11 cannot
    /// tell who asks, so they are kept for `paste` calls from this process only. Files (`FileRepresentation`)
    /// are streamed from disk when requested. An exported custom type that nothing declares logs one warning
    /// per type and process.
    /// - Returns: The lease: its `events` report each content transfer served and the loss of ownership.
    /// - Throws: ``ClipboardError`` `.exportFailed`; `SelectionError` `.ownershipRefused`.
    @discardableResult
    public func copy<T: Transferable>(_ item: T, options: CopyOptions = .init()) async throws -> SelectionLease {
        try await copy([item], options: options)
    }

    /// Copies several values: another ClipBridge app pastes the whole list (private target
    /// `application/x-clipbridge-items`); other apps get the first item's targets, or the items joined where the
    /// format allows it (`text/uri-list`, gnome-copied-files, lines of text).
    @discardableResult
    public func copy<T: Transferable>(_ items: [T], options: CopyOptions = .init()) async throws -> SelectionLease {
        try await claim(try await prepare(items), options: options, isCut: false)
    }

    /// Copies values whose files are to be moved: gnome-copied-files says `cut` and
    /// `application/x-kde-cutselection` is `1`, so file managers move the files on paste.
    @discardableResult
    public func cut<T: Transferable>(_ items: [T], options: CopyOptions = .init()) async throws -> SelectionLease {
        try await claim(try await prepare(items), options: options, isCut: true)
    }

    /// Copies raw items built from bytes, files and providers (what `clipbridge copy` does).
    @discardableResult
    public func copy(_ items: [ClipboardItem], options: CopyOptions = .init()) async throws -> SelectionLease {
        try await claim(try items.map(PreparedItem.init), options: options, isCut: false)
    }

    /// Copies files the way a file manager does: `text/uri-list` (CRLF), gnome-copied-files (`copy` or
    /// `cut`), `application/x-kde-cutselection` when cut, and the paths as text.
    @discardableResult
    public func copyFiles(
        _ files: [URL], cut: Bool = false, options: CopyOptions = .init()
    ) async throws
        -> SelectionLease
    {
        try await claim([try PreparedItem.files(files)], options: options, isCut: cut)
    }

    /// Claims the clipboard with `snapshot` as it was kept — every flavour byte-exact with its property type and format,
    /// in the owner's order (a history entry restored, a keeper's copy) — served while the lease lasts.
    public func claim(_ snapshot: SelectionSnapshot) async throws -> SelectionLease {
        try await connection.claim(selection, offering: snapshot.offer)
    }

    /// Gives up ownership if this process owns the selection through this connection (a no-op otherwise).
    public func clear() async {
        InProcessContent.remove(display: connection.displayName, selection: selection)
        await connection.release(selection)
    }

    /// True while this connection owns the selection.
    public func isOwner() async throws -> Bool {
        guard let owner = try await connection.owner(of: selection) else { return false }
        return owner == ownWindow
    }

    // MARK: - Internals

    func prepare<T: Transferable>(_ items: [T]) async throws -> [PreparedItem] {
        guard !items.isEmpty else { throw ClipboardError(.invalidItem, "nothing to copy: the list is empty") }
        var prepared: [PreparedItem] = []
        for item in items { prepared.append(try await PreparedItem(item, logger: logger)) }
        return prepared
    }

    /// What `items` offer other clients, richest first, and what only this process may paste.
    func offer(
        for items: [PreparedItem], options: CopyOptions, isCut: Bool
    ) async throws -> (offer: SelectionOffer, hidden: [InProcessContent.Representation]) {
        let builder = OfferBuilder(
            converters: configuration.converters, isCut: isCut, widens: options.widensWithConverters)
        let representations = try await builder.build(items)
        let hidden = items[0].representations.compactMap { representation -> InProcessContent.Representation? in
            guard representation.isHidden, let export = representation.export else { return nil }
            return InProcessContent.Representation(contentType: representation.contentType, export: export)
        }
        return (SelectionOffer(representations, isSensitive: options.isSensitive), hidden)
    }

    private func claim(_ items: [PreparedItem], options: CopyOptions, isCut: Bool) async throws -> SelectionLease {
        let (offer, hidden) = try await offer(for: items, options: options, isCut: isCut)
        // Content visible only in-process still takes ownership (other clients see an owner with nothing to
        // paste, as on macOS where the pasteboard changes); content with nothing at all is an error.
        let offersSomething = offer.representations.contains { $0.target != SelectionOffer.passwordManagerHint }
        guard offersSomething || !hidden.isEmpty else {
            throw ClipboardError(.exportFailed, "the content has no representation to offer")
        }
        let lease = try await connection.claim(selection, offering: offer)
        // The claim verified the owner (the server named our window): no need to ask the server again.
        ownWindow = lease.owner
        InProcessContent.register(
            hidden, for: .init(display: connection.displayName, selection: selection, owner: lease.owner))
        return lease
    }
}
