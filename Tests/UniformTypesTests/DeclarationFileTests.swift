// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests

import Foundation
import Testing
import UniformTypes

@Suite("Declarations from Info.plist-format files (XML plist, JSON)")
struct DeclarationFileTests {
    @Test func loadsAnXMLInfoPlist() throws {
        let types = try UTType.loadDeclarations(from: Fixtures.declarations("good-Info.plist"))
        #expect(types.map(\.identifier) == [
            "com.example.fixture.todo", "com.example.fixture.sketch", "com.competitor.fixture.document",
        ])
        let todo = types[0]
        #expect(todo.isDeclared)
        #expect(!todo.isDynamic)
        #expect(todo.localizedDescription == "Fixture to-do item")
        #expect(todo.conforms(to: .json))
        #expect(todo.conforms(to: .text))
        #expect(todo.tags[.filenameExtension] == ["fxtodo", "fxtodos"])
        #expect(todo.tags[.mimeType] == ["application/x-fixture-todo+json"])
        #expect(todo.tags.count == 2, "com.apple.ostype is dropped from tags")
        #expect(todo.referenceURL == URL(string: "https://example.com/fixture/todo"))
        #expect(todo.version == 3)
        #expect(UTType(filenameExtension: "fxtodos") == todo)
        #expect(UTType(mimeType: "application/x-fixture-todo+json") == todo)
        #expect(UTType("com.example.fixture.todo") == todo)

        let sketch = types[1]
        #expect(sketch.conforms(to: .image))
        #expect(sketch.preferredFilenameExtension == "fxsketch")
        #expect(sketch.preferredMIMEType == nil)

        let competitor = types[2]
        #expect(competitor.isDeclared)
        #expect(competitor.conforms(to: .compositeContent))
        #expect(competitor.conforms(to: .data))
        #expect(UTType(filenameExtension: "cfxdoc") == competitor)

        // Loading the same file again is harmless.
        #expect(try UTType.loadDeclarations(from: Fixtures.declarations("good-Info.plist")) == types)
    }

    @Test func loadsJSONDeclarations() throws {
        let types = try UTType.loadDeclarations(from: Fixtures.declarations("good-declarations.json"))
        #expect(types.count == 2)
        let recipe = types[0]
        let card = types[1]
        #expect(recipe.version == 2)
        #expect(recipe.preferredMIMEType == "application/x-fixture-recipe")
        #expect(recipe.conforms(to: .content))
        #expect(card.conforms(to: recipe))
        #expect(card.conforms(to: .data))
        #expect(card.isSubtype(of: recipe))
        #expect(UTType(filenameExtension: "fxcard") == card)
    }

    @Test func readsDeclarationsWithoutRegistering() throws {
        let declarations = try UTTypeDeclaration.declarations(contentsOf: Fixtures.declarations("good-Info.plist"))
        #expect(declarations.map(\.kind) == [.exported, .exported, .imported])
        #expect(declarations[0].tags[UTTagClass(rawValue: "com.apple.ostype")] == ["FXTD"])
        #expect(declarations[2].conformsTo == [.data, .compositeContent])
    }

    /// (file, code, key path, words the reason must contain)
    static let badFiles: [(String, UTTypeDeclarationError.Code, String?, String)] = [
        ("bad-missing-identifier.plist", .missingKey, "UTExportedTypeDeclarations[1].UTTypeIdentifier", "missing"),
        ("bad-conforms-to-number.json", .invalidValue, "UTImportedTypeDeclarations[0].UTTypeConformsTo[1]", "string"),
        (
            "bad-mime-type.plist", .invalidValue,
            "UTExportedTypeDeclarations[0].UTTypeTagSpecification.public.mime-type[1]", "not a MIME type"
        ),
        ("bad-identifier.json", .invalidValue, "UTExportedTypeDeclarations[0].UTTypeIdentifier", "not a valid"),
        (
            "bad-redeclares-system-type.plist", .conflictingDeclaration,
            "UTExportedTypeDeclarations[1].UTTypeIdentifier", "system type"
        ),
        ("bad-not-a-property-list.txt", .malformedFile, nil, "property list"),
        ("bad-truncated.json", .malformedFile, nil, "JSON"),
        ("bad-root-is-array.json", .invalidValue, "(root)", "dictionary"),
        ("bad-no-declarations.plist", .missingKey, "UTExportedTypeDeclarations", "neither"),
        ("bad-version.json", .invalidValue, "UTExportedTypeDeclarations[0].UTTypeVersion", "integer"),
        ("bad-reference-url.json", .invalidValue, "UTExportedTypeDeclarations[1].UTTypeReferenceURL", "URL"),
        ("bad-declarations-not-array.plist", .invalidValue, "UTImportedTypeDeclarations", "array"),
        ("does-not-exist.plist", .unreadableFile, nil, "read"),
    ]

    @Test(arguments: badFiles)
    func badFileNamesFileKeyAndReason(
        _ name: String,
        _ code: UTTypeDeclarationError.Code,
        _ key: String?,
        _ reasonWords: String
    ) throws {
        let file = Fixtures.declarations(name)
        let error = try #require(throws: UTTypeDeclarationError.self) {
            try UTType.loadDeclarations(from: file)
        }
        #expect(error.code == code)
        #expect(error.file == file)
        #expect(error.key == key)
        #expect(error.reason.localizedCaseInsensitiveContains(reasonWords), "reason: \(error.reason)")
        #expect(error.description.contains(name))
        if let key { #expect(error.description.contains(key)) }
    }

    @Test func aFailingFileRegistersNothing() throws {
        #expect(throws: UTTypeDeclarationError.self) {
            try UTType.loadDeclarations(from: Fixtures.declarations("bad-redeclares-system-type.plist"))
        }
        #expect(UTType("com.example.fixture.not-registered") == nil)
        #expect(throws: UTTypeDeclarationError.self) {
            try UTType.loadDeclarations(from: Fixtures.declarations("bad-reference-url.json"))
        }
        #expect(UTType("com.example.fixture.ok") == nil)
        #expect(!UTType.png.conforms(to: .text))
    }
}
