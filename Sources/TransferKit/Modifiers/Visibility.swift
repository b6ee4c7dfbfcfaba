// SPDX-License-Identifier: Apache-2.0

extension TransferRepresentation {
    /// Restricts which processes may see this representation.
    ///
    /// ```swift
    /// CodableRepresentation(contentType: .profile)
    ///     .visibility(.ownProcess)            // only this app sees the full profile
    /// ProxyRepresentation(exporting: \.name)  // everyone else gets the name
    /// ```
    ///
    /// Visibilities only narrow: applying `.all` around a representation that is already `.ownProcess`
    /// leaves it `.ownProcess`. See ``TransferRepresentationVisibility`` for what each value means on
    /// Linux.
    ///
    /// - Parameter visibility: Who may see the representation.
    public func visibility(_ visibility: TransferRepresentationVisibility) -> some TransferRepresentation<Self.Item> {
        VisibilityTransferRepresentation(base: self, visibility: visibility)
    }
}

/// The representation returned by ``TransferRepresentation/visibility(_:)``.
struct VisibilityTransferRepresentation<Base: TransferRepresentation>: TransferRepresentation {
    typealias Item = Base.Item
    typealias Body = Never

    let base: Base
    let visibility: TransferRepresentationVisibility
}

extension VisibilityTransferRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] {
        RepresentationResolver.entries(of: base).map { entry in
            var entry = entry
            entry.modifiers.visibility = entry.modifiers.visibility.narrowed(by: visibility)
            return entry
        }
    }
}
