// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

extension UTType: CustomStringConvertible, CustomDebugStringConvertible {
    /// The identifier, as `print(UTType.png)` shows it on Apple platforms (`public.png`).
    public var description: String { identifier }

    /// The identifier with the facts that matter when debugging: kind, preferred tags and
    /// description, for example `public.png (PNG image; png; image/png)`.
    public var debugDescription: String {
        var facts: [String] = []
        if isDynamic {
            facts.append("dynamic")
        } else if !isDeclared {
            facts.append("undeclared")
        }
        if let localizedDescription { facts.append(localizedDescription) }
        if let preferredFilenameExtension { facts.append(".\(preferredFilenameExtension)") }
        if let preferredMIMEType { facts.append(preferredMIMEType) }
        return facts.isEmpty ? identifier : "\(identifier) (\(facts.joined(separator: "; ")))"
    }
}
