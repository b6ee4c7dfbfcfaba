// ClipBridge — the clipbridge command-line tool.
// `clipbridge type TYPE`: what ClipBridge makes of a type name.

import ArgumentParser
import ClipBridge
import ClipBridgeOptions
import FoundationEssentials
import UniformTypes
import X11Selection

struct TypeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "type",
        abstract: "Resolve a MIME type, UTI, filename extension or X target to its UTType.",
        discussion: """
            Prints the identifier, the conformance chain (most specific first), the MIME types, the \
            filename extensions and the X targets ClipBridge offers for the type. Needs no display.

            EXAMPLES:
              clipbridge type image/png
              clipbridge type public.html
              clipbridge type .php
              clipbridge type UTF8_STRING --json
            """
    )

    @OptionGroup var displayOptions: DisplayOptions

    @Argument(help: "A MIME type, UTI, extension (png or .png) or X target name.")
    var name: String

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    /// The description printed by `type --json`.
    struct Description: Codable, Sendable {
        var identifier: String
        var description: String?
        var dynamic: Bool
        var declared: Bool
        var conformsTo: [String]
        var mimeTypes: [String]
        var filenameExtensions: [String]
        var xTargets: [String]
    }

    func run() async throws {
        let lookup = name.hasPrefix(".") && !name.dropFirst().contains(".") ? String(name.dropFirst()) : name
        guard let resolved = TypeName.resolve(lookup) else {
            throw ValidationError("\(name) is not a MIME type, UTI, filename extension or X target name.")
        }
        let type = resolved.contentType
        // A description in full: every extension and MIME alias the machine knows.
        MIMEDatabase.load()
        let description = Description(
            identifier: type.identifier,
            description: type.localizedDescription,
            dynamic: type.isDynamic,
            declared: type.isDeclared,
            conformsTo: Self.conformanceChain(of: type).map(\.identifier),
            mimeTypes: type.tags[.mimeType] ?? [],
            filenameExtensions: type.tags[.filenameExtension] ?? [],
            xTargets: TargetMapping.targets(for: type).map(\.rawValue)
        )
        do {
            if json {
                try Output.line(String(decoding: try TypeListing.encoder().encode(description), as: UTF8.self))
                return
            }
            let rows: [(String, String)] = [
                ("identifier", description.identifier),
                ("description", description.description ?? "—"),
                ("kind", description.dynamic ? "dynamic" : description.declared ? "declared" : "undeclared"),
                ("conforms to", description.conformsTo.joined(separator: " → ")),
                ("MIME types", description.mimeTypes.joined(separator: ", ")),
                ("extensions", description.filenameExtensions.joined(separator: ", ")),
                ("X targets", description.xTargets.joined(separator: ", ")),
            ]
            for (label, value) in rows { try Output.line("\(label.padding(12))  \(value.isEmpty ? "—" : value)") }
        } catch {
            throw CLIFailure(error, display: nil).exit()
        }
    }

    /// Every supertype, most specific first: a type comes before the types it conforms to (by the
    /// number of supertypes each has, then by identifier for a stable order).
    static func conformanceChain(of type: UTType) -> [UTType] {
        type.supertypes.sorted { a, b in
            let (depthA, depthB) = (a.supertypes.count, b.supertypes.count)
            return depthA != depthB ? depthA > depthB : a.identifier < b.identifier
        }
    }
}
