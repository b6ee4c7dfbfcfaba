// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests

import Foundation
import Testing
import UniformTypes

/// Each test declares its own identifiers (the registry is process-wide and tests run in parallel).
@Suite("Declarations in code: exportedAs, importedAs, register")
struct DeclarationTests {
    @Test func exportedTypeWithoutDeclarationWorksButIsUndeclared() throws {
        let task = UTType(exportedAs: "com.example.tests.code.task")
        #expect(task.identifier == "com.example.tests.code.task")
        #expect(!task.isDeclared)
        #expect(!task.isDynamic)
        #expect(!task.isPublic)
        #expect(task.conforms(to: .data))
        #expect(!task.conforms(to: .text))
        #expect(task.tags.isEmpty)
        #expect(UTType("com.example.tests.code.task") == task)
        #expect(UTType("COM.EXAMPLE.TESTS.CODE.TASK")?.identifier == "com.example.tests.code.task")
        #expect(task.debugDescription.contains("undeclared"))
    }

    @Test func exportedTypeConformsToItsParent() {
        let note = UTType(exportedAs: "com.example.tests.code.note", conformingTo: .json)
        #expect(note.conforms(to: .json))
        #expect(note.conforms(to: .text))
        #expect(note.isSubtype(of: .data))
        #expect(note.supertypes.contains(.json))
    }

    @Test func importedTypeWithoutDeclarationWorksButIsUndeclared() {
        let other = UTType(importedAs: "com.example.tests.code.imported", conformingTo: .image)
        #expect(!other.isDeclared)
        #expect(other.conforms(to: .image))
    }

    @Test func exportingASystemIdentifierGivesTheSystemType() {
        let png = UTType(exportedAs: "public.png", conformingTo: .text)
        #expect(png == .png)
        #expect(png.isDeclared)
        #expect(!png.conforms(to: .text))
    }

    @Test func firstInProcessDeclarationWins() {
        let first = UTType(exportedAs: "com.example.tests.code.first", conformingTo: .image)
        let second = UTType(exportedAs: "com.example.tests.code.first", conformingTo: .text)
        #expect(first == second)
        #expect(second.conforms(to: .image))
        #expect(!second.conforms(to: .text))
    }

    @Test func registerDeclaresTheType() throws {
        let declaration = UTTypeDeclaration(
            identifier: "com.example.tests.code.recipe",
            conformsTo: [.json],
            tags: [.filenameExtension: ["cbrecipe", "cbrecipe2"], .mimeType: ["application/x-cb-recipe+json"]],
            description: "Recipe",
            referenceURL: URL(string: "https://example.com/recipe"),
            version: 4
        )
        let recipe = try UTType.register(declaration)
        #expect(recipe.isDeclared)
        #expect(recipe.localizedDescription == "Recipe")
        #expect(recipe.version == 4)
        #expect(recipe.referenceURL == URL(string: "https://example.com/recipe"))
        #expect(recipe.preferredFilenameExtension == "cbrecipe")
        #expect(recipe.preferredMIMEType == "application/x-cb-recipe+json")
        #expect(UTType(filenameExtension: "CBRECIPE2") == recipe)
        #expect(UTType(mimeType: "application/x-cb-recipe+json") == recipe)
        #expect(UTType(mimeType: "application/x-cb-recipe+json", conformingTo: .text) == recipe)
        #expect(recipe.conforms(to: .text))
        #expect(try UTType.register(declaration) == recipe, "registering the same declaration twice is harmless")
    }

    @Test func registerUpgradesAnInProcessExport() throws {
        let sketch = UTType(exportedAs: "com.example.tests.code.sketch")
        #expect(!sketch.isDeclared)
        try UTType.register(UTTypeDeclaration(identifier: "com.example.tests.code.sketch", conformsTo: [.image]))
        #expect(sketch.isDeclared)
        #expect(sketch.conforms(to: .image))
        #expect(UTType(exportedAs: "com.example.tests.code.sketch").isDeclared)
    }

    @Test func exportedDeclarationWinsOverImported() throws {
        let id = "com.example.tests.code.shared"
        try UTType.register(UTTypeDeclaration(identifier: id, kind: .imported, description: "imported"))
        #expect(UTType(id)?.localizedDescription == "imported")
        try UTType.register(UTTypeDeclaration(identifier: id, kind: .exported, description: "exported"))
        #expect(UTType(id)?.localizedDescription == "exported")
        let again = try UTType.register(UTTypeDeclaration(identifier: id, kind: .imported, description: "late"))
        #expect(again.localizedDescription == "exported")
    }

    @Test func conflictingExportsThrow() throws {
        let id = "com.example.tests.code.conflict"
        try UTType.register(UTTypeDeclaration(identifier: id, conformsTo: [.image]))
        let error = try #require(throws: UTTypeDeclarationError.self) {
            try UTType.register(UTTypeDeclaration(identifier: id, conformsTo: [.text]))
        }
        #expect(error.code == .conflictingDeclaration)
        #expect(UTType(id)?.conforms(to: .image) == true)
    }

    @Test func systemTypesCannotBeRedeclared() throws {
        let error = try #require(throws: UTTypeDeclarationError.self) {
            try UTType.register(UTTypeDeclaration(identifier: "public.PNG", conformsTo: [.text]))
        }
        #expect(error.code == .conflictingDeclaration)
        #expect(error.reason.contains("public.png"))
        #expect(!UTType.png.conforms(to: .text))
    }

    @Test(arguments: ["", "has space", "com.example/slash", "trailing.", "dyn.ah62d4rv4ge81k652"])
    func invalidIdentifiersThrow(_ identifier: String) throws {
        let error = try #require(throws: UTTypeDeclarationError.self) {
            try UTType.register(UTTypeDeclaration(identifier: identifier))
        }
        #expect(error.code == .invalidValue)
        #expect(error.key == "identifier")
    }

    @Test func invalidTagsThrow() throws {
        let error = try #require(throws: UTTypeDeclarationError.self) {
            try UTType.register(
                UTTypeDeclaration(identifier: "com.example.tests.code.badtag", tags: [.mimeType: ["nonsense"]])
            )
        }
        #expect(error.code == .invalidValue)
        #expect(UTType("com.example.tests.code.badtag") == nil)
    }

    @Test func allowUndeclaredKeepsTheIdentifier() throws {
        let kept = try #require(UTType(identifier: "org.example.tests.nobody-declares-this", allowUndeclared: true))
        #expect(kept.identifier == "org.example.tests.nobody-declares-this")
        #expect(!kept.isDeclared)
        #expect(!kept.isDynamic)
        #expect(kept.tags.isEmpty)
        #expect(kept.supertypes.isEmpty)
        #expect(UTType(identifier: "org.example.tests.nobody-declares-this", allowUndeclared: false) == nil)
        #expect(UTType("org.example.tests.nobody-declares-this") == nil)
        #expect(UTType(identifier: "not valid!", allowUndeclared: true) == nil)
        #expect(UTType(identifier: "public.png", allowUndeclared: false) == .png)
    }

    @Test func concurrentRegistrationAndLookup() async throws {
        let count = 64
        let types = await withTaskGroup(of: UTType.self, returning: [UTType].self) { group in
            for index in 0..<count {
                group.addTask {
                    let type = UTType(exportedAs: "com.example.tests.concurrent.t\(index)", conformingTo: .json)
                    _ = UTType(mimeType: "text/plain;charset=utf-8")
                    _ = type.supertypes
                    return type
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(types).count == count)
        for index in 0..<count {
            let type = try #require(UTType("com.example.tests.concurrent.t\(index)"))
            #expect(type.conforms(to: .text))
        }
    }
}
