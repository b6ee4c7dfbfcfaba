// SPDX-License-Identifier: Apache-2.0

extension TransferRepresentation {
    /// Suggests a file name (with extension) a receiver may use when it writes the content to disk.
    ///
    /// ```swift
    /// FileRepresentation(exportedContentType: .mpeg4Movie) { video in SentTransferredFile(video.file) }
    ///     .suggestedFileName("My Video.mp4")
    /// ```
    ///
    /// If set several times, the last (outermost) one wins. The name is reported by
    /// ``TransferExporter/suggestedFileName``, ``Transferable/suggestedFilename`` and used by
    /// ``Transferable/export(to:contentType:)``, which keeps only its last path component.
    ///
    /// - Parameter fileName: The suggested name.
    public func suggestedFileName(_ fileName: String) -> some TransferRepresentation<Self.Item> {
        SuggestedFileNameTransferRepresentation(base: self, fileName: { _ in fileName })
    }

    /// Suggests a file name computed from the item; returning nil suggests none.
    ///
    /// ```swift
    /// .suggestedFileName { video in video.title + ".mp4" }
    /// ```
    ///
    /// - Parameter fileName: Computes the suggested name for an item.
    public func suggestedFileName(
        _ fileName: @escaping @Sendable (Self.Item) -> String?
    ) -> some TransferRepresentation<Self.Item> {
        SuggestedFileNameTransferRepresentation(base: self, fileName: fileName)
    }
}

/// The representation returned by ``TransferRepresentation/suggestedFileName(_:)-(String)``.
struct SuggestedFileNameTransferRepresentation<Base: TransferRepresentation>: TransferRepresentation {
    typealias Item = Base.Item
    typealias Body = Never

    let base: Base
    let fileName: @Sendable (Base.Item) -> String?
}

extension SuggestedFileNameTransferRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] {
        RepresentationResolver.entries(of: base).map { entry in
            var entry = entry
            entry.modifiers.fileName = fileName
            return entry
        }
    }
}
