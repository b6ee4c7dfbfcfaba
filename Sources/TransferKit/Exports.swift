// TransferKit: `Transferable` on Linux, name-for-name with Apple's CoreTransferable.
// SPDX-License-Identifier: Apache-2.0

// Apple's samples write `import CoreTransferable` (or `import SwiftUI`) and then use `UTType`, `URL`,
// `Data`, `FileManager` and `UUID` without importing UniformTypeIdentifiers or Foundation. On Apple
// platforms those modules reach the sample through the framework's own re-exports; re-exporting them
// here lets such code compile on Linux with only its import line changed to `import TransferKit`.
//
// Full Foundation, not just FoundationEssentials: samples use `CGPoint`, `replacingOccurrences(of:with:)`
// and the like. Re-exporting costs programs nothing they do not use: a static link pulls in only the
// Foundation objects that are referenced, and TransferKit's own files import FoundationEssentials only,
// so a program such as clipbridge that uses none of full Foundation's API does not carry it (or ICU).
@_exported import Foundation
@_exported import UniformTypes
