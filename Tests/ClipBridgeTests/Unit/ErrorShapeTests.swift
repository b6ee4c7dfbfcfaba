// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — every module's error is built the same way: code, message, context, underlying cause

import Foundation
import Testing
import TransferKit
import UniformTypes
import X11Selection

@testable import ClipBridge

@Suite("errors are built one way")
struct ErrorShapeTests {
    struct DiskOnFire: Error, CustomStringConvertible {
        var description: String { "disk on fire" }
    }

    @Test("each module's error keeps its cause, says it after the message, and compares on its code")
    func causes() {
        let selection = SelectionError(.invalidReply, "CLIPBOARD:image/png: the data provider failed",
                                       underlying: DiskOnFire())
        #expect(selection.description == "invalidReply: CLIPBOARD:image/png: the data provider failed: disk on fire")
        #expect(selection.underlying is DiskOnFire)
        #expect(selection == SelectionError(.invalidReply, "another message"))
        #expect(selection != SelectionError(.timedOut, "CLIPBOARD:image/png: the data provider failed"))

        let clipboard = ClipboardError(.importFailed, "Note could not import public.json", underlying: DiskOnFire())
        #expect(clipboard.description == "Note could not import public.json: disk on fire")
        #expect(clipboard.underlying is DiskOnFire)
        #expect(clipboard == ClipboardError(.importFailed, ""))

        let transfer = TransferError(.exportFailed, "Note could not export public.json", underlying: DiskOnFire())
        #expect(transfer.description == "Note could not export public.json: disk on fire")
        #expect(transfer == TransferError(.exportFailed, ""))

        let declaration = UTTypeDeclarationError(
            .unreadableFile, file: URL(fileURLWithPath: "/nowhere/Types.plist"), reason: "cannot read the file",
            underlying: DiskOnFire())
        #expect(declaration.description == "/nowhere/Types.plist: cannot read the file: disk on fire")
        #expect(declaration == UTTypeDeclarationError(.unreadableFile, reason: "elsewhere"))

        #expect(SelectionError(.noOwner, "CLIPBOARD").description == "noOwner: CLIPBOARD")
        #expect(ClipboardError(.invalidItem, "nothing to copy").underlying == nil)
    }

    @Test("a converter that throws its own error fails the chain with that error as the cause")
    func conversionCause() throws {
        let failing = ContentConverter(name: "melt", from: .plainText, to: .html) { _ in throw DiskOnFire() }
        let chain = ConversionChain(source: .plainText, steps: [failing])
        do {
            _ = try chain.apply(Data("x".utf8))
            Issue.record("the chain should fail")
        } catch let error as ClipboardError {
            #expect(error.code == .conversionFailed)
            #expect(error.underlying is DiskOnFire)
            #expect(error.description == "melt failed: disk on fire")
        }
    }

    @Test("a declaration file that cannot be read names the file and keeps the file system's error")
    func declarationCause() throws {
        do {
            _ = try UTType.loadDeclarations(from: URL(fileURLWithPath: "/nonexistent/clipbridge/Types.plist"))
            Issue.record("reading a missing file should fail")
        } catch let error as UTTypeDeclarationError {
            #expect(error.code == .unreadableFile)
            #expect(error.underlying != nil)
            #expect(error.description.hasPrefix("/nonexistent/clipbridge/Types.plist: cannot read the file: "))
        }
    }
}
