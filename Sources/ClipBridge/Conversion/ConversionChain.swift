// SPDX-License-Identifier: Apache-2.0
// ClipBridge — a sequence of converters

import FoundationEssentials
import UniformTypes

/// Converters applied one after another, from an offered type to a wanted one.
public struct ConversionChain: Sendable, CustomStringConvertible {
    /// The offered type the chain starts from.
    public var source: UTType
    /// The type it produces (the last step's destination).
    public var destination: UTType
    /// The converters, in order of application.
    public var steps: [ContentConverter]
    /// The total cost.
    public var cost: Int { steps.reduce(0) { $0 + $1.cost } }
    /// True when any step is partial.
    public var isPartial: Bool { steps.contains(where: \.isPartial) }

    /// Creates a chain (empty `steps` means no conversion).
    public init(source: UTType, steps: [ContentConverter]) {
        self.source = source
        self.steps = steps
        self.destination = steps.last?.destination ?? source
    }

    /// Applies every step to canonical bytes of ``source``.
    /// - Throws: ``ClipboardError`` `.conversionFailed` naming the step that refused the input.
    public func apply(_ data: Data) throws -> Data {
        var current = data
        for step in steps {
            do {
                current = try step.convert(current)
            } catch let error as ClipboardError {
                throw error
            } catch {
                throw ClipboardError(.conversionFailed, "\(step.name) failed", underlying: error)
            }
        }
        return current
    }

    /// "public.html → public.utf8-plain-text (HTML → plain text)".
    public var description: String {
        "\(source.identifier) → \(destination.identifier) (\(steps.map(\.name).joined(separator: ", ")))"
    }
}
