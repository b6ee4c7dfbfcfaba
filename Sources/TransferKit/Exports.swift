// TransferKit: `Transferable` on Linux, name-for-name with Apple's CoreTransferable.
// SPDX-License-Identifier: Apache-2.0

// Apple's samples write `import CoreTransferable` (or `import SwiftUI`) and then use `UTType`, `URL`,
// `Data`, `FileManager` and `UUID` without importing UniformTypeIdentifiers or Foundation. On Apple
// platforms those modules reach the sample through the framework's own re-exports; re-exporting them
// here lets such code compile on Linux with only its import line changed to `import TransferKit`.
@_exported import Foundation
@_exported import UniformTypes
