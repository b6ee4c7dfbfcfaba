// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests

import Foundation
import Testing
import UniformTypes

@Suite("Codable, descriptions, tag classes")
struct CodableTests {
    @Test func roundTripsThroughJSON() throws {
        let dynamic = try #require(UTType(mimeType: "application/x-codable-test"))
        let custom = UTType(exportedAs: "com.example.tests.codable", conformingTo: .json)
        let types: [UTType] = [.png, .utf8PlainText, dynamic, custom]
        let data = try JSONEncoder().encode(types)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\"public.png\""))
        let decoded = try JSONDecoder().decode([UTType].self, from: data)
        #expect(decoded == types)
        #expect(decoded[2].preferredMIMEType == "application/x-codable-test")
        #expect(decoded[3].conforms(to: .json))
    }

    @Test func roundTripsThroughPropertyLists() throws {
        struct Box: Codable, Equatable { var type: UTType; var tagClass: UTTagClass }
        let box = Box(type: .pdf, tagClass: .mimeType)
        let data = try PropertyListEncoder().encode(box)
        #expect(try PropertyListDecoder().decode(Box.self, from: data) == box)
    }

    @Test func undeclaredIdentifiersSurviveDecoding() throws {
        let data = Data("[\"org.example.tests.unknown-remote-type\"]".utf8)
        let decoded = try JSONDecoder().decode([UTType].self, from: data)
        #expect(decoded[0].identifier == "org.example.tests.unknown-remote-type")
        #expect(!decoded[0].isDeclared)
        #expect(!decoded[0].isDynamic)
    }

    @Test func invalidIdentifiersFailToDecode() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([UTType].self, from: Data("[\"not valid!\"]".utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([UTType].self, from: Data("[42]".utf8))
        }
    }

    @Test func tagClassValues() throws {
        #expect(UTTagClass.filenameExtension.rawValue == "public.filename-extension")
        #expect(UTTagClass.mimeType.rawValue == "public.mime-type")
        #expect(UTTagClass(rawValue: "public.mime-type") == .mimeType)
        #expect(UTTagClass.mimeType.description == "public.mime-type")
        let data = try JSONEncoder().encode([UTTagClass.mimeType])
        #expect(String(data: data, encoding: .utf8) == "[\"public.mime-type\"]")
    }

    @Test func descriptions() throws {
        #expect(UTType.png.description == "public.png")
        #expect("\(UTType.png)" == "public.png")
        #expect(UTType.png.debugDescription == "public.png (PNG image; .png; image/png)")
        let dynamic = try #require(UTType(mimeType: "application/x-debug"))
        #expect(dynamic.debugDescription.contains("dynamic"))
        #expect(dynamic.debugDescription.contains("application/x-debug"))
    }

    @Test func equalityAndHashingIgnoreCase() throws {
        let shouted = try #require(UTType("PUBLIC.PNG"))
        #expect(shouted == .png)
        #expect(shouted.identifier == "public.png")
        let loose = try #require(UTType(identifier: "Org.Example.Tests.Case", allowUndeclared: true))
        let strict = try #require(UTType(identifier: "org.example.tests.case", allowUndeclared: true))
        #expect(loose == strict)
        #expect(Set([loose, strict]).count == 1)
        #expect([UTType.png: 1][shouted] == 1)
    }
}
