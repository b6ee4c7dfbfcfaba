// SPDX-License-Identifier: Apache-2.0
// ClipBridge — one type on the clipboard

import UniformTypes
import X11Selection

/// One type on the clipboard: the X target, the content type it means, and whether ClipBridge must convert
/// another offered target to produce it.
public struct ClipboardType: Hashable, Sendable, CustomStringConvertible {
    /// The X target: the owner's own for an offered type; for a converted type, the destination's primary
    /// target (what ClipBridge itself would offer for it).
    public var target: SelectionTarget
    /// The content type the target means (``TargetMapping/contentType(for:)``), never nil: unknown targets
    /// have dynamic types.
    public var contentType: UTType
    /// True when the owner does not offer this type: ClipBridge reads ``sourceTarget`` and converts.
    public var isConverted: Bool { conversion != nil }
    /// The offered target a converted type is made from; nil when not converted.
    public var sourceTarget: SelectionTarget?
    /// How a converted type is made.
    public var conversion: ConversionChain?
    /// True when a read gives the owner's bytes as it wrote them, whatever their encoding: the target was asked
    /// for by its exact name (`paste -t STRING`, ``PasteLadder/Request/target(_:)``), as xclip reads it. False
    /// when the type was chosen for what it means (text, a UTI, a type family): text in a legacy encoding
    /// (STRING's Latin-1, a `charset=` parameter, COMPOUND_TEXT, `TEXT`) is then decoded to UTF-8.
    public var isVerbatim = false

    /// An offered type.
    public init(target: SelectionTarget, contentType: UTType) {
        self.target = target
        self.contentType = contentType
    }

    /// An offered type read as the owner wrote it (``isVerbatim``).
    public static func verbatim(_ target: SelectionTarget) -> ClipboardType {
        var type = ClipboardType(target: target, contentType: TargetMapping.contentType(for: target))
        type.isVerbatim = true
        return type
    }

    /// A type ClipBridge produces by converting `sourceTarget` through `conversion`.
    public init(
        target: SelectionTarget, contentType: UTType, convertedFrom sourceTarget: SelectionTarget,
        through conversion: ConversionChain
    ) {
        self.target = target
        self.contentType = contentType
        self.sourceTarget = sourceTarget
        self.conversion = conversion
    }

    /// Equal when target, type and source agree.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.target == rhs.target && lhs.contentType == rhs.contentType && lhs.sourceTarget == rhs.sourceTarget
            && lhs.isConverted == rhs.isConverted
    }

    /// Hashes target, type and source.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(target)
        hasher.combine(contentType)
        hasher.combine(sourceTarget)
    }

    /// `UTF8_STRING (public.utf8-plain-text)`, or `text/plain;charset=utf-8 (public.utf8-plain-text, converted
    /// from text/html)`.
    public var description: String {
        if let sourceTarget {
            return "\(target) (\(contentType.identifier), converted from \(sourceTarget))"
        }
        return "\(target) (\(contentType.identifier))"
    }
}
