// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes
//
// Catalogue file: the 141 system-declared static constants of Apple's UniformTypeIdentifiers
// (reference §5), declared exactly as Apple does: `public static var <name>: UTType { get }`.
// Their parents and tags live in Registry/SystemDeclarations.swift.

extension UTType {
    /// Item: `public.item`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var item: UTType { UTType(knownIdentifier: "public.item") }

    /// Content: `public.content`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var content: UTType { UTType(knownIdentifier: "public.content") }

    /// Composite content: `public.composite-content`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var compositeContent: UTType { UTType(knownIdentifier: "public.composite-content") }

    /// Disk image: `public.disk-image`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var diskImage: UTType { UTType(knownIdentifier: "public.disk-image") }

    /// Data: `public.data`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var data: UTType { UTType(knownIdentifier: "public.data") }

    /// Directory: `public.directory`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var directory: UTType { UTType(knownIdentifier: "public.directory") }

    /// Resolvable item: `com.apple.resolvable`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var resolvable: UTType { UTType(knownIdentifier: "com.apple.resolvable") }

    /// Symbolic link: `public.symlink`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var symbolicLink: UTType { UTType(knownIdentifier: "public.symlink") }

    /// Executable: `public.executable`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var executable: UTType { UTType(knownIdentifier: "public.executable") }

    /// Mount point: `com.apple.mount-point`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var mountPoint: UTType { UTType(knownIdentifier: "com.apple.mount-point") }

    /// Alias: `com.apple.alias-file`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var aliasFile: UTType { UTType(knownIdentifier: "com.apple.alias-file") }

    /// URL bookmark data: `com.apple.bookmark`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var urlBookmarkData: UTType { UTType(knownIdentifier: "com.apple.bookmark") }

    /// URL: `public.url`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var url: UTType { UTType(knownIdentifier: "public.url") }

    /// File URL: `public.file-url`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var fileURL: UTType { UTType(knownIdentifier: "public.file-url") }

    /// Text: `public.text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var text: UTType { UTType(knownIdentifier: "public.text") }

    /// Plain text: `public.plain-text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var plainText: UTType { UTType(knownIdentifier: "public.plain-text") }

    /// UTF-8 plain text: `public.utf8-plain-text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var utf8PlainText: UTType { UTType(knownIdentifier: "public.utf8-plain-text") }

    /// UTF-16 external plain text: `public.utf16-external-plain-text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var utf16ExternalPlainText: UTType { UTType(knownIdentifier: "public.utf16-external-plain-text") }

    /// UTF-16 plain text: `public.utf16-plain-text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var utf16PlainText: UTType { UTType(knownIdentifier: "public.utf16-plain-text") }

    /// Delimited text: `public.delimited-values-text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var delimitedText: UTType { UTType(knownIdentifier: "public.delimited-values-text") }

    /// Comma-separated values: `public.comma-separated-values-text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var commaSeparatedText: UTType { UTType(knownIdentifier: "public.comma-separated-values-text") }

    /// Tab-separated values: `public.tab-separated-values-text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var tabSeparatedText: UTType { UTType(knownIdentifier: "public.tab-separated-values-text") }

    /// UTF-8 tab-separated values: `public.utf8-tab-separated-values-text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var utf8TabSeparatedText: UTType { UTType(knownIdentifier: "public.utf8-tab-separated-values-text") }

    /// Rich text (RTF): `public.rtf`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var rtf: UTType { UTType(knownIdentifier: "public.rtf") }

    /// HTML text: `public.html`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var html: UTType { UTType(knownIdentifier: "public.html") }

    /// XML text: `public.xml`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var xml: UTType { UTType(knownIdentifier: "public.xml") }

    /// YAML text: `public.yaml`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var yaml: UTType { UTType(knownIdentifier: "public.yaml") }

    /// CSS style sheet: `public.css`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 18 / 15 / 18 / 11.
    public static var css: UTType { UTType(knownIdentifier: "public.css") }

    /// Source code: `public.source-code`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var sourceCode: UTType { UTType(knownIdentifier: "public.source-code") }

    /// Assembly language source: `public.assembly-source`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var assemblyLanguageSource: UTType { UTType(knownIdentifier: "public.assembly-source") }

    /// C source: `public.c-source`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var cSource: UTType { UTType(knownIdentifier: "public.c-source") }

    /// Objective-C source: `public.objective-c-source`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var objectiveCSource: UTType { UTType(knownIdentifier: "public.objective-c-source") }

    /// Swift source: `public.swift-source`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var swiftSource: UTType { UTType(knownIdentifier: "public.swift-source") }

    /// C++ source: `public.c-plus-plus-source`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var cPlusPlusSource: UTType { UTType(knownIdentifier: "public.c-plus-plus-source") }

    /// Objective-C++ source: `public.objective-c-plus-plus-source`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var objectiveCPlusPlusSource: UTType {
        UTType(knownIdentifier: "public.objective-c-plus-plus-source")
    }

    /// C header: `public.c-header`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var cHeader: UTType { UTType(knownIdentifier: "public.c-header") }

    /// C++ header: `public.c-plus-plus-header`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var cPlusPlusHeader: UTType { UTType(knownIdentifier: "public.c-plus-plus-header") }

    /// Script: `public.script`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var script: UTType { UTType(knownIdentifier: "public.script") }

    /// AppleScript text: `com.apple.applescript.text`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var appleScript: UTType { UTType(knownIdentifier: "com.apple.applescript.text") }

    /// OSA script: `com.apple.applescript.script`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var osaScript: UTType { UTType(knownIdentifier: "com.apple.applescript.script") }

    /// OSA script bundle: `com.apple.applescript.script-bundle`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var osaScriptBundle: UTType { UTType(knownIdentifier: "com.apple.applescript.script-bundle") }

    /// JavaScript source: `com.netscape.javascript-source`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var javaScript: UTType { UTType(knownIdentifier: "com.netscape.javascript-source") }

    /// Shell script: `public.shell-script`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var shellScript: UTType { UTType(knownIdentifier: "public.shell-script") }

    /// Perl script: `public.perl-script`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var perlScript: UTType { UTType(knownIdentifier: "public.perl-script") }

    /// Python script: `public.python-script`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var pythonScript: UTType { UTType(knownIdentifier: "public.python-script") }

    /// Ruby script: `public.ruby-script`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var rubyScript: UTType { UTType(knownIdentifier: "public.ruby-script") }

    /// PHP script: `public.php-script`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var phpScript: UTType { UTType(knownIdentifier: "public.php-script") }

    /// Makefile: `public.make-source`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 15 / 12 / 15 / 8.
    public static var makefile: UTType { UTType(knownIdentifier: "public.make-source") }

    /// JSON: `public.json`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var json: UTType { UTType(knownIdentifier: "public.json") }

    /// Markdown text: `net.daringfireball.markdown`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 27 / 27 / 27 / 27 (beta).
    public static var markdown: UTType { UTType(knownIdentifier: "net.daringfireball.markdown") }

    /// Property list: `com.apple.property-list`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var propertyList: UTType { UTType(knownIdentifier: "com.apple.property-list") }

    /// XML property list: `com.apple.xml-property-list`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var xmlPropertyList: UTType { UTType(knownIdentifier: "com.apple.xml-property-list") }

    /// Binary property list: `com.apple.binary-property-list`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var binaryPropertyList: UTType { UTType(knownIdentifier: "com.apple.binary-property-list") }

    /// PDF document: `com.adobe.pdf`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var pdf: UTType { UTType(knownIdentifier: "com.adobe.pdf") }

    /// Rich text with attachments (RTFD): `com.apple.rtfd`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var rtfd: UTType { UTType(knownIdentifier: "com.apple.rtfd") }

    /// Flat RTFD: `com.apple.flat-rtfd`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var flatRTFD: UTType { UTType(knownIdentifier: "com.apple.flat-rtfd") }

    /// Web archive: `com.apple.webarchive`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var webArchive: UTType { UTType(knownIdentifier: "com.apple.webarchive") }

    /// Image: `public.image`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var image: UTType { UTType(knownIdentifier: "public.image") }

    /// JPEG image: `public.jpeg`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var jpeg: UTType { UTType(knownIdentifier: "public.jpeg") }

    /// TIFF image: `public.tiff`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var tiff: UTType { UTType(knownIdentifier: "public.tiff") }

    /// GIF image: `com.compuserve.gif`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var gif: UTType { UTType(knownIdentifier: "com.compuserve.gif") }

    /// PNG image: `public.png`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var png: UTType { UTType(knownIdentifier: "public.png") }

    /// Apple icon image: `com.apple.icns`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var icns: UTType { UTType(knownIdentifier: "com.apple.icns") }

    /// BMP image: `com.microsoft.bmp`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var bmp: UTType { UTType(knownIdentifier: "com.microsoft.bmp") }

    /// Windows icon image: `com.microsoft.ico`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var ico: UTType { UTType(knownIdentifier: "com.microsoft.ico") }

    /// Camera raw image: `public.camera-raw-image`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var rawImage: UTType { UTType(knownIdentifier: "public.camera-raw-image") }

    /// SVG image: `public.svg-image`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var svg: UTType { UTType(knownIdentifier: "public.svg-image") }

    /// Live Photo: `com.apple.live-photo`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var livePhoto: UTType { UTType(knownIdentifier: "com.apple.live-photo") }

    /// HEIF image: `public.heif`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var heif: UTType { UTType(knownIdentifier: "public.heif") }

    /// HEIC image: `public.heic`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var heic: UTType { UTType(knownIdentifier: "public.heic") }

    /// HEIC image sequence: `public.heics`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 18 / 15 / 18 / 11.
    public static var heics: UTType { UTType(knownIdentifier: "public.heics") }

    /// WebP image: `org.webmproject.webp`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var webP: UTType { UTType(knownIdentifier: "org.webmproject.webp") }

    /// OpenEXR image: `com.ilm.openexr-image`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 18 / 15 / 18 / 11.
    public static var exr: UTType { UTType(knownIdentifier: "com.ilm.openexr-image") }

    /// DNG raw image: `com.adobe.raw-image`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 18 / 15 / 18 / 11.
    public static var dng: UTType { UTType(knownIdentifier: "com.adobe.raw-image") }

    /// JPEG XL image: `public.jpeg-xl`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 18.2 / 15.2 / 18.2 / 11.2.
    public static var jpegxl: UTType { UTType(knownIdentifier: "public.jpeg-xl") }

    /// 3D content: `public.3d-content`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var threeDContent: UTType { UTType(knownIdentifier: "public.3d-content") }

    /// Universal Scene Description: `com.pixar.universal-scene-description`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var usd: UTType { UTType(knownIdentifier: "com.pixar.universal-scene-description") }

    /// Universal Scene Description (mobile): `com.pixar.universal-scene-description-mobile`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var usdz: UTType { UTType(knownIdentifier: "com.pixar.universal-scene-description-mobile") }

    /// Reality file: `com.apple.reality`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var realityFile: UTType { UTType(knownIdentifier: "com.apple.reality") }

    /// SceneKit scene: `com.apple.scenekit.scene`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var sceneKitScene: UTType { UTType(knownIdentifier: "com.apple.scenekit.scene") }

    /// AR reference object: `com.apple.arobject`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var arReferenceObject: UTType { UTType(knownIdentifier: "com.apple.arobject") }

    /// Audiovisual content: `public.audiovisual-content`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var audiovisualContent: UTType { UTType(knownIdentifier: "public.audiovisual-content") }

    /// Movie: `public.movie`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var movie: UTType { UTType(knownIdentifier: "public.movie") }

    /// Video: `public.video`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var video: UTType { UTType(knownIdentifier: "public.video") }

    /// Audio: `public.audio`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var audio: UTType { UTType(knownIdentifier: "public.audio") }

    /// QuickTime movie: `com.apple.quicktime-movie`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var quickTimeMovie: UTType { UTType(knownIdentifier: "com.apple.quicktime-movie") }

    /// MPEG movie: `public.mpeg`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var mpeg: UTType { UTType(knownIdentifier: "public.mpeg") }

    /// MPEG-2 video: `public.mpeg-2-video`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var mpeg2Video: UTType { UTType(knownIdentifier: "public.mpeg-2-video") }

    /// MPEG-2 transport stream: `public.mpeg-2-transport-stream`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var mpeg2TransportStream: UTType { UTType(knownIdentifier: "public.mpeg-2-transport-stream") }

    /// MP3 audio: `public.mp3`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var mp3: UTType { UTType(knownIdentifier: "public.mp3") }

    /// MPEG-4 movie: `public.mpeg-4`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var mpeg4Movie: UTType { UTType(knownIdentifier: "public.mpeg-4") }

    /// MPEG-4 audio: `public.mpeg-4-audio`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var mpeg4Audio: UTType { UTType(knownIdentifier: "public.mpeg-4-audio") }

    /// Protected MPEG-4 audio: `com.apple.protected-mpeg-4-audio`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var appleProtectedMPEG4Audio: UTType { UTType(knownIdentifier: "com.apple.protected-mpeg-4-audio") }

    /// Protected MPEG-4 video: `com.apple.protected-mpeg-4-video`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var appleProtectedMPEG4Video: UTType { UTType(knownIdentifier: "com.apple.protected-mpeg-4-video") }

    /// AVI movie: `public.avi`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var avi: UTType { UTType(knownIdentifier: "public.avi") }

    /// AIFF audio: `public.aiff-audio`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var aiff: UTType { UTType(knownIdentifier: "public.aiff-audio") }

    /// Waveform audio: `com.microsoft.waveform-audio`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var wav: UTType { UTType(knownIdentifier: "com.microsoft.waveform-audio") }

    /// MIDI audio: `public.midi-audio`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var midi: UTType { UTType(knownIdentifier: "public.midi-audio") }

    /// Playlist: `public.playlist`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var playlist: UTType { UTType(knownIdentifier: "public.playlist") }

    /// M3U playlist: `public.m3u-playlist`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var m3uPlaylist: UTType { UTType(knownIdentifier: "public.m3u-playlist") }

    /// Folder: `public.folder`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var folder: UTType { UTType(knownIdentifier: "public.folder") }

    /// Volume: `public.volume`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var volume: UTType { UTType(knownIdentifier: "public.volume") }

    /// Package: `com.apple.package`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var package: UTType { UTType(knownIdentifier: "com.apple.package") }

    /// Bundle: `com.apple.bundle`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var bundle: UTType { UTType(knownIdentifier: "com.apple.bundle") }

    /// Plug-in: `com.apple.plugin`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var pluginBundle: UTType { UTType(knownIdentifier: "com.apple.plugin") }

    /// Spotlight importer: `com.apple.metadata-importer`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var spotlightImporter: UTType { UTType(knownIdentifier: "com.apple.metadata-importer") }

    /// Quick Look generator: `com.apple.quicklook-generator`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var quickLookGenerator: UTType { UTType(knownIdentifier: "com.apple.quicklook-generator") }

    /// XPC service: `com.apple.xpc-service`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var xpcService: UTType { UTType(knownIdentifier: "com.apple.xpc-service") }

    /// Framework: `com.apple.framework`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var framework: UTType { UTType(knownIdentifier: "com.apple.framework") }

    /// Application: `com.apple.application`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var application: UTType { UTType(knownIdentifier: "com.apple.application") }

    /// Application bundle: `com.apple.application-bundle`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var applicationBundle: UTType { UTType(knownIdentifier: "com.apple.application-bundle") }

    /// Application extension: `com.apple.application-and-system-extension`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var applicationExtension: UTType {
        UTType(knownIdentifier: "com.apple.application-and-system-extension")
    }

    /// Unix executable: `public.unix-executable`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var unixExecutable: UTType { UTType(knownIdentifier: "public.unix-executable") }

    /// Windows executable: `com.microsoft.windows-executable`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var exe: UTType { UTType(knownIdentifier: "com.microsoft.windows-executable") }

    /// System Preferences pane: `com.apple.systempreference.prefpane`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var systemPreferencesPane: UTType { UTType(knownIdentifier: "com.apple.systempreference.prefpane") }

    /// Archive: `public.archive`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var archive: UTType { UTType(knownIdentifier: "public.archive") }

    /// Gzip archive: `org.gnu.gnu-zip-archive`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var gzip: UTType { UTType(knownIdentifier: "org.gnu.gnu-zip-archive") }

    /// Bzip2 archive: `public.bzip2-archive`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var bz2: UTType { UTType(knownIdentifier: "public.bzip2-archive") }

    /// ZIP archive: `public.zip-archive`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var zip: UTType { UTType(knownIdentifier: "public.zip-archive") }

    /// Apple archive: `com.apple.archive`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var appleArchive: UTType { UTType(knownIdentifier: "com.apple.archive") }

    /// Tar archive: `public.tar-archive`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 18 / 15 / 18 / 11.
    public static var tarArchive: UTType { UTType(knownIdentifier: "public.tar-archive") }

    /// Spreadsheet: `public.spreadsheet`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var spreadsheet: UTType { UTType(knownIdentifier: "public.spreadsheet") }

    /// Presentation: `public.presentation`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var presentation: UTType { UTType(knownIdentifier: "public.presentation") }

    /// Database: `public.database`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var database: UTType { UTType(knownIdentifier: "public.database") }

    /// Message: `public.message`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var message: UTType { UTType(knownIdentifier: "public.message") }

    /// Contact: `public.contact`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var contact: UTType { UTType(knownIdentifier: "public.contact") }

    /// VCard: `public.vcard`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var vCard: UTType { UTType(knownIdentifier: "public.vcard") }

    /// To-do item: `public.to-do-item`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var toDoItem: UTType { UTType(knownIdentifier: "public.to-do-item") }

    /// Calendar event: `public.calendar-event`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var calendarEvent: UTType { UTType(knownIdentifier: "public.calendar-event") }

    /// Email message: `public.email-message`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var emailMessage: UTType { UTType(knownIdentifier: "public.email-message") }

    /// Internet location: `com.apple.internet-location`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var internetLocation: UTType { UTType(knownIdentifier: "com.apple.internet-location") }

    /// Internet shortcut: `com.microsoft.internet-shortcut`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var internetShortcut: UTType { UTType(knownIdentifier: "com.microsoft.internet-shortcut") }

    /// Font: `public.font`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var font: UTType { UTType(knownIdentifier: "public.font") }

    /// Bookmark: `public.bookmark`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var bookmark: UTType { UTType(knownIdentifier: "public.bookmark") }

    /// PKCS #12 archive: `com.rsa.pkcs-12`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var pkcs12: UTType { UTType(knownIdentifier: "com.rsa.pkcs-12") }

    /// X.509 certificate: `public.x509-certificate`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var x509Certificate: UTType { UTType(knownIdentifier: "public.x509-certificate") }

    /// EPUB document: `org.idpf.epub-container`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var epub: UTType { UTType(knownIdentifier: "org.idpf.epub-container") }

    /// Log: `public.log`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 14 / 11 / 14 / 7.
    public static var log: UTType { UTType(knownIdentifier: "public.log") }

    /// Apple haptic pattern: `com.apple.haptics.ahap`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 17 / 14 / 17 / 10.
    public static var ahap: UTType { UTType(knownIdentifier: "com.apple.haptics.ahap") }

    /// GeoJSON: `public.geojson`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 18 / 15 / 18 / 11.
    public static var geoJSON: UTType { UTType(knownIdentifier: "public.geojson") }

    /// Link presentation metadata: `com.apple.linkpresentation.metadata`.
    ///
    /// Apple: iOS / macOS / tvOS / watchOS 18 / 15 / 18 / 11.
    public static var linkPresentationMetadata: UTType {
        UTType(knownIdentifier: "com.apple.linkpresentation.metadata")
    }
}
