// exportingCondition, visibility (every value, audiences, narrowing) and suggestedFileName.
import Foundation
import Testing
import TransferKit

struct Badge: Hashable, Transferable {
    var name: String
    var isPublic: Bool
    var isColored = false

    static var transferRepresentation: some TransferRepresentation {
        CodableLikeBadge()
            .exportingCondition { $0.isPublic }
        DataRepresentation(exportedContentType: .png) { _ in Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) }
            .exportingCondition { $0.isPublic }
            .exportingCondition { $0.isColored }
        ProxyRepresentation(exporting: \.name)
    }
}

/// A composite representation, so modifiers are also exercised on non-leaf representations.
struct CodableLikeBadge: TransferRepresentation {
    typealias Item = Badge

    var body: some TransferRepresentation<Badge> {
        DataRepresentation(contentType: .testSticker) { Data($0.name.utf8) } importing: {
            Badge(name: String(decoding: $0, as: UTF8.self), isPublic: true)
        }
    }
}

struct Secret: Hashable, Transferable {
    var value: String

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(exportedContentType: .testUnmodified) { Data($0.value.utf8) }
        DataRepresentation(exportedContentType: .testVisibleAll) { Data($0.value.utf8) }
            .visibility(.all)
        DataRepresentation(exportedContentType: .testVisibleTeam) { Data($0.value.utf8) }
            .visibility(.team)
        DataRepresentation(exportedContentType: .testVisibleGroup) { Data($0.value.utf8) }
            .visibility(.group)
        DataRepresentation(exportedContentType: .testVisibleOwn) { Data($0.value.utf8) }
            .visibility(.ownProcess)
        // Narrowing: an outer `.all` does not undo an inner `.ownProcess`; team and group meet in ownProcess.
        DataRepresentation(exportedContentType: .html) { Data($0.value.utf8) }
            .visibility(.ownProcess)
            .visibility(.all)
        DataRepresentation(exportedContentType: .xml) { Data($0.value.utf8) }
            .visibility(.team)
            .visibility(.group)
        // Visibility around a proxy narrows the proxied type's own representations.
        ProxyRepresentation(exporting: \.value)
            .visibility(.team)
    }
}

struct Attachment: Hashable, Transferable {
    var title: String
    var body: String

    static var transferRepresentation: some TransferRepresentation {
        DataRepresentation(exportedContentType: .plainText) { Data($0.body.utf8) }
            .suggestedFileName("first.txt")
            .suggestedFileName("last.txt")
        DataRepresentation(exportedContentType: .html) { Data("<p>\($0.body)</p>".utf8) }
            .suggestedFileName { $0.title.isEmpty ? nil : "\($0.title).html" }
        DataRepresentation(exportedContentType: .json) { _ in Data("{}".utf8) }
            .suggestedFileName("../../etc/escape.json")
        DataRepresentation(exportedContentType: .xml) { _ in Data("<x/>".utf8) }
    }
}

/// Modifiers applied around a proxy act on the outer item, before the conversion.
struct Nickname: Hashable, Transferable {
    var name: String

    static var transferRepresentation: some TransferRepresentation {
        ProxyRepresentation(exporting: \.name)
            .exportingCondition { !$0.name.isEmpty }
            .suggestedFileName { "\($0.name).txt" }
    }
}

@Suite("Modifiers")
struct ModifierTests {
    // MARK: exportingCondition

    @Test func exportingConditionHidesRepresentationsPerValue() async throws {
        let hidden = Badge(name: "b", isPublic: false)
        #expect(ids(hidden.exportedContentTypes()) == ids([.utf8PlainText, .plainText]))
        let shown = Badge(name: "b", isPublic: true)
        #expect(ids(shown.exportedContentTypes()) == ids([.testSticker, .utf8PlainText, .plainText]))
        let error = await #expect(throws: TransferError.self) { _ = try await hidden.exported(as: .testSticker) }
        #expect(error?.code == .noCompatibleRepresentation)
        #expect(ids(error?.availableContentTypes ?? []) == ids([.utf8PlainText, .plainText]))
    }

    @Test func stackedConditionsMustAllHold() {
        #expect(!Badge(name: "b", isPublic: true, isColored: false).exportedContentTypes().contains(.png))
        #expect(!Badge(name: "b", isPublic: false, isColored: true).exportedContentTypes().contains(.png))
        #expect(Badge(name: "b", isPublic: true, isColored: true).exportedContentTypes().contains(.png))
    }

    @Test func typeLevelTypesIgnoreConditionsAndImportIgnoresThem() async throws {
        #expect(ids(Badge.exportedContentTypes()) == ids([.testSticker, .png, .utf8PlainText, .plainText]))
        let imported = try await Badge(importing: Data("star".utf8), contentType: .testSticker)
        #expect(imported == Badge(name: "star", isPublic: true))
    }

    @Test func modifiersAroundAProxyApplyToEveryProxiedType() {
        #expect(Nickname(name: "").exportedContentTypes().isEmpty)
        let exporters = Nickname(name: "Jo").resolvedExporters()
        #expect(ids(exporters.map(\.contentType)) == ids([.utf8PlainText, .plainText]))
        #expect(exporters.map(\.suggestedFileName) == ["Jo.txt", "Jo.txt"])
    }

    // MARK: visibility

    @Test(arguments: [
        (TransferRepresentationVisibility.all, [UTType.testUnmodified, .testVisibleAll]),
        (.team, [.testUnmodified, .testVisibleAll, .testVisibleTeam, .utf8PlainText, .plainText]),
        (.group, [.testUnmodified, .testVisibleAll, .testVisibleGroup]),
        (
            .ownProcess,
            [
                .testUnmodified, .testVisibleAll, .testVisibleTeam, .testVisibleGroup, .testVisibleOwn, .html, .xml,
                .utf8PlainText, .plainText,
            ]
        ),
    ])
    func everyVisibilityAdmitsItsAudience(audience: TransferRepresentationVisibility, expected: [UTType]) {
        #expect(ids(Secret(value: "s").exportedContentTypes(audience)) == ids(expected))
        #expect(ids(Secret.exportedContentTypes(visibility: audience)) == ids(expected))
    }

    @Test func defaultAudienceIsEveryone() {
        #expect(Secret(value: "s").exportedContentTypes() == Secret(value: "s").exportedContentTypes(.all))
        #expect(Secret.exportedContentTypes() == Secret.exportedContentTypes(visibility: .all))
    }

    @Test func nestedVisibilitiesOnlyNarrow() throws {
        let exporters = Secret(value: "s").resolvedExporters(visibility: .ownProcess)
        let byType = Dictionary(uniqueKeysWithValues: exporters.map { ($0.contentType, $0.visibility) })
        #expect(byType[.testUnmodified] == .all)
        #expect(byType[.testVisibleTeam] == .team)
        #expect(byType[.testVisibleGroup] == .group)
        #expect(byType[.html] == .ownProcess)
        #expect(byType[.xml] == .ownProcess)
        #expect(byType[.utf8PlainText] == .team)
    }

    @Test func visibilityValuesAreDistinctAndNamed() {
        let all: [TransferRepresentationVisibility] = [.all, .team, .group, .ownProcess]
        #expect(Set(all).count == 4)
        #expect(all.map(\.description) == ["all", "team", "group", "ownProcess"])
    }

    // MARK: suggestedFileName

    @Test func suggestedFileNameLastOneWinsAndClosuresSeeTheItem() {
        let exporters = Attachment(title: "Notes", body: "b").resolvedExporters()
        #expect(exporters.map(\.suggestedFileName) == ["last.txt", "Notes.html", "../../etc/escape.json", nil])
        #expect(Attachment(title: "", body: "b").resolvedExporters()[1].suggestedFileName == nil)
        #expect(Attachment(title: "Notes", body: "b").suggestedFilename == "last.txt")
        #expect(Secret(value: "s").suggestedFilename == nil)
    }

    @Test func exportToADirectoryUsesTheSuggestedNameSafely() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let attachment = Attachment(title: "Notes", body: "body")
        let text = try await attachment.export(to: directory, contentType: .plainText)
        #expect(text.lastPathComponent == "last.txt")
        #expect(try Data(contentsOf: text) == Data("body".utf8))
        let again = try await attachment.export(to: directory, contentType: .plainText)
        #expect(again.lastPathComponent == "last 2.txt", "an existing file is never overwritten")
        let escaped = try await attachment.export(to: directory, contentType: .json)
        #expect(escaped.lastPathComponent == "escape.json")
        #expect(escaped.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        let unnamed = try await attachment.export(to: directory, contentType: .xml)
        #expect(unnamed.lastPathComponent == "Attachment.xml")
    }
}
