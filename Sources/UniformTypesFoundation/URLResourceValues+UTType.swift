// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesFoundation

// `URLResourceValues` exists only in full Foundation (swift-corelibs-foundation), not in
// FoundationEssentials. UniformTypes itself builds on FoundationEssentials so that programs linking it
// (the clipbridge command among them) do not carry all of Foundation and its ICU data, which costs
// milliseconds of start-up in every process; this one Apple extension lives here instead.
@_exported import Foundation
@_exported import UniformTypes

extension URLResourceValues {
    /// The type of the resource, derived from the values that were fetched: ``UTType/folder`` for a
    /// directory, the type of the name's filename extension, ``UTType/symbolicLink`` for a link, and
    /// ``UTType/data`` for another regular file.
    ///
    /// Linux has no `contentTypeKey`; fetch `.nameKey`, `.isDirectoryKey`, `.isRegularFileKey` and
    /// `.isSymbolicLinkKey` for this to be set. `nil` when none of them was fetched.
    public var contentType: UTType? {
        if isDirectory == true { return .folder }
        if isSymbolicLink == true { return .symbolicLink }
        if let name, let ext = FilenameExtensionRule.pathExtension(of: name) {
            return UTType(filenameExtension: ext)
        }
        if isRegularFile == true || name != nil { return .data }
        return nil
    }
}
