// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypesTests
//
// The system type table of shared/reference/UniformTypeIdentifiers-API.md §5, transcribed row by row
// (141 rows): Swift name, identifier, the SDK header's declared parents, the macOS CoreTypes plist's
// parents where they differ, filename extensions and MIME types (first = preferred). Tags the reference
// marks ᴬ are included; "?" and "—" are empty lists.

import Testing
import UniformTypes

/// One row of the reference table.
struct SystemTypeFact: Sendable, CustomTestStringConvertible {
    /// Reads the static constant, e.g. `{ .png }`.
    let make: @Sendable () -> UTType
    let identifier: String
    let declaredParents: [String]
    let plistParents: [String]
    let extensions: [String]
    let mimeTypes: [String]

    init(
        _ make: @escaping @Sendable () -> UTType,
        _ identifier: String,
        declared: [String],
        plist: [String],
        extensions: [String],
        mimeTypes: [String]
    ) {
        self.make = make
        self.identifier = identifier
        self.declaredParents = declared
        self.plistParents = plist
        self.extensions = extensions
        self.mimeTypes = mimeTypes
    }

    var type: UTType { make() }
    var testDescription: String { identifier }
}

/// Every row of reference §5.
let systemTypeFacts: [SystemTypeFact] = [
    SystemTypeFact({ .item }, "public.item", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact({ .content }, "public.content", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .compositeContent }, "public.composite-content",
        declared: ["public.content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .diskImage }, "public.disk-image",
        declared: [],
        plist: ["public.archive"],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .data }, "public.data",
        declared: ["public.item"],
        plist: [],
        extensions: [],
        mimeTypes: ["application/octet-stream"]
    ),
    SystemTypeFact(
        { .directory }, "public.directory",
        declared: ["public.item"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact({ .resolvable }, "com.apple.resolvable", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .symbolicLink }, "public.symlink",
        declared: ["public.item", "com.apple.resolvable"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .executable }, "public.executable",
        declared: ["public.item"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .mountPoint }, "com.apple.mount-point",
        declared: ["public.item", "com.apple.resolvable"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .aliasFile }, "com.apple.alias-file",
        declared: ["public.data", "com.apple.resolvable"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .urlBookmarkData }, "com.apple.bookmark",
        declared: ["public.data", "com.apple.resolvable"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact({ .url }, "public.url", declared: ["public.data"], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact({ .fileURL }, "public.file-url", declared: ["public.url"], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .text }, "public.text",
        declared: ["public.data", "public.content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .plainText }, "public.plain-text",
        declared: ["public.text"],
        plist: [],
        extensions: ["txt", "text"],
        mimeTypes: ["text/plain"]
    ),
    SystemTypeFact(
        { .utf8PlainText }, "public.utf8-plain-text",
        declared: ["public.plain-text"],
        plist: [],
        extensions: [],
        mimeTypes: ["text/plain;charset=utf-8", "text/plain;charset=\"utf-8\""]
    ),
    SystemTypeFact(
        { .utf16ExternalPlainText }, "public.utf16-external-plain-text",
        declared: ["public.plain-text"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .utf16PlainText }, "public.utf16-plain-text",
        declared: ["public.plain-text"],
        plist: [],
        extensions: [],
        mimeTypes: ["text/plain;charset=utf-16", "text/plain;charset=\"utf-16\""]
    ),
    SystemTypeFact(
        { .delimitedText }, "public.delimited-values-text",
        declared: ["public.text"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .commaSeparatedText }, "public.comma-separated-values-text",
        declared: ["public.delimited-values-text"],
        plist: ["public.plain-text", "public.delimited-values-text"],
        extensions: ["csv"],
        mimeTypes: ["text/csv", "text/comma-separated-values"]
    ),
    SystemTypeFact(
        { .tabSeparatedText }, "public.tab-separated-values-text",
        declared: ["public.delimited-values-text"],
        plist: ["public.plain-text", "public.delimited-values-text"],
        extensions: ["tsv"],
        mimeTypes: ["text/tab-separated-values"]
    ),
    SystemTypeFact(
        { .utf8TabSeparatedText }, "public.utf8-tab-separated-values-text",
        declared: ["public.tab-separated-values-text", "public.utf8-plain-text"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .rtf }, "public.rtf",
        declared: ["public.text"],
        plist: [],
        extensions: ["rtf"],
        mimeTypes: ["text/rtf"]
    ),
    SystemTypeFact(
        { .html }, "public.html",
        declared: ["public.text"],
        plist: [],
        extensions: ["html", "htm", "shtml", "shtm"],
        mimeTypes: ["text/html"]
    ),
    SystemTypeFact(
        { .xml }, "public.xml",
        declared: ["public.text"],
        plist: [],
        extensions: ["xml"],
        mimeTypes: ["application/xml", "text/xml"]
    ),
    SystemTypeFact(
        { .yaml }, "public.yaml",
        declared: ["public.text"],
        plist: [],
        extensions: ["yml", "yaml"],
        mimeTypes: ["application/x-yaml"]
    ),
    SystemTypeFact(
        { .css }, "public.css",
        declared: ["public.text"],
        plist: [],
        extensions: ["css"],
        mimeTypes: ["text/css"]
    ),
    SystemTypeFact(
        { .sourceCode }, "public.source-code",
        declared: ["public.plain-text"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .assemblyLanguageSource }, "public.assembly-source",
        declared: ["public.source-code"],
        plist: [],
        extensions: ["s"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .cSource }, "public.c-source",
        declared: ["public.source-code"],
        plist: [],
        extensions: ["c"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .objectiveCSource }, "public.objective-c-source",
        declared: ["public.source-code"],
        plist: [],
        extensions: ["m"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .swiftSource }, "public.swift-source",
        declared: ["public.source-code"],
        plist: [],
        extensions: ["swift"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .cPlusPlusSource }, "public.c-plus-plus-source",
        declared: ["public.source-code"],
        plist: [],
        extensions: ["cp", "cpp", "c++", "cc", "cxx"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .objectiveCPlusPlusSource }, "public.objective-c-plus-plus-source",
        declared: ["public.source-code"],
        plist: [],
        extensions: ["mm"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .cHeader }, "public.c-header",
        declared: ["public.source-code"],
        plist: [],
        extensions: ["h"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .cPlusPlusHeader }, "public.c-plus-plus-header",
        declared: ["public.source-code"],
        plist: [],
        extensions: ["hh", "hp", "hpp", "hxx", "h++", "ipp"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .script }, "public.script",
        declared: ["public.source-code"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .appleScript }, "com.apple.applescript.text",
        declared: ["public.script"],
        plist: [],
        extensions: ["applescript"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .osaScript }, "com.apple.applescript.script",
        declared: ["public.data", "public.script"],
        plist: [],
        extensions: ["scpt"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .osaScriptBundle }, "com.apple.applescript.script-bundle",
        declared: ["com.apple.bundle", "com.apple.package", "public.script"],
        plist: ["com.apple.bundle", "com.apple.package"],
        extensions: ["scptd"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .javaScript }, "com.netscape.javascript-source",
        declared: ["public.source-code", "public.executable"],
        plist: ["public.script", "public.executable"],
        extensions: ["js", "jscript", "javascript", "mjs"],
        mimeTypes: ["text/javascript"]
    ),
    SystemTypeFact(
        { .shellScript }, "public.shell-script",
        declared: ["public.script"],
        plist: [],
        extensions: ["sh", "command"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .perlScript }, "public.perl-script",
        declared: ["public.shell-script"],
        plist: [],
        extensions: ["pl", "pm"],
        mimeTypes: ["text/x-perl-script"]
    ),
    SystemTypeFact(
        { .pythonScript }, "public.python-script",
        declared: ["public.shell-script"],
        plist: [],
        extensions: ["py"],
        mimeTypes: ["text/x-python-script"]
    ),
    SystemTypeFact(
        { .rubyScript }, "public.ruby-script",
        declared: ["public.shell-script"],
        plist: [],
        extensions: ["rb", "rbw"],
        mimeTypes: ["text/x-ruby-script", "text/ruby-script"]
    ),
    SystemTypeFact(
        { .phpScript }, "public.php-script",
        declared: ["public.shell-script"],
        plist: [],
        extensions: ["php", "php3", "php4", "ph3", "ph4", "phtml"],
        mimeTypes: ["text/php", "text/x-php-script", "application/php"]
    ),
    SystemTypeFact(
        { .makefile }, "public.make-source",
        declared: ["public.script"],
        plist: [],
        extensions: ["make", "mak", "gmk", "mk"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .json }, "public.json",
        declared: ["public.text"],
        plist: [],
        extensions: ["json"],
        mimeTypes: ["application/json"]
    ),
    SystemTypeFact(
        { .markdown }, "net.daringfireball.markdown",
        declared: ["public.utf8-plain-text"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .propertyList }, "com.apple.property-list",
        declared: ["public.data"],
        plist: [],
        extensions: ["plist"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .xmlPropertyList }, "com.apple.xml-property-list",
        declared: ["public.xml", "com.apple.property-list"],
        plist: [],
        extensions: ["plist"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .binaryPropertyList }, "com.apple.binary-property-list",
        declared: ["com.apple.property-list"],
        plist: [],
        extensions: ["plist"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .pdf }, "com.adobe.pdf",
        declared: ["public.data", "public.composite-content"],
        plist: [],
        extensions: ["pdf"],
        mimeTypes: ["application/pdf"]
    ),
    SystemTypeFact(
        { .rtfd }, "com.apple.rtfd",
        declared: ["com.apple.package", "public.composite-content"],
        plist: [],
        extensions: ["rtfd"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .flatRTFD }, "com.apple.flat-rtfd",
        declared: ["public.data", "public.composite-content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .webArchive }, "com.apple.webarchive",
        declared: ["public.data", "public.composite-content"],
        plist: [],
        extensions: ["webarchive"],
        mimeTypes: ["application/x-webarchive"]
    ),
    SystemTypeFact(
        { .image }, "public.image",
        declared: ["public.data", "public.content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .jpeg }, "public.jpeg",
        declared: ["public.image"],
        plist: [],
        extensions: ["jpeg", "jpg", "jpe"],
        mimeTypes: ["image/jpeg", "image/jpg"]
    ),
    SystemTypeFact(
        { .tiff }, "public.tiff",
        declared: ["public.image"],
        plist: [],
        extensions: ["tiff", "tif"],
        mimeTypes: ["image/tiff"]
    ),
    SystemTypeFact(
        { .gif }, "com.compuserve.gif",
        declared: ["public.image"],
        plist: [],
        extensions: ["gif"],
        mimeTypes: ["image/gif"]
    ),
    SystemTypeFact(
        { .png }, "public.png",
        declared: ["public.image"],
        plist: [],
        extensions: ["png"],
        mimeTypes: ["image/png"]
    ),
    SystemTypeFact(
        { .icns }, "com.apple.icns",
        declared: ["public.image"],
        plist: [],
        extensions: ["icns"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .bmp }, "com.microsoft.bmp",
        declared: ["public.image"],
        plist: [],
        extensions: ["bmp", "dib"],
        mimeTypes: ["image/bmp"]
    ),
    SystemTypeFact(
        { .ico }, "com.microsoft.ico",
        declared: ["public.image"],
        plist: [],
        extensions: ["ico"],
        mimeTypes: ["image/vnd.microsoft.icon"]
    ),
    SystemTypeFact(
        { .rawImage }, "public.camera-raw-image",
        declared: ["public.image"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .svg }, "public.svg-image",
        declared: ["public.image"],
        plist: ["public.image", "public.xml"],
        extensions: ["svg", "svgz"],
        mimeTypes: ["image/svg+xml"]
    ),
    SystemTypeFact({ .livePhoto }, "com.apple.live-photo", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .heif }, "public.heif",
        declared: ["public.heif-standard"],
        plist: [],
        extensions: ["heif", "hif"],
        mimeTypes: ["image/heif"]
    ),
    SystemTypeFact(
        { .heic }, "public.heic",
        declared: ["public.heif-standard"],
        plist: [],
        extensions: ["heic"],
        mimeTypes: ["image/heic"]
    ),
    SystemTypeFact(
        { .heics }, "public.heics",
        declared: ["public.heif-standard"],
        plist: [],
        extensions: ["heics"],
        mimeTypes: ["image/heic-sequence"]
    ),
    SystemTypeFact(
        { .webP }, "org.webmproject.webp",
        declared: ["public.image"],
        plist: [],
        extensions: ["webp"],
        mimeTypes: ["image/webp"]
    ),
    SystemTypeFact(
        { .exr }, "com.ilm.openexr-image",
        declared: ["public.image"],
        plist: [],
        extensions: ["exr"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .dng }, "com.adobe.raw-image",
        declared: ["public.image"],
        plist: [],
        extensions: ["dng"],
        mimeTypes: ["image/x-adobe-dng"]
    ),
    SystemTypeFact(
        { .jpegxl }, "public.jpeg-xl",
        declared: ["public.image"],
        plist: [],
        extensions: ["jxl"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .threeDContent }, "public.3d-content",
        declared: ["public.content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .usd }, "com.pixar.universal-scene-description",
        declared: ["public.3d-content", "public.data"],
        plist: [],
        extensions: ["usd", "usda", "usdc"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .usdz }, "com.pixar.universal-scene-description-mobile",
        declared: ["public.3d-content", "public.data"],
        plist: [],
        extensions: ["usdz"],
        mimeTypes: ["model/vnd.usdz+zip"]
    ),
    SystemTypeFact(
        { .realityFile }, "com.apple.reality",
        declared: ["public.data"],
        plist: [],
        extensions: ["reality"],
        mimeTypes: ["model/vnd.reality"]
    ),
    SystemTypeFact(
        { .sceneKitScene }, "com.apple.scenekit.scene",
        declared: ["public.3d-content", "public.data"],
        plist: [],
        extensions: ["scn", "scnz"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .arReferenceObject }, "com.apple.arobject",
        declared: ["public.data"],
        plist: [],
        extensions: ["arobject"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .audiovisualContent }, "public.audiovisual-content",
        declared: ["public.data", "public.content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .movie }, "public.movie",
        declared: ["public.audiovisual-content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact({ .video }, "public.video", declared: ["public.movie"], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .audio }, "public.audio",
        declared: ["public.audiovisual-content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .quickTimeMovie }, "com.apple.quicktime-movie",
        declared: ["public.movie"],
        plist: [],
        extensions: ["mov", "qt"],
        mimeTypes: ["video/quicktime"]
    ),
    SystemTypeFact(
        { .mpeg }, "public.mpeg",
        declared: ["public.movie"],
        plist: [],
        extensions: ["mpg", "mpeg", "mpe", "m75", "m15"],
        mimeTypes: ["video/mpeg", "video/mpg", "video/x-mpeg", "video/x-mpg"]
    ),
    SystemTypeFact(
        { .mpeg2Video }, "public.mpeg-2-video",
        declared: ["public.video"],
        plist: [],
        extensions: ["m2v"],
        mimeTypes: ["video/mpeg2", "video/mpeg2-video"]
    ),
    SystemTypeFact(
        { .mpeg2TransportStream }, "public.mpeg-2-transport-stream",
        declared: ["public.movie"],
        plist: [],
        extensions: ["ts"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .mp3 }, "public.mp3",
        declared: ["public.audio"],
        plist: [],
        extensions: ["mp3", "mpga"],
        mimeTypes: [
            "audio/mpeg", "audio/mpeg3", "audio/mpg", "audio/mp3", "audio/x-mpeg", "audio/x-mpeg3", "audio/x-mpg",
            "audio/x-mp3"
        ]
    ),
    SystemTypeFact(
        { .mpeg4Movie }, "public.mpeg-4",
        declared: ["public.movie"],
        plist: [],
        extensions: ["mp4", "mpg4"],
        mimeTypes: ["video/mp4", "video/mp4v-es", "video/mp4v"]
    ),
    SystemTypeFact(
        { .mpeg4Audio }, "public.mpeg-4-audio",
        declared: ["public.mpeg-4", "public.audio"],
        plist: ["public.audio"],
        extensions: ["mp4", "mpg4", "m4a"],
        mimeTypes: ["audio/mp4", "audio/mp4a-latm"]
    ),
    SystemTypeFact(
        { .appleProtectedMPEG4Audio }, "com.apple.protected-mpeg-4-audio",
        declared: ["public.audio"],
        plist: [],
        extensions: ["m4p", "m4b"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .appleProtectedMPEG4Video }, "com.apple.protected-mpeg-4-video",
        declared: ["com.apple.m4v-video"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .avi }, "public.avi",
        declared: ["public.movie"],
        plist: [],
        extensions: ["avi", "vfw"],
        mimeTypes: ["video/avi", "video/msvideo", "video/x-msvideo"]
    ),
    SystemTypeFact(
        { .aiff }, "public.aiff-audio",
        declared: ["public.aifc-audio"],
        plist: [],
        extensions: ["aiff", "aif"],
        mimeTypes: ["audio/aiff", "audio/x-aiff"]
    ),
    SystemTypeFact(
        { .wav }, "com.microsoft.waveform-audio",
        declared: ["public.audio"],
        plist: [],
        extensions: ["wav", "wave", "bwf"],
        mimeTypes: ["audio/vnd.wave", "audio/wav", "audio/wave", "audio/x-wav"]
    ),
    SystemTypeFact(
        { .midi }, "public.midi-audio",
        declared: ["public.audio"],
        plist: [],
        extensions: ["midi", "mid", "smf", "kar"],
        mimeTypes: ["audio/midi", "audio/x-midi"]
    ),
    SystemTypeFact({ .playlist }, "public.playlist", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .m3uPlaylist }, "public.m3u-playlist",
        declared: ["public.text", "public.playlist"],
        plist: ["public.plain-text", "public.playlist"],
        extensions: ["m3u", "m3u8"],
        mimeTypes: ["audio/mpegurl", "application/vnd.apple.mpegurl", "audio/x-mpegurl"]
    ),
    SystemTypeFact(
        { .folder }, "public.folder", declared: ["public.directory"], plist: [], extensions: [], mimeTypes: []
    ),
    SystemTypeFact({ .volume }, "public.volume", declared: ["public.folder"], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .package }, "com.apple.package",
        declared: ["public.directory"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .bundle }, "com.apple.bundle",
        declared: ["public.directory"],
        plist: [],
        extensions: ["bundle"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .pluginBundle }, "com.apple.plugin",
        declared: ["com.apple.bundle", "com.apple.package"],
        plist: [],
        extensions: ["plugin"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .spotlightImporter }, "com.apple.metadata-importer",
        declared: ["com.apple.plugin"],
        plist: [],
        extensions: ["mdimporter"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .quickLookGenerator }, "com.apple.quicklook-generator",
        declared: ["com.apple.plugin"],
        plist: [],
        extensions: ["qlgenerator"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .xpcService }, "com.apple.xpc-service",
        declared: ["com.apple.bundle", "com.apple.package"],
        plist: [],
        extensions: ["xpc"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .framework }, "com.apple.framework",
        declared: ["com.apple.bundle"],
        plist: [],
        extensions: ["framework"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .application }, "com.apple.application",
        declared: ["public.executable"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .applicationBundle }, "com.apple.application-bundle",
        declared: ["com.apple.application", "com.apple.bundle", "com.apple.package"],
        plist: ["com.apple.application", "com.apple.localizable-name-bundle", "com.apple.package"],
        extensions: ["app"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .applicationExtension }, "com.apple.application-and-system-extension",
        declared: ["com.apple.xpc-service"],
        plist: [],
        extensions: ["appex"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .unixExecutable }, "public.unix-executable",
        declared: ["public.data", "public.executable"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .exe }, "com.microsoft.windows-executable",
        declared: ["public.data", "public.executable"],
        plist: [],
        extensions: ["exe"],
        mimeTypes: ["application/x-msdownload"]
    ),
    SystemTypeFact(
        { .systemPreferencesPane }, "com.apple.systempreference.prefpane",
        declared: ["com.apple.package", "com.apple.bundle"],
        plist: [],
        extensions: ["prefPane"],
        mimeTypes: []
    ),
    SystemTypeFact({ .archive }, "public.archive", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .gzip }, "org.gnu.gnu-zip-archive",
        declared: ["public.data", "public.archive"],
        plist: [],
        extensions: ["gz", "gzip"],
        mimeTypes: ["application/x-gzip", "application/gzip"]
    ),
    SystemTypeFact(
        { .bz2 }, "public.bzip2-archive",
        declared: ["public.data", "public.archive"],
        plist: [],
        extensions: ["bz2", "bz"],
        mimeTypes: [
            "application/x-bzip2", "application/x-bzip", "application/bzip2", "application/bzip", "application/x-bz2"
        ]
    ),
    SystemTypeFact(
        { .zip }, "public.zip-archive",
        declared: ["com.pkware.zip-archive"],
        plist: [],
        extensions: ["zip"],
        mimeTypes: ["application/zip", "application/x-zip-compressed"]
    ),
    SystemTypeFact(
        { .appleArchive }, "com.apple.archive",
        declared: ["public.data", "public.archive"],
        plist: [],
        extensions: ["aar", "yaa"],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .tarArchive }, "public.tar-archive",
        declared: ["public.data", "public.archive"],
        plist: ["org.gnu.gnu-tar-archive"],
        extensions: ["tar"],
        mimeTypes: ["application/x-tar", "application/tar"]
    ),
    SystemTypeFact(
        { .spreadsheet }, "public.spreadsheet",
        declared: ["public.content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .presentation }, "public.presentation",
        declared: ["public.composite-content"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact({ .database }, "public.database", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact({ .message }, "public.message", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact({ .contact }, "public.contact", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .vCard }, "public.vcard",
        declared: ["public.text", "public.contact"],
        plist: [],
        extensions: ["vcf", "vcard"],
        mimeTypes: ["text/vcard", "text/directory", "text/x-vcard"]
    ),
    SystemTypeFact({ .toDoItem }, "public.to-do-item", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact({ .calendarEvent }, "public.calendar-event", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .emailMessage }, "public.email-message",
        declared: ["public.message"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .internetLocation }, "com.apple.internet-location",
        declared: ["public.data"],
        plist: ["public.stored-url", "public.data"],
        extensions: [],
        mimeTypes: []
    ),
    SystemTypeFact(
        { .internetShortcut }, "com.microsoft.internet-shortcut",
        declared: ["public.data"],
        plist: ["public.stored-url", "public.data"],
        extensions: ["url"],
        mimeTypes: []
    ),
    SystemTypeFact({ .font }, "public.font", declared: [], plist: ["public.data"], extensions: [], mimeTypes: []),
    SystemTypeFact({ .bookmark }, "public.bookmark", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .pkcs12 }, "com.rsa.pkcs-12",
        declared: ["public.data"],
        plist: [],
        extensions: ["p12", "pfx"],
        mimeTypes: ["application/x-pkcs12"]
    ),
    SystemTypeFact(
        { .x509Certificate }, "public.x509-certificate",
        declared: ["public.data"],
        plist: [],
        extensions: ["cer", "der", "crt", "pem"],
        mimeTypes: ["application/x-x509-ca-cert"]
    ),
    SystemTypeFact(
        { .epub }, "org.idpf.epub-container",
        declared: ["public.data", "public.composite-content"],
        plist: [],
        extensions: ["epub"],
        mimeTypes: ["application/epub+zip"]
    ),
    SystemTypeFact({ .log }, "public.log", declared: [], plist: ["public.item"], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .ahap }, "com.apple.haptics.ahap",
        declared: [],
        plist: ["public.haptics-content", "public.json"],
        extensions: ["ahap"],
        mimeTypes: []
    ),
    SystemTypeFact({ .geoJSON }, "public.geojson", declared: [], plist: [], extensions: [], mimeTypes: []),
    SystemTypeFact(
        { .linkPresentationMetadata }, "com.apple.linkpresentation.metadata",
        declared: ["public.data"],
        plist: [],
        extensions: [],
        mimeTypes: []
    ),
]
