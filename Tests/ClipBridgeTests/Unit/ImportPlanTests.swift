// SPDX-License-Identifier: Apache-2.0
// ClipBridgeTests — what a paste, and a drop, of a Transferable type reads: decided once, from the types alone

import Foundation
import Testing
import TransferKit
import UniformTypes
import X11Selection

@testable import ClipBridge

@Suite("Import plans: a paste's and a drop's decision, made once from the offered types")
struct ImportPlanTests {
    private func plan<T: Transferable>(_ type: T.Type, _ all: [SelectionTarget]) -> ImportPlan<T> {
        ImportPlan(T.self, offered: TargetMapping.contentTargets(in: all), all: all, converters: .standard)
    }

    @Test("a String reads the best text the owner offers first, then the others in the owner's order")
    func stringFromText() {
        let plan = plan(String.self, Offers.gtk3)
        #expect(plan.isImportable && !plan.readsItemList && plan.fileList == nil)
        #expect(plan.direct.first?.target == "UTF8_STRING")
        #expect(Set(plan.direct.map(\.target)).isSubset(of: Set(TargetMapping.textTargets)))
    }

    @Test("an HTML-only owner: no direct read, the HTML converter, importable")
    func stringFromHTML() throws {
        let plan = plan(String.self, Offers.htmlOnly)
        #expect(plan.direct.isEmpty && plan.isImportable)
        let conversion = try #require(plan.conversion)
        #expect(conversion.source == "text/html")
    }

    @Test("an image offer is not importable as a URL, and nothing else is planned")
    func refusedOffer() {
        let plan = plan(URL.self, Offers.xclipImage)
        #expect(!plan.isImportable && plan.direct.isEmpty && plan.conversion == nil)
    }

    @Test("a file-backed type plans the file manager's list; an item list is read first")
    func filesAndItemLists() {
        #expect(plan(Video.self, Offers.fileManager).fileList == "x-special/gnome-copied-files")
        #expect(plan(String.self, ["TARGETS", "application/x-clipbridge-items", "UTF8_STRING"]).readsItemList)
        #expect(plan(String.self, ["TARGETS", "application/x-clipbridge-items", "UTF8_STRING"]).offered == ["UTF8_STRING"])
    }

    @Test("a drop destination refuses a drag it cannot import, unless it takes the drag's direct save")
    func dropPlans() throws {
        let firefoxImage = Offers.firefoxImage + [DirectSave.target, DirectSave.dataTarget]
        // URL: the image's direct save (a file URL) when there is a folder for it; the HTML's URL list is not offered.
        let saving = try #require(DropImportPlan(URL.self, offering: firefoxImage, directSaves: true, converters: .standard))
        #expect(saving.savesDirectly)
        let notSaving = DropImportPlan(URL.self, offering: firefoxImage, directSaves: false, converters: .standard)
        #expect(notSaving?.savesDirectly != true)
        // A String from a file manager's drag: its text; a URL from an image-only drag: refused.
        let text = try #require(DropImportPlan(String.self, offering: Offers.fileManager, directSaves: true, converters: .standard))
        #expect(!text.savesDirectly && text.imports.direct.first?.target == "UTF8_STRING")
        #expect(DropImportPlan(URL.self, offering: Offers.xclipImage, directSaves: false, converters: .standard) == nil)
    }

    @Test("an item drop offers each type once, the converted ones after, and refuses drags with nothing wanted")
    func itemDropTypes() throws {
        let types = try #require(ItemDropDestination.providedTypes(offered: Offers.htmlOnly, wanted: [.plainText], converters: .standard))
        #expect(types.first == .html && types.contains(.utf8PlainText))
        #expect(ItemDropDestination.providedTypes(offered: Offers.xclip, wanted: [.image], converters: .standard) == nil)
    }
}
