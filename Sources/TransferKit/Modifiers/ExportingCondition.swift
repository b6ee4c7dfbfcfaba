// SPDX-License-Identifier: Apache-2.0

extension TransferRepresentation {
    /// Exports through this representation only for items that satisfy a condition.
    ///
    /// ```swift
    /// DataRepresentation(contentType: .commaSeparatedText) { archive in
    ///     try archive.toCSV()
    /// } importing: { data in
    ///     try ProfilesArchive(csvData: data)
    /// }
    /// .exportingCondition { archive in archive.supportsCSV }
    /// ```
    ///
    /// The condition is evaluated whenever a value's exporters are resolved, so keep it cheap. It does not
    /// affect importing. Applied several times, every condition must hold.
    ///
    /// - Parameter condition: Returns whether `item` may be exported through this representation.
    public func exportingCondition(
        _ condition: @escaping @Sendable (Self.Item) -> Bool
    ) -> _ConditionalTransferRepresentation<Self> {
        _ConditionalTransferRepresentation(base: self, condition: condition)
    }
}

/// A representation that exports only items satisfying a condition; the result of
/// ``TransferRepresentation/exportingCondition(_:)``.
///
/// Underscored and public as in Apple's framework, where it is the declared return type of
/// `exportingCondition(_:)`.
public struct _ConditionalTransferRepresentation<Base>: TransferRepresentation where Base: TransferRepresentation {
    /// The base representation's item.
    public typealias Item = Base.Item
    /// Read directly; no body.
    public typealias Body = Never

    let base: Base
    let condition: @Sendable (Base.Item) -> Bool
}

extension _ConditionalTransferRepresentation: PrimitiveTransferRepresentation {
    func entries() -> [RepresentationEntry<Item>] {
        RepresentationResolver.entries(of: base).map { entry in
            var entry = entry
            entry.modifiers.conditions.append(condition)
            return entry
        }
    }
}
