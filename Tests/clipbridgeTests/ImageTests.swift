// Images across formats with real peers: ClipBridge offers a copied image in every format apps ask for
// (converted on request), converts on paste from any image owner, reads GTK's and Qt's image offers, and
// fails cleanly on bad images. Pixels are compared (decoded by ImageMagick), not bytes, wherever a side
// re-encodes.
//
// Toolkit decoders on Debian 12 without extra plugins: GTK 4 (gdk-pixbuf) reads PNG, JPEG, TIFF and BMP,
// not WebP; Qt 5 reads PNG, JPEG and BMP, not TIFF or WebP (qt5-image-formats-plugins). WebP is checked
// with ImageMagick instead.

import ClipBridgeTestSupport
import Foundation
import Testing

@Suite("clipbridge images", .serialized, .xvfb, .timeLimit(.minutes(3)))
struct ImageTests {
    /// A smooth test card: lossy formats stay close to it.
    static func card(_ format: String, alpha: Bool = false) async throws -> Data {
        var arguments = ["-size", "160x120", "gradient:#ff4020-#2040ff", "(", "-size", "120x160", "gradient:#000000-#ffffff",
                         "-rotate", "90", ")", "-compose", "blend", "-define", "compose:args=30", "-composite"]
        if alpha { arguments += ["-alpha", "set", "-channel", "A", "-fx", "0.25+0.75*i/w", "+channel"] }
        return try await Pixels.make(arguments + ["-quality", "92", "\(format):-"])
    }

    static let offeredFormats = ["image/png", "image/tiff", "image/webp", "image/bmp"]

    @Test("a JPEG copied with copy --file is offered as itself, then PNG, TIFF, WebP and BMP, each with its pixels")
    func copiedJPEGIsOfferedInEveryFormat() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let jpeg = try await Self.card("jpeg")
        let file = try scratch.file("shot.jpg", jpeg)
        #expect(try await CLI.run(["copy", "--file", file.path], display: display).succeeded)
        let targets = try await Xclip.targets(display).contentTargets
        #expect(Array(targets.prefix(5)) == ["image/jpeg"] + Self.offeredFormats, "\(targets)")
        #expect(try await Xclip.paste(display, target: "image/jpeg").stdout == jpeg)
        let reference = try await Pixels.decode(jpeg)
        for target in Self.offeredFormats {
            let bytes = try await Xclip.paste(display, target: target).stdout
            let pixels = try await Pixels.decode(bytes)
            if target == "image/webp" {
                #expect(pixels.meanDifference(reference) < 3, "\(target)")
            } else {
                #expect(pixels.difference(reference) <= 2, "\(target): off by \(pixels.difference(reference))")
            }
        }
    }

    @Test("GTK 4 and Qt 5 paste a JPEG and a PNG with alpha that ClipBridge copied")
    func toolkitsPasteCopiedImages() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        for (name, image) in [("card.jpg", try await Self.card("jpeg")), ("card.png", try await Self.card("png32", alpha: true))] {
            let file = try scratch.file(name, image)
            #expect(try await CLI.run(["copy", "--file", file.path], display: display).succeeded)
            let reference = try await Pixels.decode(image)
            let gtk = try await ToolkitPeer(.gtk4, display: display).run(["--read-texture"])
            #expect(gtk.succeeded, "\(gtk)")
            #expect(try await Pixels.decode(gtk.stdout).difference(reference) <= 2, "GTK 4, \(name)")
            let qt = try await ToolkitPeer(.qt5, display: display).run(["--read-image"])
            #expect(qt.succeeded, "\(qt)")
            #expect(try Pixels.fromQt(qt.stdout).difference(reference) <= 2, "Qt 5, \(name)")
        }
    }

    /// Each format ClipBridge makes, served alone (by xclip) to the toolkits that decode it.
    @Test("GTK 4 and Qt 5 read each format ClipBridge converts a copied JPEG and PNG to")
    func toolkitsReadEveryConvertedFormat() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let readers: [String: [ToolkitPeer.Toolkit]] = [
            "image/png": [.gtk4, .qt5], "image/jpeg": [.gtk4, .qt5], "image/bmp": [.gtk4, .qt5], "image/tiff": [.gtk4],
        ]
        for (name, image) in [("card.jpg", try await Self.card("jpeg")), ("card.png", try await Self.card("png32", alpha: true))] {
            let file = try scratch.file(name, image)
            #expect(try await CLI.run(["copy", "--file", file.path], display: display).succeeded)
            var converted: [(String, Data)] = []
            for target in readers.keys.sorted() {
                converted.append((target, try await Xclip.paste(display, target: target).stdout))
            }
            for (target, bytes) in converted where !bytes.isEmpty {
                let reference = try await Pixels.decode(bytes)
                let owner = try await Xclip.own(display, bytes, target: target)
                for toolkit in readers[target]! {
                    let peer = ToolkitPeer(toolkit, display: display)
                    let result = try await peer.run([toolkit == .gtk4 ? "--read-texture" : "--read-image"])
                    #expect(result.succeeded, "\(toolkit) reading \(target) converted from \(name): \(result)")
                    guard result.succeeded else { continue }
                    let pixels = toolkit == .gtk4 ? try await Pixels.decode(result.stdout) : try Pixels.fromQt(result.stdout)
                    #expect(pixels.difference(reference) <= 2, "\(toolkit), \(target) from \(name)")
                }
                await owner.stop()
            }
            #expect(converted.allSatisfy { !$0.1.isEmpty || $0.0 == "image/jpeg" && name == "card.jpg" })
        }
    }

    @Test("paste -t converts from a JPEG-, BMP-, TIFF-, WebP- or GIF-only owner; -o picks the format by name")
    func pasteConverts() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let sources = [("image/jpeg", "jpeg"), ("image/bmp", "bmp3"), ("image/tiff", "tiff"), ("image/webp", "webp"), ("image/gif", "gif")]
        for (target, coder) in sources {
            let image = try await Self.card(coder)
            let reference = try await Pixels.decode(image)
            let owner = try await Xclip.own(display, image, target: target)
            let list = try await CLI.run(["paste", "--list-types"], display: display)
            #expect(list.stdoutText.contains("public.png  (converted from \(target))"), "\(list.stdoutText)")
            for wanted in ["image/png", "png", "image/jpeg", "image/bmp", "image/tiff", "image/webp"] where wanted != target {
                let paste = try await CLI.run(["paste", "-t", wanted], display: display)
                #expect(paste.succeeded, "\(target) → \(wanted): \(paste)")
                let pixels = try await Pixels.decode(paste.stdout)
                // Lossy encodings within a mean of 3 levels (8 for the GIF's dithering noise).
                let lossy = wanted == "image/jpeg" || wanted == "image/webp"
                let bound = target == "image/gif" ? 8.0 : 3.0
                #expect(lossy ? pixels.meanDifference(reference) < bound : pixels.difference(reference) <= 1, "\(target) → \(wanted)")
            }
            let output = scratch.url.appendingPathComponent("out.png")
            #expect(try await CLI.run(["paste", "-o", output.path], display: display).succeeded)
            #expect(try Data(contentsOf: output).prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            // The original stays byte-exact.
            #expect(try await CLI.run(["paste", "-t", target], display: display).stdout == image)
            await owner.stop()
        }
    }

    @Test("ClipBridge reads GTK 4's and Qt 5's image offers into every format")
    func readsToolkitOffers() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let png = try await Self.card("png32", alpha: true)
        let file = try scratch.file("card.png", png)
        let reference = try await Pixels.decode(png)
        for toolkit in ToolkitPeer.Toolkit.allCases {
            let peer = try PeerCommand(
                ToolkitPeer(toolkit, display: display).commandLine(
                    [toolkit == .gtk4 ? "--set-texture" : "--set-image", file.path], timeout: .seconds(60)),
                display: display
            ).start()
            try await peer.waitForOutput("READY\n", timeout: .seconds(20))
            let offered = try await Xclip.targets(display)
            for wanted in ["image/png", "image/tiff", "image/bmp", "image/webp", "image/jpeg"] {
                let paste = try await CLI.run(["paste", "-t", wanted], display: display)
                #expect(paste.succeeded, "\(toolkit) → \(wanted): \(paste)")
                if offered.contains(wanted) {
                    // The toolkit's own encoding (GTK's and Qt's BMP and JPEG drop alpha): passed through as is.
                    #expect(paste.stdout == (try await Xclip.paste(display, target: wanted).stdout), "\(toolkit) → \(wanted)")
                    continue
                }
                // Converted by ClipBridge from the toolkit's PNG: alpha kept.
                let pixels = try await Pixels.decode(paste.stdout)
                if wanted == "image/webp" {
                    #expect(pixels.meanDifference(reference) < 3, "\(toolkit) → \(wanted)")
                } else {
                    #expect(pixels.difference(reference) <= 1, "\(toolkit) → \(wanted): off by \(pixels.difference(reference))")
                }
            }
            // GTK 4 offers no WebP, Qt 5 neither TIFF nor WebP: those are ClipBridge's conversions.
            #expect(!offered.contains("image/webp"))
            if toolkit == .qt5 {
                // Qt's PIXMAP is PPM data: read as an image, converted to PNG.
                let ppm = try await CLI.run(["paste", "-t", "PIXMAP"], display: display)
                #expect(ppm.stdout.starts(with: Data("P6".utf8)), "\(ppm)")
                let fromPixmap = try await Xclip.own(display, ppm.stdout, target: "PIXMAP")
                let converted = try await CLI.run(["paste", "-t", "image/png"], display: display)
                #expect(converted.succeeded, "\(converted)")
                let opaque = try await Pixels.decode(png, options: ["-alpha", "off"])
                #expect(try await Pixels.decode(converted.stdout).difference(opaque) <= 1)
                await fromPixmap.stop()
            }
            await peer.stop()
        }
    }

    @Test("corrupt, truncated, oversized and animated images fail cleanly; the original is still served")
    func badImagesFailCleanly() async throws {
        let display = try CLI.server().display
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let jpeg = try await Self.card("jpeg")
        let frames = try await Pixels.make(["-size", "32x32", "xc:red", "xc:blue", "-delay", "20", "gif:-"])
        var junk = Data(try await Self.card("png24"))
        for index in stride(from: 100, to: junk.count - 20, by: 7) { junk[index] ^= 0x5A }
        let cases: [(String, Data, String, String)] = [
            ("truncated JPEG", jpeg.prefix(jpeg.count / 2), "image/jpeg", "truncated"),
            ("corrupt PNG", junk, "image/png", "PNG"),
            ("100000×100000 PPM", Data("P6\n100000 100000\n255\n".utf8), "image/ppm", "limit"),
            ("animated GIF", frames, "image/gif", "animated"),
        ]
        for (name, bytes, target, message) in cases {
            let owner = try await Xclip.own(display, bytes, target: target)
            let wanted = target == "image/png" ? "image/jpeg" : "image/png"
            let started = ContinuousClock.now
            let paste = try await CLI.run(["paste", "-t", wanted], display: display)
            #expect(ContinuousClock.now - started < .seconds(5), "\(name)")
            #expect(paste.exitCode == 5, "\(name): \(paste)")
            #expect(paste.stdout.isEmpty, "\(name)")
            #expect(paste.stderrText.contains("cannot convert") && paste.stderrText.contains(message), "\(name): \(paste.stderrText)")
            #expect(try await CLI.run(["paste", "-t", target], display: display).stdout == bytes, "\(name)")
            await owner.stop()
        }

        // A copied file whose header is fine but whose body is cut: PNG is offered, and refused when asked for.
        let cut = try scratch.file("cut.jpg", jpeg.prefix(jpeg.count / 2))
        #expect(try await CLI.run(["copy", "--file", cut.path], display: display).succeeded)
        #expect(try await Xclip.targets(display).contains("image/png"))
        let refused = try await Xclip.paste(display, target: "image/png")
        #expect(!refused.succeeded || refused.stdout.isEmpty, "\(refused)")
        #expect(try await Xclip.paste(display, target: "image/jpeg").stdout == jpeg.prefix(jpeg.count / 2))
        // A header past the pixel cap, or an animation, is not offered in other formats at all.
        let bomb = try scratch.file("bomb.ppm", Data("P6\n100000 100000\n255\n".utf8) + Data([0xFF, 0x00, 0x80, 0xC0]))
        #expect(try await CLI.run(["copy", "--add", "image/x-portable-pixmap=\(bomb.path)"], display: display).succeeded)
        #expect(try await Xclip.targets(display).contentTargets == ["image/x-portable-pixmap"])
        let animated = try scratch.file("frames.gif", frames)
        #expect(try await CLI.run(["copy", "--file", animated.path], display: display).succeeded)
        #expect(try await Xclip.targets(display).contentTargets == ["image/gif"])
    }
}
