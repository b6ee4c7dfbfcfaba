// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests

import Testing
import UniformTypes

@Suite("Dynamic types: dyn. identifiers for unknown tags")
struct DynamicTypeTests {
    @Test func unknownMIMETypeRoundTrips() throws {
        let foo = try #require(UTType(mimeType: "application/x-foo"))
        #expect(foo.isDynamic)
        #expect(!foo.isDeclared)
        #expect(!foo.isPublic)
        #expect(foo.identifier.hasPrefix("dyn.a"))
        #expect(foo.preferredMIMEType == "application/x-foo")
        #expect(foo.preferredFilenameExtension == nil)
        #expect(foo.tags == [.mimeType: ["application/x-foo"]])
        #expect(foo.localizedDescription == nil)
        #expect(foo.conforms(to: .data))
        #expect(foo.conforms(to: .item))
        #expect(!foo.conforms(to: .text))
        #expect(foo.supertypes == [.data, .item])

        let again = try #require(UTType(foo.identifier))
        #expect(again == foo)
        #expect(again.preferredMIMEType == "application/x-foo")
        #expect(again.conforms(to: .data))
        #expect(UTType(mimeType: "Application/X-Foo") == foo)
        #expect(UTType(mimeType: "application/x-bar") != foo)
    }

    /// Identifiers observed on real Macs (reference §6): our encoding is Apple's.
    @Test(arguments: [
        ("tsx", "dyn.ah62d4rv4ge81k652"),
        ("livp", "dyn.ah62d4rv4ge8024p0sa"),
        ("rproj", "dyn.ah62d4rv4ge81e6dwr7za"),
    ])
    func extensionIdentifiersMatchMacOS(_ ext: String, _ identifier: String) throws {
        let type = try #require(UTType(filenameExtension: ext))
        #expect(type.identifier == identifier)
        #expect(type.isDynamic)
        #expect(type.preferredFilenameExtension == ext)
    }

    @Test func decodesIdentifiersMadeOnMacOS() throws {
        let jfif = try #require(UTType("dyn.ah62d4rv4ge80y3xmq2"))
        #expect(jfif.isDynamic)
        #expect(jfif.preferredFilenameExtension == "jfif")
        #expect(jfif.conforms(to: .data))
        #expect(UTType("DYN.AH62D4RV4GE80Y3XMQ2") == jfif)
    }

    @Test func extensionIsLowerCased() throws {
        let upper = try #require(UTType(filenameExtension: "TSX"))
        #expect(upper.identifier == "dyn.ah62d4rv4ge81k652")
    }

    @Test func dynamicTypeConformsToTheRequestedSupertype() throws {
        let image = try #require(UTType(filenameExtension: "clipbridgeimg", conformingTo: .image))
        #expect(image.isDynamic)
        #expect(image.conforms(to: .image))
        #expect(image.conforms(to: .data))
        #expect(image.preferredFilenameExtension == "clipbridgeimg")
        let roundTrip = try #require(UTType(image.identifier))
        #expect(roundTrip.conforms(to: .image))
        #expect(roundTrip != UTType(filenameExtension: "clipbridgeimg"))
    }

    @Test func noSupertypeMeansNoConformance() throws {
        let bare = try #require(UTType(tag: "application/x-bare", tagClass: .mimeType, conformingTo: nil))
        #expect(bare.isDynamic)
        #expect(bare.supertypes.isEmpty)
        #expect(!bare.conforms(to: .data))
    }

    @Test func otherTagClassesRoundTripButStayOutOfTags() throws {
        let osType = UTTagClass(rawValue: "com.apple.ostype")
        let type = try #require(UTType(tag: "ABCD", tagClass: osType, conformingTo: .data))
        #expect(type.isDynamic)
        #expect(type.tags.isEmpty)
        #expect(UTType(type.identifier) == type)
        #expect(UTType.types(tag: "ABCD", tagClass: osType, conformingTo: nil).count == 1)
    }

    @Test(arguments: ["a:b", "a=b", "back\\slash", "ünïcødé", "x-y.z_1"])
    func escapedCharactersRoundTrip(_ ext: String) throws {
        let type = try #require(UTType(filenameExtension: ext))
        #expect(type.isDynamic)
        let decoded = try #require(UTType(type.identifier))
        #expect(decoded.preferredFilenameExtension == ext.lowercased())
    }

    @Test(arguments: ["dyn.", "dyn.a", "dyn.a!!!", "dyn.aaaa", "dyn.xyz", "dyn.ah62d4rv4ge81k65"])
    func invalidDynamicIdentifiersGiveNil(_ identifier: String) {
        #expect(UTType(identifier) == nil)
    }

    @Test(arguments: ["", "a/b", "."])
    func invalidExtensionsGiveNil(_ ext: String) {
        #expect(UTType(filenameExtension: ext) == nil)
    }

    @Test func mimeTypeWithParametersOfAnUnknownTypeKeepsThem() throws {
        let type = try #require(UTType(mimeType: "application/x-clipbridge-thing; version=2"))
        #expect(type.isDynamic)
        #expect(type.preferredMIMEType == "application/x-clipbridge-thing;version=2")
    }
}
