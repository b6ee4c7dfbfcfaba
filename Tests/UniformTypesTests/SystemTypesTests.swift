// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests

import Testing
import UniformTypes

@Suite("System types: every static constant against the reference table")
struct SystemTypesTests {
    @Test func tableHasEveryReferenceRowOnce() {
        #expect(systemTypeFacts.count == 141)
        #expect(Set(systemTypeFacts.map(\.identifier)).count == 141)
        #expect(Set(systemTypeFacts.map(\.type)).count == 141)
    }

    @Test(arguments: systemTypeFacts)
    func constantHasReferenceIdentifier(_ fact: SystemTypeFact) {
        #expect(fact.type.identifier == fact.identifier)
        #expect(fact.type.description == fact.identifier)
    }

    @Test(arguments: systemTypeFacts)
    func constantIsDeclaredAndFoundByIdentifier(_ fact: SystemTypeFact) throws {
        let type = fact.type
        #expect(type.isDeclared)
        #expect(!type.isDynamic)
        #expect(type.isPublic == fact.identifier.hasPrefix("public."))
        #expect(UTType(fact.identifier) == type)
        #expect(UTType(fact.identifier.uppercased()) == type)
        #expect(try #require(UTType(fact.identifier.uppercased())).identifier == fact.identifier)
        #expect(type.localizedDescription?.isEmpty == false)
    }

    @Test(arguments: systemTypeFacts)
    func constantConformsToEveryReferenceParent(_ fact: SystemTypeFact) throws {
        let type = fact.type
        for parent in fact.declaredParents + fact.plistParents {
            let parentType = try #require(UTType(identifier: parent, allowUndeclared: true))
            #expect(type.conforms(to: parentType), "\(fact.identifier) should conform to \(parent)")
            #expect(type.isSubtype(of: parentType))
            #expect(parentType.isSupertype(of: type))
            #expect(type.supertypes.contains(parentType))
            #expect(!parentType.conforms(to: type), "\(parent) must not conform back to \(fact.identifier)")
        }
        #expect(type.conforms(to: type))
        #expect(!type.supertypes.contains(type))
    }

    @Test(arguments: systemTypeFacts)
    func constantHasReferenceTags(_ fact: SystemTypeFact) {
        let type = fact.type
        #expect(type.tags[.filenameExtension] ?? [] == fact.extensions)
        #expect(type.tags[.mimeType] ?? [] == fact.mimeTypes)
        #expect(type.preferredFilenameExtension == fact.extensions.first)
        #expect(type.preferredMIMEType == fact.mimeTypes.first)
    }

    @Test(arguments: systemTypeFacts)
    func everyTagFindsItsType(_ fact: SystemTypeFact) {
        for ext in fact.extensions {
            #expect(UTType.types(tag: ext, tagClass: .filenameExtension, conformingTo: nil).contains(fact.type))
            let found = UTType(filenameExtension: ext.uppercased(), conformingTo: fact.type)
            #expect(found?.conforms(to: fact.type) == true)
        }
        for mime in fact.mimeTypes {
            #expect(UTType.types(tag: mime, tagClass: .mimeType, conformingTo: nil).contains(fact.type))
            #expect(UTType(mimeType: mime, conformingTo: fact.type) == fact.type)
        }
    }

    @Test func hierarchySamples() {
        #expect(UTType.png.conforms(to: .image))
        #expect(UTType.png.conforms(to: .data))
        #expect(UTType.png.conforms(to: .item))
        #expect(!UTType.png.conforms(to: .text))
        #expect(UTType.jpeg.supertypes == [.image, .data, .item, .content])
        #expect(UTType.utf8PlainText.conforms(to: .text))
        #expect(UTType.fileURL.conforms(to: .url))
        #expect(UTType.zip.conforms(to: .archive))
        #expect(UTType.zip.conforms(to: .data))
        #expect(UTType.zip.supertypes.contains(UTType("com.pkware.zip-archive")!))
        #expect(UTType.mpeg4Audio.conforms(to: .audio))
        #expect(UTType.commaSeparatedText.conforms(to: .plainText))
        #expect(UTType.svg.conforms(to: .xml))
        #expect(UTType.javaScript.conforms(to: .script))
        #expect(UTType.heic.conforms(to: .image))
        #expect(UTType.applicationBundle.conforms(to: .directory))
        #expect(UTType.markdown.conforms(to: .utf8PlainText))
        #expect(!UTType.image.conforms(to: .png))
        #expect(!UTType.png.isSubtype(of: .png))
        #expect(!UTType.png.isSupertype(of: .png))
        #expect(UTType.image.isSupertype(of: .png))
        #expect(!UTType.png.isSupertype(of: .image))
    }

    @Test func preferredTagsOfSharedExtensions() {
        // Table order and preferred-tag rank decide between types sharing a tag.
        #expect(UTType(filenameExtension: "mp4") == .mpeg4Movie)
        #expect(UTType(filenameExtension: "mp4", conformingTo: .audio) == .mpeg4Audio)
        #expect(UTType(filenameExtension: "plist") == .propertyList)
        #expect(UTType(filenameExtension: "plist", conformingTo: .xml) == .xmlPropertyList)
        #expect(UTType(filenameExtension: "zip") == .zip)
        #expect(UTType(filenameExtension: "m4a") == UTType("com.apple.m4a-audio"))
        #expect(UTType(filenameExtension: "jpg") == .jpeg)
        #expect(UTType(filenameExtension: "JPEG") == .jpeg)
        #expect(UTType(filenameExtension: "txt") == .plainText)
        #expect(UTType(filenameExtension: "htm") == .html)
        #expect(UTType(filenameExtension: "h") == .cHeader)
        #expect(UTType(filenameExtension: ".png") == .png)
    }

    @Test func supportingSystemTypesExist() throws {
        let m4v = try #require(UTType("com.apple.m4v-video"))
        #expect(m4v.conforms(to: .mpeg4Movie))
        #expect(m4v.preferredMIMEType == "video/x-m4v")
        #expect(UTType.appleProtectedMPEG4Video.conforms(to: .movie))
        #expect(UTType(filenameExtension: "flac")?.identifier == "org.xiph.flac")
        #expect(UTType(filenameExtension: "ttf")?.conforms(to: .font) == true)
        #expect(UTType.heif.conforms(to: UTType("public.heif-standard")!))
    }
}
