// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes
//
// Catalogue file: the 141 system-declared static constants of Apple's UniformTypeIdentifiers
// (reference §5), declared exactly as Apple does: `public static var <name>: UTType { get }`.
// Their parents and tags live in Registry/SystemDeclarations.swift.

extension UTType {
    /// The item type (`public.item`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var item: UTType { UTType(knownIdentifier: "public.item") }

    /// The content type (`public.content`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var content: UTType { UTType(knownIdentifier: "public.content") }

    /// The composite content type (`public.composite-content`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var compositeContent: UTType { UTType(knownIdentifier: "public.composite-content") }

    /// The disk image type (`public.disk-image`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var diskImage: UTType { UTType(knownIdentifier: "public.disk-image") }

    /// The data type (`public.data`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var data: UTType { UTType(knownIdentifier: "public.data") }

    /// The directory type (`public.directory`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var directory: UTType { UTType(knownIdentifier: "public.directory") }

    /// The resolvable item type (`com.apple.resolvable`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var resolvable: UTType { UTType(knownIdentifier: "com.apple.resolvable") }

    /// The symbolic link type (`public.symlink`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var symbolicLink: UTType { UTType(knownIdentifier: "public.symlink") }

    /// The executable type (`public.executable`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var executable: UTType { UTType(knownIdentifier: "public.executable") }

    /// The mount point type (`com.apple.mount-point`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var mountPoint: UTType { UTType(knownIdentifier: "com.apple.mount-point") }

    /// The alias type (`com.apple.alias-file`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var aliasFile: UTType { UTType(knownIdentifier: "com.apple.alias-file") }

    /// The URL bookmark data type (`com.apple.bookmark`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var urlBookmarkData: UTType { UTType(knownIdentifier: "com.apple.bookmark") }

    /// The URL type (`public.url`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var url: UTType { UTType(knownIdentifier: "public.url") }

    /// The file URL type (`public.file-url`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var fileURL: UTType { UTType(knownIdentifier: "public.file-url") }

    /// The text type (`public.text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var text: UTType { UTType(knownIdentifier: "public.text") }

    /// The plain text type (`public.plain-text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var plainText: UTType { UTType(knownIdentifier: "public.plain-text") }

    /// The UTF-8 plain text type (`public.utf8-plain-text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var utf8PlainText: UTType { UTType(knownIdentifier: "public.utf8-plain-text") }

    /// The UTF-16 external plain text type (`public.utf16-external-plain-text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var utf16ExternalPlainText: UTType { UTType(knownIdentifier: "public.utf16-external-plain-text") }

    /// The UTF-16 plain text type (`public.utf16-plain-text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var utf16PlainText: UTType { UTType(knownIdentifier: "public.utf16-plain-text") }

    /// The delimited text type (`public.delimited-values-text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var delimitedText: UTType { UTType(knownIdentifier: "public.delimited-values-text") }

    /// The comma-separated values type (`public.comma-separated-values-text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var commaSeparatedText: UTType { UTType(knownIdentifier: "public.comma-separated-values-text") }

    /// The tab-separated values type (`public.tab-separated-values-text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var tabSeparatedText: UTType { UTType(knownIdentifier: "public.tab-separated-values-text") }

    /// The UTF-8 tab-separated values type (`public.utf8-tab-separated-values-text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var utf8TabSeparatedText: UTType { UTType(knownIdentifier: "public.utf8-tab-separated-values-text") }

    /// The rich text (RTF) type (`public.rtf`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var rtf: UTType { UTType(knownIdentifier: "public.rtf") }

    /// The HTML text type (`public.html`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var html: UTType { UTType(knownIdentifier: "public.html") }

    /// The XML text type (`public.xml`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var xml: UTType { UTType(knownIdentifier: "public.xml") }

    /// The YAML text type (`public.yaml`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var yaml: UTType { UTType(knownIdentifier: "public.yaml") }

    /// The CSS style sheet type (`public.css`), Apple since iOS/macOS/tvOS/watchOS 18/15/18/11.
    public static var css: UTType { UTType(knownIdentifier: "public.css") }

    /// The source code type (`public.source-code`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var sourceCode: UTType { UTType(knownIdentifier: "public.source-code") }

    /// The assembly language source type (`public.assembly-source`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var assemblyLanguageSource: UTType { UTType(knownIdentifier: "public.assembly-source") }

    /// The C source type (`public.c-source`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var cSource: UTType { UTType(knownIdentifier: "public.c-source") }

    /// The Objective-C source type (`public.objective-c-source`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var objectiveCSource: UTType { UTType(knownIdentifier: "public.objective-c-source") }

    /// The Swift source type (`public.swift-source`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var swiftSource: UTType { UTType(knownIdentifier: "public.swift-source") }

    /// The C++ source type (`public.c-plus-plus-source`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var cPlusPlusSource: UTType { UTType(knownIdentifier: "public.c-plus-plus-source") }

    /// The Objective-C++ source type (`public.objective-c-plus-plus-source`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var objectiveCPlusPlusSource: UTType { UTType(knownIdentifier: "public.objective-c-plus-plus-source") }

    /// The C header type (`public.c-header`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var cHeader: UTType { UTType(knownIdentifier: "public.c-header") }

    /// The C++ header type (`public.c-plus-plus-header`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var cPlusPlusHeader: UTType { UTType(knownIdentifier: "public.c-plus-plus-header") }

    /// The script type (`public.script`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var script: UTType { UTType(knownIdentifier: "public.script") }

    /// The AppleScript text type (`com.apple.applescript.text`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var appleScript: UTType { UTType(knownIdentifier: "com.apple.applescript.text") }

    /// The OSA script type (`com.apple.applescript.script`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var osaScript: UTType { UTType(knownIdentifier: "com.apple.applescript.script") }

    /// The OSA script bundle type (`com.apple.applescript.script-bundle`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var osaScriptBundle: UTType { UTType(knownIdentifier: "com.apple.applescript.script-bundle") }

    /// The JavaScript source type (`com.netscape.javascript-source`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var javaScript: UTType { UTType(knownIdentifier: "com.netscape.javascript-source") }

    /// The shell script type (`public.shell-script`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var shellScript: UTType { UTType(knownIdentifier: "public.shell-script") }

    /// The Perl script type (`public.perl-script`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var perlScript: UTType { UTType(knownIdentifier: "public.perl-script") }

    /// The Python script type (`public.python-script`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var pythonScript: UTType { UTType(knownIdentifier: "public.python-script") }

    /// The Ruby script type (`public.ruby-script`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var rubyScript: UTType { UTType(knownIdentifier: "public.ruby-script") }

    /// The PHP script type (`public.php-script`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var phpScript: UTType { UTType(knownIdentifier: "public.php-script") }

    /// The Makefile type (`public.make-source`), Apple since iOS/macOS/tvOS/watchOS 15/12/15/8.
    public static var makefile: UTType { UTType(knownIdentifier: "public.make-source") }

    /// The JSON type (`public.json`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var json: UTType { UTType(knownIdentifier: "public.json") }

    /// The Markdown text type (`net.daringfireball.markdown`), Apple since iOS/macOS/tvOS/watchOS 27/27/27/27(beta).
    public static var markdown: UTType { UTType(knownIdentifier: "net.daringfireball.markdown") }

    /// The property list type (`com.apple.property-list`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var propertyList: UTType { UTType(knownIdentifier: "com.apple.property-list") }

    /// The XML property list type (`com.apple.xml-property-list`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var xmlPropertyList: UTType { UTType(knownIdentifier: "com.apple.xml-property-list") }

    /// The binary property list type (`com.apple.binary-property-list`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var binaryPropertyList: UTType { UTType(knownIdentifier: "com.apple.binary-property-list") }

    /// The PDF document type (`com.adobe.pdf`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var pdf: UTType { UTType(knownIdentifier: "com.adobe.pdf") }

    /// The rich text with attachments (RTFD) type (`com.apple.rtfd`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var rtfd: UTType { UTType(knownIdentifier: "com.apple.rtfd") }

    /// The flat RTFD type (`com.apple.flat-rtfd`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var flatRTFD: UTType { UTType(knownIdentifier: "com.apple.flat-rtfd") }

    /// The web archive type (`com.apple.webarchive`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var webArchive: UTType { UTType(knownIdentifier: "com.apple.webarchive") }

    /// The image type (`public.image`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var image: UTType { UTType(knownIdentifier: "public.image") }

    /// The JPEG image type (`public.jpeg`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var jpeg: UTType { UTType(knownIdentifier: "public.jpeg") }

    /// The TIFF image type (`public.tiff`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var tiff: UTType { UTType(knownIdentifier: "public.tiff") }

    /// The GIF image type (`com.compuserve.gif`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var gif: UTType { UTType(knownIdentifier: "com.compuserve.gif") }

    /// The PNG image type (`public.png`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var png: UTType { UTType(knownIdentifier: "public.png") }

    /// The Apple icon image type (`com.apple.icns`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var icns: UTType { UTType(knownIdentifier: "com.apple.icns") }

    /// The BMP image type (`com.microsoft.bmp`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var bmp: UTType { UTType(knownIdentifier: "com.microsoft.bmp") }

    /// The Windows icon image type (`com.microsoft.ico`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var ico: UTType { UTType(knownIdentifier: "com.microsoft.ico") }

    /// The camera raw image type (`public.camera-raw-image`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var rawImage: UTType { UTType(knownIdentifier: "public.camera-raw-image") }

    /// The SVG image type (`public.svg-image`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var svg: UTType { UTType(knownIdentifier: "public.svg-image") }

    /// The Live Photo type (`com.apple.live-photo`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var livePhoto: UTType { UTType(knownIdentifier: "com.apple.live-photo") }

    /// The HEIF image type (`public.heif`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var heif: UTType { UTType(knownIdentifier: "public.heif") }

    /// The HEIC image type (`public.heic`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var heic: UTType { UTType(knownIdentifier: "public.heic") }

    /// The HEIC image sequence type (`public.heics`), Apple since iOS/macOS/tvOS/watchOS 18/15/18/11.
    public static var heics: UTType { UTType(knownIdentifier: "public.heics") }

    /// The WebP image type (`org.webmproject.webp`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var webP: UTType { UTType(knownIdentifier: "org.webmproject.webp") }

    /// The OpenEXR image type (`com.ilm.openexr-image`), Apple since iOS/macOS/tvOS/watchOS 18/15/18/11.
    public static var exr: UTType { UTType(knownIdentifier: "com.ilm.openexr-image") }

    /// The DNG raw image type (`com.adobe.raw-image`), Apple since iOS/macOS/tvOS/watchOS 18/15/18/11.
    public static var dng: UTType { UTType(knownIdentifier: "com.adobe.raw-image") }

    /// The JPEG XL image type (`public.jpeg-xl`), Apple since iOS/macOS/tvOS/watchOS 18.2/15.2/18.2/11.2.
    public static var jpegxl: UTType { UTType(knownIdentifier: "public.jpeg-xl") }

    /// The 3D content type (`public.3d-content`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var threeDContent: UTType { UTType(knownIdentifier: "public.3d-content") }

    /// The Universal Scene Description type (`com.pixar.universal-scene-description`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var usd: UTType { UTType(knownIdentifier: "com.pixar.universal-scene-description") }

    /// The Universal Scene Description (mobile) type (`com.pixar.universal-scene-description-mobile`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var usdz: UTType { UTType(knownIdentifier: "com.pixar.universal-scene-description-mobile") }

    /// The Reality file type (`com.apple.reality`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var realityFile: UTType { UTType(knownIdentifier: "com.apple.reality") }

    /// The SceneKit scene type (`com.apple.scenekit.scene`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var sceneKitScene: UTType { UTType(knownIdentifier: "com.apple.scenekit.scene") }

    /// The AR reference object type (`com.apple.arobject`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var arReferenceObject: UTType { UTType(knownIdentifier: "com.apple.arobject") }

    /// The audiovisual content type (`public.audiovisual-content`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var audiovisualContent: UTType { UTType(knownIdentifier: "public.audiovisual-content") }

    /// The movie type (`public.movie`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var movie: UTType { UTType(knownIdentifier: "public.movie") }

    /// The video type (`public.video`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var video: UTType { UTType(knownIdentifier: "public.video") }

    /// The audio type (`public.audio`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var audio: UTType { UTType(knownIdentifier: "public.audio") }

    /// The QuickTime movie type (`com.apple.quicktime-movie`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var quickTimeMovie: UTType { UTType(knownIdentifier: "com.apple.quicktime-movie") }

    /// The MPEG movie type (`public.mpeg`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var mpeg: UTType { UTType(knownIdentifier: "public.mpeg") }

    /// The MPEG-2 video type (`public.mpeg-2-video`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var mpeg2Video: UTType { UTType(knownIdentifier: "public.mpeg-2-video") }

    /// The MPEG-2 transport stream type (`public.mpeg-2-transport-stream`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var mpeg2TransportStream: UTType { UTType(knownIdentifier: "public.mpeg-2-transport-stream") }

    /// The MP3 audio type (`public.mp3`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var mp3: UTType { UTType(knownIdentifier: "public.mp3") }

    /// The MPEG-4 movie type (`public.mpeg-4`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var mpeg4Movie: UTType { UTType(knownIdentifier: "public.mpeg-4") }

    /// The MPEG-4 audio type (`public.mpeg-4-audio`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var mpeg4Audio: UTType { UTType(knownIdentifier: "public.mpeg-4-audio") }

    /// The protected MPEG-4 audio type (`com.apple.protected-mpeg-4-audio`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var appleProtectedMPEG4Audio: UTType { UTType(knownIdentifier: "com.apple.protected-mpeg-4-audio") }

    /// The protected MPEG-4 video type (`com.apple.protected-mpeg-4-video`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var appleProtectedMPEG4Video: UTType { UTType(knownIdentifier: "com.apple.protected-mpeg-4-video") }

    /// The AVI movie type (`public.avi`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var avi: UTType { UTType(knownIdentifier: "public.avi") }

    /// The AIFF audio type (`public.aiff-audio`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var aiff: UTType { UTType(knownIdentifier: "public.aiff-audio") }

    /// The Waveform audio type (`com.microsoft.waveform-audio`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var wav: UTType { UTType(knownIdentifier: "com.microsoft.waveform-audio") }

    /// The MIDI audio type (`public.midi-audio`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var midi: UTType { UTType(knownIdentifier: "public.midi-audio") }

    /// The playlist type (`public.playlist`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var playlist: UTType { UTType(knownIdentifier: "public.playlist") }

    /// The M3U playlist type (`public.m3u-playlist`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var m3uPlaylist: UTType { UTType(knownIdentifier: "public.m3u-playlist") }

    /// The folder type (`public.folder`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var folder: UTType { UTType(knownIdentifier: "public.folder") }

    /// The volume type (`public.volume`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var volume: UTType { UTType(knownIdentifier: "public.volume") }

    /// The package type (`com.apple.package`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var package: UTType { UTType(knownIdentifier: "com.apple.package") }

    /// The bundle type (`com.apple.bundle`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var bundle: UTType { UTType(knownIdentifier: "com.apple.bundle") }

    /// The plug-in type (`com.apple.plugin`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var pluginBundle: UTType { UTType(knownIdentifier: "com.apple.plugin") }

    /// The Spotlight importer type (`com.apple.metadata-importer`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var spotlightImporter: UTType { UTType(knownIdentifier: "com.apple.metadata-importer") }

    /// The Quick Look generator type (`com.apple.quicklook-generator`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var quickLookGenerator: UTType { UTType(knownIdentifier: "com.apple.quicklook-generator") }

    /// The XPC service type (`com.apple.xpc-service`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var xpcService: UTType { UTType(knownIdentifier: "com.apple.xpc-service") }

    /// The framework type (`com.apple.framework`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var framework: UTType { UTType(knownIdentifier: "com.apple.framework") }

    /// The application type (`com.apple.application`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var application: UTType { UTType(knownIdentifier: "com.apple.application") }

    /// The application bundle type (`com.apple.application-bundle`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var applicationBundle: UTType { UTType(knownIdentifier: "com.apple.application-bundle") }

    /// The application extension type (`com.apple.application-and-system-extension`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var applicationExtension: UTType { UTType(knownIdentifier: "com.apple.application-and-system-extension") }

    /// The Unix executable type (`public.unix-executable`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var unixExecutable: UTType { UTType(knownIdentifier: "public.unix-executable") }

    /// The Windows executable type (`com.microsoft.windows-executable`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var exe: UTType { UTType(knownIdentifier: "com.microsoft.windows-executable") }

    /// The System Preferences pane type (`com.apple.systempreference.prefpane`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var systemPreferencesPane: UTType { UTType(knownIdentifier: "com.apple.systempreference.prefpane") }

    /// The archive type (`public.archive`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var archive: UTType { UTType(knownIdentifier: "public.archive") }

    /// The gzip archive type (`org.gnu.gnu-zip-archive`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var gzip: UTType { UTType(knownIdentifier: "org.gnu.gnu-zip-archive") }

    /// The bzip2 archive type (`public.bzip2-archive`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var bz2: UTType { UTType(knownIdentifier: "public.bzip2-archive") }

    /// The ZIP archive type (`public.zip-archive`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var zip: UTType { UTType(knownIdentifier: "public.zip-archive") }

    /// The Apple archive type (`com.apple.archive`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var appleArchive: UTType { UTType(knownIdentifier: "com.apple.archive") }

    /// The tar archive type (`public.tar-archive`), Apple since iOS/macOS/tvOS/watchOS 18/15/18/11.
    public static var tarArchive: UTType { UTType(knownIdentifier: "public.tar-archive") }

    /// The spreadsheet type (`public.spreadsheet`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var spreadsheet: UTType { UTType(knownIdentifier: "public.spreadsheet") }

    /// The presentation type (`public.presentation`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var presentation: UTType { UTType(knownIdentifier: "public.presentation") }

    /// The database type (`public.database`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var database: UTType { UTType(knownIdentifier: "public.database") }

    /// The message type (`public.message`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var message: UTType { UTType(knownIdentifier: "public.message") }

    /// The contact type (`public.contact`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var contact: UTType { UTType(knownIdentifier: "public.contact") }

    /// The vCard type (`public.vcard`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var vCard: UTType { UTType(knownIdentifier: "public.vcard") }

    /// The to-do item type (`public.to-do-item`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var toDoItem: UTType { UTType(knownIdentifier: "public.to-do-item") }

    /// The calendar event type (`public.calendar-event`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var calendarEvent: UTType { UTType(knownIdentifier: "public.calendar-event") }

    /// The email message type (`public.email-message`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var emailMessage: UTType { UTType(knownIdentifier: "public.email-message") }

    /// The Internet location type (`com.apple.internet-location`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var internetLocation: UTType { UTType(knownIdentifier: "com.apple.internet-location") }

    /// The Internet shortcut type (`com.microsoft.internet-shortcut`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var internetShortcut: UTType { UTType(knownIdentifier: "com.microsoft.internet-shortcut") }

    /// The font type (`public.font`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var font: UTType { UTType(knownIdentifier: "public.font") }

    /// The bookmark type (`public.bookmark`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var bookmark: UTType { UTType(knownIdentifier: "public.bookmark") }

    /// The PKCS #12 archive type (`com.rsa.pkcs-12`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var pkcs12: UTType { UTType(knownIdentifier: "com.rsa.pkcs-12") }

    /// The X.509 certificate type (`public.x509-certificate`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var x509Certificate: UTType { UTType(knownIdentifier: "public.x509-certificate") }

    /// The EPUB document type (`org.idpf.epub-container`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var epub: UTType { UTType(knownIdentifier: "org.idpf.epub-container") }

    /// The log type (`public.log`), Apple since iOS/macOS/tvOS/watchOS 14/11/14/7.
    public static var log: UTType { UTType(knownIdentifier: "public.log") }

    /// The Apple haptic pattern type (`com.apple.haptics.ahap`), Apple since iOS/macOS/tvOS/watchOS 17/14/17/10.
    public static var ahap: UTType { UTType(knownIdentifier: "com.apple.haptics.ahap") }

    /// The GeoJSON type (`public.geojson`), Apple since iOS/macOS/tvOS/watchOS 18/15/18/11.
    public static var geoJSON: UTType { UTType(knownIdentifier: "public.geojson") }

    /// The link presentation metadata type (`com.apple.linkpresentation.metadata`), Apple since iOS/macOS/tvOS/watchOS 18/15/18/11.
    public static var linkPresentationMetadata: UTType { UTType(knownIdentifier: "com.apple.linkpresentation.metadata") }
}
