// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests

import Testing
import UniformTypes

@Suite("MIME lookup: case, parameters, aliases")
struct MIMELookupTests {
    /// Spellings seen on real X11 clipboards (GTK, Qt, Firefox, Chromium, LibreOffice) and in HTTP.
    static let resolutions: [(String, UTType)] = [
        ("text/plain", .plainText),
        ("TEXT/PLAIN", .plainText),
        ("text/plain;charset=utf-8", .utf8PlainText),
        ("text/plain; charset=UTF-8", .utf8PlainText),
        ("text/plain;charset=\"utf-8\"", .utf8PlainText),
        ("Text/Plain ; Charset = \"UTF-8\"", .utf8PlainText),
        ("text/plain;charset=utf8", .utf8PlainText),
        ("text/plain;charset=utf-16", .utf16PlainText),
        ("text/plain; charset=UTF-16", .utf16PlainText),
        ("text/plain;charset=\"utf-16\"", .utf16PlainText),
        ("text/plain;charset=us-ascii", .plainText),
        ("text/plain; charset=utf-8; format=flowed", .utf8PlainText),
        ("text/plain;format=flowed", .plainText),
        ("text/html", .html),
        ("text/html; charset=utf-8", .html),
        ("image/png", .png),
        ("IMAGE/PNG", .png),
        ("image/x-png", .png),
        ("image/jpeg", .jpeg),
        ("image/jpg", .jpeg),
        ("image/pjpeg", .jpeg),
        ("image/gif", .gif),
        ("image/bmp", .bmp),
        ("image/x-ms-bmp", .bmp),
        ("image/svg+xml", .svg),
        ("image/tiff", .tiff),
        ("image/webp", .webP),
        ("application/pdf", .pdf),
        ("application/x-pdf", .pdf),
        ("application/json", .json),
        ("text/json", .json),
        ("application/xml", .xml),
        ("text/xml", .xml),
        ("text/javascript", .javaScript),
        ("application/javascript", .javaScript),
        ("application/x-javascript", .javaScript),
        ("text/rtf", .rtf),
        ("application/rtf", .rtf),
        ("text/csv", .commaSeparatedText),
        ("text/comma-separated-values", .commaSeparatedText),
        ("text/tab-separated-values", .tabSeparatedText),
        ("text/css", .css),
        ("text/vcard", .vCard),
        ("text/x-vcard", .vCard),
        ("audio/mpeg", .mp3),
        ("audio/mp3", .mp3),
        ("audio/x-wav", .wav),
        ("audio/mp4", .mpeg4Audio),
        ("video/mp4", .mpeg4Movie),
        ("video/quicktime", .quickTimeMovie),
        ("application/zip", .zip),
        ("application/x-zip-compressed", .zip),
        ("application/gzip", .gzip),
        ("application/x-tar", .tarArchive),
        ("application/octet-stream", .data),
        ("application/x-yaml", .yaml),
        ("text/yaml", .yaml),
        ("text/markdown", .markdown),
        ("text/x-python-script", .pythonScript),
        ("text/x-python", .pythonScript),
    ]

    @Test(arguments: resolutions)
    func resolves(_ mime: String, _ expected: UTType) throws {
        let type = try #require(UTType(mimeType: mime))
        #expect(type == expected, "\(mime) gave \(type.debugDescription)")
        #expect(!type.isDynamic)
    }

    @Test func aliasesAreLookupOnly() {
        // Aliases resolve but never become the preferred MIME type Apple reports.
        #expect(UTType(mimeType: "image/x-png")?.preferredMIMEType == "image/png")
        #expect(UTType(mimeType: "application/x-javascript")?.preferredMIMEType == "text/javascript")
        #expect(UTType.markdown.tags.isEmpty)
        #expect(UTType.xml.preferredMIMEType == "application/xml")
        #expect(UTType.utf8PlainText.preferredMIMEType == "text/plain;charset=utf-8")
    }

    @Test func textInAnUndeclaredCharsetKeepsTheCharset() throws {
        let latin1 = try #require(UTType(mimeType: "text/plain; charset=ISO-8859-1"))
        #expect(latin1.isDynamic)
        #expect(latin1.conforms(to: .plainText))
        #expect(latin1 != .plainText)
        #expect(latin1.preferredMIMEType == "text/plain;charset=iso-8859-1")
        #expect(UTType(latin1.identifier) == latin1)
        #expect(UTType(mimeType: "text/plain;charset=iso-8859-1") == latin1)
        // A supertype the implied parent does not satisfy wins.
        let asImage = try #require(UTType(mimeType: "text/plain;charset=koi8-r", conformingTo: .image))
        #expect(asImage.conforms(to: .image))
        #expect(!asImage.conforms(to: .plainText))
    }

    @Test func directoriesNeedANonDataSupertype() {
        // public.folder is an item, not data, so the default `conformingTo: .data` filters it out.
        #expect(UTType(mimeType: "inode/directory", conformingTo: .directory) == .folder)
        #expect(UTType(mimeType: "inode/directory", conformingTo: .item) == .folder)
        #expect(UTType(mimeType: "inode/directory")?.isDynamic == true)
    }

    @Test func conformingToFiltersCandidates() {
        #expect(UTType(mimeType: "text/plain", conformingTo: .text) == .plainText)
        let notImage = UTType(mimeType: "text/plain", conformingTo: .image)
        #expect(notImage?.isDynamic == true)
        #expect(notImage?.conforms(to: .image) == true)
        #expect(UTType(tag: "image/png", tagClass: .mimeType, conformingTo: nil) == .png)
    }

    @Test(arguments: [
        "", "   ", "textplain", "text/", "/plain", "text/plain/extra", "text/plain;charset", "te xt/plain",
    ])
    func malformedMIMETypesGiveNil(_ mime: String) {
        #expect(UTType(mimeType: mime) == nil)
        #expect(UTType.types(tag: mime, tagClass: .mimeType, conformingTo: nil).isEmpty)
    }

    @Test func typesListsEveryCarrier() {
        let zips = UTType.types(tag: "application/zip", tagClass: .mimeType, conformingTo: nil)
        #expect(zips.first == .zip)
        #expect(zips.contains(UTType("com.pkware.zip-archive")!))
        let mp4 = UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: nil)
        #expect(mp4.first == .mpeg4Movie)
        #expect(mp4.contains(.mpeg4Audio))
        #expect(UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: .audio) == [.mpeg4Audio])
    }
}
