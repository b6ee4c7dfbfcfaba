// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes
//
// Catalogue file: the built-in declarations, transcribed from
// shared/reference/UniformTypeIdentifiers-API.md §5 (the 141 static constants) and §5.2 (the
// non-constant parents that close the hierarchy, plus a few commonly looked-up system types).
//
// Parents: the union of the SDK header's "conforms to" line and the macOS CoreTypes plist's
// `UTTypeConformsTo` (header order first), because both are real conformances and `conforms(to:)` on
// macOS follows the plist (e.g. public.comma-separated-values-text conforms to public.plain-text).
// Tags: as the reference lists them, first = preferred; tags the old UTIRef table adds (marked ᴬ
// in the reference) are kept after the plist's. Tags the reference could not verify ("?") are left
// out of `tags` (see TagAliases.swift for lookup-only aliases such as text/markdown).

import FoundationEssentials

/// The built-in table, in reference order. Table order breaks ties between types that share a tag
/// (`mp4` → public.mpeg-4 before public.mpeg-4-audio; `plist` → com.apple.property-list).
enum SystemDeclarations {
    /// The records of the 141 `UTType` static constants, then the supporting system types.
    static let records: [TypeRecord] = constants + supporting

    /// One record per Apple static constant (reference §5, rows 1–141).
    static let constants: [TypeRecord] = [
        TypeRecord(system: "public.item", conformsTo: [], filenameExtensions: [], mimeTypes: [], description: "item"),
        TypeRecord(
            system: "public.content",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "content"
        ),
        TypeRecord(
            system: "public.composite-content",
            conformsTo: ["public.content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "composite content"
        ),
        TypeRecord(
            system: "public.disk-image",
            conformsTo: ["public.archive"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "disk image"
        ),
        TypeRecord(
            system: "public.data",
            conformsTo: ["public.item"],
            filenameExtensions: [],
            mimeTypes: ["application/octet-stream"],
            description: "data"
        ),
        TypeRecord(
            system: "public.directory",
            conformsTo: ["public.item"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "directory"
        ),
        TypeRecord(
            system: "com.apple.resolvable",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "resolvable item"
        ),
        TypeRecord(
            system: "public.symlink",
            conformsTo: ["public.item", "com.apple.resolvable"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "symbolic link"
        ),
        TypeRecord(
            system: "public.executable",
            conformsTo: ["public.item"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "executable"
        ),
        TypeRecord(
            system: "com.apple.mount-point",
            conformsTo: ["public.item", "com.apple.resolvable"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "mount point"
        ),
        TypeRecord(
            system: "com.apple.alias-file",
            conformsTo: ["public.data", "com.apple.resolvable"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "alias"
        ),
        TypeRecord(
            system: "com.apple.bookmark",
            conformsTo: ["public.data", "com.apple.resolvable"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "URL bookmark data"
        ),
        TypeRecord(
            system: "public.url",
            conformsTo: ["public.data"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "URL"
        ),
        TypeRecord(
            system: "public.file-url",
            conformsTo: ["public.url"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "file URL"
        ),
        TypeRecord(
            system: "public.text",
            conformsTo: ["public.data", "public.content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "text"
        ),
        TypeRecord(
            system: "public.plain-text",
            conformsTo: ["public.text"],
            filenameExtensions: ["txt", "text"],
            mimeTypes: ["text/plain"],
            description: "plain text"
        ),
        TypeRecord(
            system: "public.utf8-plain-text",
            conformsTo: ["public.plain-text"],
            filenameExtensions: [],
            mimeTypes: ["text/plain;charset=utf-8", "text/plain;charset=\"utf-8\""],
            description: "UTF-8 plain text"
        ),
        TypeRecord(
            system: "public.utf16-external-plain-text",
            conformsTo: ["public.plain-text"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "UTF-16 external plain text"
        ),
        TypeRecord(
            system: "public.utf16-plain-text",
            conformsTo: ["public.plain-text"],
            filenameExtensions: [],
            mimeTypes: ["text/plain;charset=utf-16", "text/plain;charset=\"utf-16\""],
            description: "UTF-16 plain text"
        ),
        TypeRecord(
            system: "public.delimited-values-text",
            conformsTo: ["public.text"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "delimited text"
        ),
        TypeRecord(
            system: "public.comma-separated-values-text",
            conformsTo: ["public.delimited-values-text", "public.plain-text"],
            filenameExtensions: ["csv"],
            mimeTypes: ["text/csv", "text/comma-separated-values"],
            description: "comma-separated values"
        ),
        TypeRecord(
            system: "public.tab-separated-values-text",
            conformsTo: ["public.delimited-values-text", "public.plain-text"],
            filenameExtensions: ["tsv"],
            mimeTypes: ["text/tab-separated-values"],
            description: "tab-separated values"
        ),
        TypeRecord(
            system: "public.utf8-tab-separated-values-text",
            conformsTo: ["public.tab-separated-values-text", "public.utf8-plain-text"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "UTF-8 tab-separated values"
        ),
        TypeRecord(
            system: "public.rtf",
            conformsTo: ["public.text"],
            filenameExtensions: ["rtf"],
            mimeTypes: ["text/rtf"],
            description: "rich text (RTF)"
        ),
        TypeRecord(
            system: "public.html",
            conformsTo: ["public.text"],
            filenameExtensions: ["html", "htm", "shtml", "shtm"],
            mimeTypes: ["text/html"],
            description: "HTML text"
        ),
        TypeRecord(
            system: "public.xml",
            conformsTo: ["public.text"],
            filenameExtensions: ["xml"],
            mimeTypes: ["application/xml", "text/xml"],
            description: "XML text"
        ),
        TypeRecord(
            system: "public.yaml",
            conformsTo: ["public.text"],
            filenameExtensions: ["yml", "yaml"],
            mimeTypes: ["application/x-yaml"],
            description: "YAML text"
        ),
        TypeRecord(
            system: "public.css",
            conformsTo: ["public.text"],
            filenameExtensions: ["css"],
            mimeTypes: ["text/css"],
            description: "CSS style sheet"
        ),
        TypeRecord(
            system: "public.source-code",
            conformsTo: ["public.plain-text"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "source code"
        ),
        TypeRecord(
            system: "public.assembly-source",
            conformsTo: ["public.source-code"],
            filenameExtensions: ["s"],
            mimeTypes: [],
            description: "assembly language source"
        ),
        TypeRecord(
            system: "public.c-source",
            conformsTo: ["public.source-code"],
            filenameExtensions: ["c"],
            mimeTypes: [],
            description: "C source"
        ),
        TypeRecord(
            system: "public.objective-c-source",
            conformsTo: ["public.source-code"],
            filenameExtensions: ["m"],
            mimeTypes: [],
            description: "Objective-C source"
        ),
        TypeRecord(
            system: "public.swift-source",
            conformsTo: ["public.source-code"],
            filenameExtensions: ["swift"],
            mimeTypes: [],
            description: "Swift source"
        ),
        TypeRecord(
            system: "public.c-plus-plus-source",
            conformsTo: ["public.source-code"],
            filenameExtensions: ["cp", "cpp", "c++", "cc", "cxx"],
            mimeTypes: [],
            description: "C++ source"
        ),
        TypeRecord(
            system: "public.objective-c-plus-plus-source",
            conformsTo: ["public.source-code"],
            filenameExtensions: ["mm"],
            mimeTypes: [],
            description: "Objective-C++ source"
        ),
        TypeRecord(
            system: "public.c-header",
            conformsTo: ["public.source-code"],
            filenameExtensions: ["h"],
            mimeTypes: [],
            description: "C header"
        ),
        TypeRecord(
            system: "public.c-plus-plus-header",
            conformsTo: ["public.source-code"],
            filenameExtensions: ["hh", "hp", "hpp", "hxx", "h++", "ipp"],
            mimeTypes: [],
            description: "C++ header"
        ),
        TypeRecord(
            system: "public.script",
            conformsTo: ["public.source-code"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "script"
        ),
        TypeRecord(
            system: "com.apple.applescript.text",
            conformsTo: ["public.script"],
            filenameExtensions: ["applescript"],
            mimeTypes: [],
            description: "AppleScript text"
        ),
        TypeRecord(
            system: "com.apple.applescript.script",
            conformsTo: ["public.data", "public.script"],
            filenameExtensions: ["scpt"],
            mimeTypes: [],
            description: "OSA script"
        ),
        TypeRecord(
            system: "com.apple.applescript.script-bundle",
            conformsTo: ["com.apple.bundle", "com.apple.package", "public.script"],
            filenameExtensions: ["scptd"],
            mimeTypes: [],
            description: "OSA script bundle"
        ),
        TypeRecord(
            system: "com.netscape.javascript-source",
            conformsTo: ["public.source-code", "public.executable", "public.script"],
            filenameExtensions: ["js", "jscript", "javascript", "mjs"],
            mimeTypes: ["text/javascript"],
            description: "JavaScript source"
        ),
        TypeRecord(
            system: "public.shell-script",
            conformsTo: ["public.script"],
            filenameExtensions: ["sh", "command"],
            mimeTypes: [],
            description: "shell script"
        ),
        TypeRecord(
            system: "public.perl-script",
            conformsTo: ["public.shell-script"],
            filenameExtensions: ["pl", "pm"],
            mimeTypes: ["text/x-perl-script"],
            description: "Perl script"
        ),
        TypeRecord(
            system: "public.python-script",
            conformsTo: ["public.shell-script"],
            filenameExtensions: ["py"],
            mimeTypes: ["text/x-python-script"],
            description: "Python script"
        ),
        TypeRecord(
            system: "public.ruby-script",
            conformsTo: ["public.shell-script"],
            filenameExtensions: ["rb", "rbw"],
            mimeTypes: ["text/x-ruby-script", "text/ruby-script"],
            description: "Ruby script"
        ),
        TypeRecord(
            system: "public.php-script",
            conformsTo: ["public.shell-script"],
            filenameExtensions: ["php", "php3", "php4", "ph3", "ph4", "phtml"],
            mimeTypes: ["text/php", "text/x-php-script", "application/php"],
            description: "PHP script"
        ),
        TypeRecord(
            system: "public.make-source",
            conformsTo: ["public.script"],
            filenameExtensions: ["make", "mak", "gmk", "mk"],
            mimeTypes: [],
            description: "Makefile"
        ),
        TypeRecord(
            system: "public.json",
            conformsTo: ["public.text"],
            filenameExtensions: ["json"],
            mimeTypes: ["application/json"],
            description: "JSON"
        ),
        TypeRecord(
            system: "net.daringfireball.markdown",
            conformsTo: ["public.utf8-plain-text"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "Markdown text"
        ),
        TypeRecord(
            system: "com.apple.property-list",
            conformsTo: ["public.data"],
            filenameExtensions: ["plist"],
            mimeTypes: [],
            description: "property list"
        ),
        TypeRecord(
            system: "com.apple.xml-property-list",
            conformsTo: ["public.xml", "com.apple.property-list"],
            filenameExtensions: ["plist"],
            mimeTypes: [],
            description: "XML property list"
        ),
        TypeRecord(
            system: "com.apple.binary-property-list",
            conformsTo: ["com.apple.property-list"],
            filenameExtensions: ["plist"],
            mimeTypes: [],
            description: "binary property list"
        ),
        TypeRecord(
            system: "com.adobe.pdf",
            conformsTo: ["public.data", "public.composite-content"],
            filenameExtensions: ["pdf"],
            mimeTypes: ["application/pdf"],
            description: "PDF document"
        ),
        TypeRecord(
            system: "com.apple.rtfd",
            conformsTo: ["com.apple.package", "public.composite-content"],
            filenameExtensions: ["rtfd"],
            mimeTypes: [],
            description: "rich text with attachments (RTFD)"
        ),
        TypeRecord(
            system: "com.apple.flat-rtfd",
            conformsTo: ["public.data", "public.composite-content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "flat RTFD"
        ),
        TypeRecord(
            system: "com.apple.webarchive",
            conformsTo: ["public.data", "public.composite-content"],
            filenameExtensions: ["webarchive"],
            mimeTypes: ["application/x-webarchive"],
            description: "web archive"
        ),
        TypeRecord(
            system: "public.image",
            conformsTo: ["public.data", "public.content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "image"
        ),
        TypeRecord(
            system: "public.jpeg",
            conformsTo: ["public.image"],
            filenameExtensions: ["jpeg", "jpg", "jpe"],
            mimeTypes: ["image/jpeg", "image/jpg"],
            description: "JPEG image"
        ),
        TypeRecord(
            system: "public.tiff",
            conformsTo: ["public.image"],
            filenameExtensions: ["tiff", "tif"],
            mimeTypes: ["image/tiff"],
            description: "TIFF image"
        ),
        TypeRecord(
            system: "com.compuserve.gif",
            conformsTo: ["public.image"],
            filenameExtensions: ["gif"],
            mimeTypes: ["image/gif"],
            description: "GIF image"
        ),
        TypeRecord(
            system: "public.png",
            conformsTo: ["public.image"],
            filenameExtensions: ["png"],
            mimeTypes: ["image/png"],
            description: "PNG image"
        ),
        TypeRecord(
            system: "com.apple.icns",
            conformsTo: ["public.image"],
            filenameExtensions: ["icns"],
            mimeTypes: [],
            description: "Apple icon image"
        ),
        TypeRecord(
            system: "com.microsoft.bmp",
            conformsTo: ["public.image"],
            filenameExtensions: ["bmp", "dib"],
            mimeTypes: ["image/bmp"],
            description: "BMP image"
        ),
        TypeRecord(
            system: "com.microsoft.ico",
            conformsTo: ["public.image"],
            filenameExtensions: ["ico"],
            mimeTypes: ["image/vnd.microsoft.icon"],
            description: "Windows icon image"
        ),
        TypeRecord(
            system: "public.camera-raw-image",
            conformsTo: ["public.image"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "camera raw image"
        ),
        TypeRecord(
            system: "public.svg-image",
            conformsTo: ["public.image", "public.xml"],
            filenameExtensions: ["svg", "svgz"],
            mimeTypes: ["image/svg+xml"],
            description: "SVG image"
        ),
        TypeRecord(
            system: "com.apple.live-photo",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "Live Photo"
        ),
        TypeRecord(
            system: "public.heif",
            conformsTo: ["public.heif-standard"],
            filenameExtensions: ["heif", "hif"],
            mimeTypes: ["image/heif"],
            description: "HEIF image"
        ),
        TypeRecord(
            system: "public.heic",
            conformsTo: ["public.heif-standard"],
            filenameExtensions: ["heic"],
            mimeTypes: ["image/heic"],
            description: "HEIC image"
        ),
        TypeRecord(
            system: "public.heics",
            conformsTo: ["public.heif-standard"],
            filenameExtensions: ["heics"],
            mimeTypes: ["image/heic-sequence"],
            description: "HEIC image sequence"
        ),
        TypeRecord(
            system: "org.webmproject.webp",
            conformsTo: ["public.image"],
            filenameExtensions: ["webp"],
            mimeTypes: ["image/webp"],
            description: "WebP image"
        ),
        TypeRecord(
            system: "com.ilm.openexr-image",
            conformsTo: ["public.image"],
            filenameExtensions: ["exr"],
            mimeTypes: [],
            description: "OpenEXR image"
        ),
        TypeRecord(
            system: "com.adobe.raw-image",
            conformsTo: ["public.image"],
            filenameExtensions: ["dng"],
            mimeTypes: ["image/x-adobe-dng"],
            description: "DNG raw image"
        ),
        TypeRecord(
            system: "public.jpeg-xl",
            conformsTo: ["public.image"],
            filenameExtensions: ["jxl"],
            mimeTypes: [],
            description: "JPEG XL image"
        ),
        TypeRecord(
            system: "public.3d-content",
            conformsTo: ["public.content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "3D content"
        ),
        TypeRecord(
            system: "com.pixar.universal-scene-description",
            conformsTo: ["public.3d-content", "public.data"],
            filenameExtensions: ["usd", "usda", "usdc"],
            mimeTypes: [],
            description: "Universal Scene Description"
        ),
        TypeRecord(
            system: "com.pixar.universal-scene-description-mobile",
            conformsTo: ["public.3d-content", "public.data"],
            filenameExtensions: ["usdz"],
            mimeTypes: ["model/vnd.usdz+zip"],
            description: "Universal Scene Description (mobile)"
        ),
        TypeRecord(
            system: "com.apple.reality",
            conformsTo: ["public.data"],
            filenameExtensions: ["reality"],
            mimeTypes: ["model/vnd.reality"],
            description: "Reality file"
        ),
        TypeRecord(
            system: "com.apple.scenekit.scene",
            conformsTo: ["public.3d-content", "public.data"],
            filenameExtensions: ["scn", "scnz"],
            mimeTypes: [],
            description: "SceneKit scene"
        ),
        TypeRecord(
            system: "com.apple.arobject",
            conformsTo: ["public.data"],
            filenameExtensions: ["arobject"],
            mimeTypes: [],
            description: "AR reference object"
        ),
        TypeRecord(
            system: "public.audiovisual-content",
            conformsTo: ["public.data", "public.content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "audiovisual content"
        ),
        TypeRecord(
            system: "public.movie",
            conformsTo: ["public.audiovisual-content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "movie"
        ),
        TypeRecord(
            system: "public.video",
            conformsTo: ["public.movie"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "video"
        ),
        TypeRecord(
            system: "public.audio",
            conformsTo: ["public.audiovisual-content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "audio"
        ),
        TypeRecord(
            system: "com.apple.quicktime-movie",
            conformsTo: ["public.movie"],
            filenameExtensions: ["mov", "qt"],
            mimeTypes: ["video/quicktime"],
            description: "QuickTime movie"
        ),
        TypeRecord(
            system: "public.mpeg",
            conformsTo: ["public.movie"],
            filenameExtensions: ["mpg", "mpeg", "mpe", "m75", "m15"],
            mimeTypes: ["video/mpeg", "video/mpg", "video/x-mpeg", "video/x-mpg"],
            description: "MPEG movie"
        ),
        TypeRecord(
            system: "public.mpeg-2-video",
            conformsTo: ["public.video"],
            filenameExtensions: ["m2v"],
            mimeTypes: ["video/mpeg2", "video/mpeg2-video"],
            description: "MPEG-2 video"
        ),
        TypeRecord(
            system: "public.mpeg-2-transport-stream",
            conformsTo: ["public.movie"],
            filenameExtensions: ["ts"],
            mimeTypes: [],
            description: "MPEG-2 transport stream"
        ),
        TypeRecord(
            system: "public.mp3",
            conformsTo: ["public.audio"],
            filenameExtensions: ["mp3", "mpga"],
            mimeTypes: [
                "audio/mpeg", "audio/mpeg3", "audio/mpg", "audio/mp3", "audio/x-mpeg", "audio/x-mpeg3", "audio/x-mpg",
                "audio/x-mp3"
            ],
            description: "MP3 audio"
        ),
        TypeRecord(
            system: "public.mpeg-4",
            conformsTo: ["public.movie"],
            filenameExtensions: ["mp4", "mpg4"],
            mimeTypes: ["video/mp4", "video/mp4v-es", "video/mp4v"],
            description: "MPEG-4 movie"
        ),
        TypeRecord(
            system: "public.mpeg-4-audio",
            conformsTo: ["public.mpeg-4", "public.audio"],
            filenameExtensions: ["mp4", "mpg4", "m4a"],
            mimeTypes: ["audio/mp4", "audio/mp4a-latm"],
            description: "MPEG-4 audio"
        ),
        TypeRecord(
            system: "com.apple.protected-mpeg-4-audio",
            conformsTo: ["public.audio"],
            filenameExtensions: ["m4p", "m4b"],
            mimeTypes: [],
            description: "protected MPEG-4 audio"
        ),
        TypeRecord(
            system: "com.apple.protected-mpeg-4-video",
            conformsTo: ["com.apple.m4v-video"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "protected MPEG-4 video"
        ),
        TypeRecord(
            system: "public.avi",
            conformsTo: ["public.movie"],
            filenameExtensions: ["avi", "vfw"],
            mimeTypes: ["video/avi", "video/msvideo", "video/x-msvideo"],
            description: "AVI movie"
        ),
        TypeRecord(
            system: "public.aiff-audio",
            conformsTo: ["public.aifc-audio"],
            filenameExtensions: ["aiff", "aif"],
            mimeTypes: ["audio/aiff", "audio/x-aiff"],
            description: "AIFF audio"
        ),
        TypeRecord(
            system: "com.microsoft.waveform-audio",
            conformsTo: ["public.audio"],
            filenameExtensions: ["wav", "wave", "bwf"],
            mimeTypes: ["audio/vnd.wave", "audio/wav", "audio/wave", "audio/x-wav"],
            description: "Waveform audio"
        ),
        TypeRecord(
            system: "public.midi-audio",
            conformsTo: ["public.audio"],
            filenameExtensions: ["midi", "mid", "smf", "kar"],
            mimeTypes: ["audio/midi", "audio/x-midi"],
            description: "MIDI audio"
        ),
        TypeRecord(
            system: "public.playlist",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "playlist"
        ),
        TypeRecord(
            system: "public.m3u-playlist",
            conformsTo: ["public.text", "public.playlist", "public.plain-text"],
            filenameExtensions: ["m3u", "m3u8"],
            mimeTypes: ["audio/mpegurl", "application/vnd.apple.mpegurl", "audio/x-mpegurl"],
            description: "M3U playlist"
        ),
        TypeRecord(
            system: "public.folder",
            conformsTo: ["public.directory"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "folder"
        ),
        TypeRecord(
            system: "public.volume",
            conformsTo: ["public.folder"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "volume"
        ),
        TypeRecord(
            system: "com.apple.package",
            conformsTo: ["public.directory"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "package"
        ),
        TypeRecord(
            system: "com.apple.bundle",
            conformsTo: ["public.directory"],
            filenameExtensions: ["bundle"],
            mimeTypes: [],
            description: "bundle"
        ),
        TypeRecord(
            system: "com.apple.plugin",
            conformsTo: ["com.apple.bundle", "com.apple.package"],
            filenameExtensions: ["plugin"],
            mimeTypes: [],
            description: "plug-in"
        ),
        TypeRecord(
            system: "com.apple.metadata-importer",
            conformsTo: ["com.apple.plugin"],
            filenameExtensions: ["mdimporter"],
            mimeTypes: [],
            description: "Spotlight importer"
        ),
        TypeRecord(
            system: "com.apple.quicklook-generator",
            conformsTo: ["com.apple.plugin"],
            filenameExtensions: ["qlgenerator"],
            mimeTypes: [],
            description: "Quick Look generator"
        ),
        TypeRecord(
            system: "com.apple.xpc-service",
            conformsTo: ["com.apple.bundle", "com.apple.package"],
            filenameExtensions: ["xpc"],
            mimeTypes: [],
            description: "XPC service"
        ),
        TypeRecord(
            system: "com.apple.framework",
            conformsTo: ["com.apple.bundle"],
            filenameExtensions: ["framework"],
            mimeTypes: [],
            description: "framework"
        ),
        TypeRecord(
            system: "com.apple.application",
            conformsTo: ["public.executable"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "application"
        ),
        TypeRecord(
            system: "com.apple.application-bundle",
            conformsTo: [
                "com.apple.application", "com.apple.bundle", "com.apple.package", "com.apple.localizable-name-bundle"
            ],
            filenameExtensions: ["app"],
            mimeTypes: [],
            description: "application bundle"
        ),
        TypeRecord(
            system: "com.apple.application-and-system-extension",
            conformsTo: ["com.apple.xpc-service"],
            filenameExtensions: ["appex"],
            mimeTypes: [],
            description: "application extension"
        ),
        TypeRecord(
            system: "public.unix-executable",
            conformsTo: ["public.data", "public.executable"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "Unix executable"
        ),
        TypeRecord(
            system: "com.microsoft.windows-executable",
            conformsTo: ["public.data", "public.executable"],
            filenameExtensions: ["exe"],
            mimeTypes: ["application/x-msdownload"],
            description: "Windows executable"
        ),
        TypeRecord(
            system: "com.apple.systempreference.prefpane",
            conformsTo: ["com.apple.package", "com.apple.bundle"],
            filenameExtensions: ["prefPane"],
            mimeTypes: [],
            description: "System Preferences pane"
        ),
        TypeRecord(
            system: "public.archive",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "archive"
        ),
        TypeRecord(
            system: "org.gnu.gnu-zip-archive",
            conformsTo: ["public.data", "public.archive"],
            filenameExtensions: ["gz", "gzip"],
            mimeTypes: ["application/x-gzip", "application/gzip"],
            description: "gzip archive"
        ),
        TypeRecord(
            system: "public.bzip2-archive",
            conformsTo: ["public.data", "public.archive"],
            filenameExtensions: ["bz2", "bz"],
            mimeTypes: [
                "application/x-bzip2", "application/x-bzip", "application/bzip2", "application/bzip",
                "application/x-bz2"
            ],
            description: "bzip2 archive"
        ),
        TypeRecord(
            system: "public.zip-archive",
            conformsTo: ["com.pkware.zip-archive"],
            filenameExtensions: ["zip"],
            mimeTypes: ["application/zip", "application/x-zip-compressed"],
            description: "ZIP archive"
        ),
        TypeRecord(
            system: "com.apple.archive",
            conformsTo: ["public.data", "public.archive"],
            filenameExtensions: ["aar", "yaa"],
            mimeTypes: [],
            description: "Apple archive"
        ),
        TypeRecord(
            system: "public.tar-archive",
            conformsTo: ["public.data", "public.archive", "org.gnu.gnu-tar-archive"],
            filenameExtensions: ["tar"],
            mimeTypes: ["application/x-tar", "application/tar"],
            description: "tar archive"
        ),
        TypeRecord(
            system: "public.spreadsheet",
            conformsTo: ["public.content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "spreadsheet"
        ),
        TypeRecord(
            system: "public.presentation",
            conformsTo: ["public.composite-content"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "presentation"
        ),
        TypeRecord(
            system: "public.database",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "database"
        ),
        TypeRecord(
            system: "public.message",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "message"
        ),
        TypeRecord(
            system: "public.contact",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "contact"
        ),
        TypeRecord(
            system: "public.vcard",
            conformsTo: ["public.text", "public.contact"],
            filenameExtensions: ["vcf", "vcard"],
            mimeTypes: ["text/vcard", "text/directory", "text/x-vcard"],
            description: "vCard"
        ),
        TypeRecord(
            system: "public.to-do-item",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "to-do item"
        ),
        TypeRecord(
            system: "public.calendar-event",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "calendar event"
        ),
        TypeRecord(
            system: "public.email-message",
            conformsTo: ["public.message"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "email message"
        ),
        TypeRecord(
            system: "com.apple.internet-location",
            conformsTo: ["public.data", "public.stored-url"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "Internet location"
        ),
        TypeRecord(
            system: "com.microsoft.internet-shortcut",
            conformsTo: ["public.data", "public.stored-url"],
            filenameExtensions: ["url"],
            mimeTypes: [],
            description: "Internet shortcut"
        ),
        TypeRecord(
            system: "public.font",
            conformsTo: ["public.data"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "font"
        ),
        TypeRecord(
            system: "public.bookmark",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "bookmark"
        ),
        TypeRecord(
            system: "com.rsa.pkcs-12",
            conformsTo: ["public.data"],
            filenameExtensions: ["p12", "pfx"],
            mimeTypes: ["application/x-pkcs12"],
            description: "PKCS #12 archive"
        ),
        TypeRecord(
            system: "public.x509-certificate",
            conformsTo: ["public.data"],
            filenameExtensions: ["cer", "der", "crt", "pem"],
            mimeTypes: ["application/x-x509-ca-cert"],
            description: "X.509 certificate"
        ),
        TypeRecord(
            system: "org.idpf.epub-container",
            conformsTo: ["public.data", "public.composite-content"],
            filenameExtensions: ["epub"],
            mimeTypes: ["application/epub+zip"],
            description: "EPUB document"
        ),
        TypeRecord(
            system: "public.log",
            conformsTo: ["public.item"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "log"
        ),
        TypeRecord(
            system: "com.apple.haptics.ahap",
            conformsTo: ["public.haptics-content", "public.json"],
            filenameExtensions: ["ahap"],
            mimeTypes: [],
            description: "Apple haptic pattern"
        ),
        TypeRecord(
            system: "public.geojson",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "GeoJSON"
        ),
        TypeRecord(
            system: "com.apple.linkpresentation.metadata",
            conformsTo: ["public.data"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "link presentation metadata"
        ),
    ]

    /// Non-constant system types: the parents that close the hierarchy (reference §5.2) and the
    /// "other commonly used" system types the reference lists for lookups.
    static let supporting: [TypeRecord] = [
        TypeRecord(
            system: "public.heif-standard",
            conformsTo: ["public.image"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "HEIF standard image"
        ),
        TypeRecord(
            system: "com.pkware.zip-archive",
            conformsTo: ["public.data", "public.archive"],
            filenameExtensions: ["zip"],
            mimeTypes: ["application/zip"],
            description: "ZIP archive"
        ),
        TypeRecord(
            system: "com.apple.m4v-video",
            conformsTo: ["public.mpeg-4"],
            filenameExtensions: ["m4v"],
            mimeTypes: ["video/x-m4v"],
            description: "MPEG-4 video (M4V)"
        ),
        TypeRecord(
            system: "com.apple.m4a-audio",
            conformsTo: ["public.mpeg-4-audio"],
            filenameExtensions: ["m4a"],
            mimeTypes: ["audio/x-m4a"],
            description: "MPEG-4 audio (M4A)"
        ),
        TypeRecord(
            system: "public.aifc-audio",
            conformsTo: ["public.audio"],
            filenameExtensions: ["aifc"],
            mimeTypes: [],
            description: "AIFF-C audio"
        ),
        TypeRecord(
            system: "public.stored-url",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "stored URL"
        ),
        TypeRecord(
            system: "com.apple.localizable-name-bundle",
            conformsTo: ["com.apple.bundle"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "localizable-name bundle"
        ),
        TypeRecord(
            system: "public.haptics-content",
            conformsTo: [],
            filenameExtensions: [],
            mimeTypes: [],
            description: "haptics content"
        ),
        TypeRecord(
            system: "org.gnu.gnu-tar-archive",
            conformsTo: ["public.data", "public.archive"],
            filenameExtensions: ["gtar"],
            mimeTypes: ["application/x-gtar"],
            description: "GNU tar archive"
        ),
        TypeRecord(
            system: "public.case-insensitive-text",
            conformsTo: ["public.text"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "case-insensitive text"
        ),
        TypeRecord(
            system: "public.filename-extension",
            conformsTo: ["public.case-insensitive-text"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "filename extension"
        ),
        TypeRecord(
            system: "public.mime-type",
            conformsTo: ["public.case-insensitive-text"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "MIME type"
        ),
        TypeRecord(
            system: "com.apple.traditional-mac-plain-text",
            conformsTo: ["public.plain-text"],
            filenameExtensions: [],
            mimeTypes: [],
            description: "traditional Mac plain text"
        ),
        TypeRecord(
            system: "public.jpeg-2000",
            conformsTo: ["public.image"],
            filenameExtensions: ["jp2", "jpf", "jpx", "j2k", "j2c"],
            mimeTypes: ["image/jp2"],
            description: "JPEG 2000 image"
        ),
        TypeRecord(
            system: "com.adobe.photoshop-image",
            conformsTo: ["public.image"],
            filenameExtensions: ["psd"],
            mimeTypes: ["image/vnd.adobe.photoshop"],
            description: "Adobe Photoshop image"
        ),
        TypeRecord(
            system: "org.xiph.flac",
            conformsTo: ["public.audio"],
            filenameExtensions: ["flac"],
            mimeTypes: ["audio/flac"],
            description: "FLAC audio"
        ),
        TypeRecord(
            system: "public.aac-audio",
            conformsTo: ["public.audio"],
            filenameExtensions: ["aac", "adts"],
            mimeTypes: ["audio/aac", "audio/x-aac"],
            description: "AAC audio"
        ),
        TypeRecord(
            system: "public.3gpp",
            conformsTo: ["public.movie"],
            filenameExtensions: ["3gp", "3gpp", "sdv"],
            mimeTypes: ["video/3gpp", "audio/3gpp"],
            description: "3GPP movie"
        ),
        TypeRecord(
            system: "public.opentype-font",
            conformsTo: ["public.font"],
            filenameExtensions: ["otf"],
            mimeTypes: ["font/otf"],
            description: "OpenType font"
        ),
        TypeRecord(
            system: "public.truetype-ttf-font",
            conformsTo: ["public.font"],
            filenameExtensions: ["ttf"],
            mimeTypes: ["font/ttf"],
            description: "TrueType font"
        ),
        TypeRecord(
            system: "public.xhtml",
            conformsTo: ["public.xml"],
            filenameExtensions: ["xhtml", "xhtm", "xht"],
            mimeTypes: ["application/xhtml+xml"],
            description: "XHTML document"
        ),
        TypeRecord(
            system: "public.rss",
            conformsTo: ["public.xml"],
            filenameExtensions: ["rss"],
            mimeTypes: ["application/rss+xml"],
            description: "RSS feed"
        ),
    ]
}
