// swift-tools-version: 6.1
// ClipBridge: Apple's UTType / Transferable model on the X11 clipboard, for Swift on Linux.

import PackageDescription

/// Settings every Swift target shares: strict member-import visibility, so a public signature that
/// leaks a C type (or a member attributed to the wrong module) fails to compile.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ClipBridge",
    products: [
        .library(name: "UniformTypes", targets: ["UniformTypes"]),
        .library(name: "UniformTypesFoundation", targets: ["UniformTypesFoundation"]),
        .library(name: "TransferKit", targets: ["TransferKit"]),
        .library(name: "SelectionCore", targets: ["SelectionCore"]),
        .library(name: "X11Selection", targets: ["X11Selection"]),
        .library(name: "ClipBridge", targets: ["ClipBridge"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "ClipHistory", targets: ["ClipHistory"]),
        .library(name: "ClipboardLink", targets: ["ClipboardLink"]),
        // The CLI's option values and the daemon's settings, a product only so that Fuzz/ can link them.
        .library(name: "ClipBridgeOptions", targets: ["ClipBridgeOptions"]),
        .executable(name: "clipbridge", targets: ["clipbridge"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation`: the DocC catalogs are built in `make test`, warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Ring 0: Xlib + XFixes headers, and the XCB connection under Xlib (property and atom-name requests go
        // through XCB); every library the module map links is named here, so a package depending on ClipBridge
        // is told what to install.
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11 xfixes x11-xcb xcb",
            providers: [.apt(["libx11-dev", "libxfixes-dev", "libx11-xcb-dev", "libxcb1-dev"])]
        ),
        // The headers of the image codecs ImageCodecs wraps: libpng, libjpeg-turbo, giflib, libtiff (≥ 4.5, for
        // per-handle error handlers and allocation limits) and libwebp. Not linked: CImageShims loads each library
        // the first time its format is used (codec_library.c), so a process that converts no image — a 16-byte
        // paste — maps none of them. The headers are in the compiler's default paths on Debian.
        .systemLibrary(
            name: "CImageCodecs",
            providers: [.apt(["libpng-dev", "libjpeg62-turbo-dev", "libgif-dev", "libtiff-dev", "libwebp-dev"])]
        ),
        // The setjmp/longjmp error handling libpng and libjpeg need, memory to memory, bounded and cancellable;
        // the codecs loaded on first use.
        .target(name: "CImageShims", dependencies: ["CImageCodecs"]),
        // glibc's <malloc.h>, for the CLI's allocator policy (Swift's Glibc module leaves it out).
        .systemLibrary(name: "CMalloc"),
        // The little C that Swift cannot or should not write: process-global Xlib error handlers.
        .target(name: "CX11Shims", dependencies: ["CX11"]),

        .target(name: "UniformTypes", swiftSettings: strict),
        // The one Apple extension that needs full Foundation (URLResourceValues.contentType); the
        // other library targets use FoundationEssentials only, see README "Start-up time".
        .target(name: "UniformTypesFoundation", dependencies: ["UniformTypes"], swiftSettings: strict),
        .target(name: "TransferKit", dependencies: ["UniformTypes"], swiftSettings: strict),
        // The clipboard's application layer, whatever the display server: the selection's values and the keeper's,
        // sync's and bridge's decisions. X11Selection and the Wayland side are its backends.
        .target(name: "SelectionCore", swiftSettings: strict),
        // dlopen on first use, for the system libraries only some paths need (SQLite, libcrypto, libyaml).
        .target(name: "DynamicLibraries", swiftSettings: strict),
        .target(
            name: "X11Selection",
            dependencies: ["SelectionCore", "CX11", "CX11Shims", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // Plain windows of text lines for the CLI's drag and drop (`clipbridge drag`, `drop`): a component added to
        // a connection from outside the selection engine.
        .target(name: "X11TextWindows", dependencies: ["X11Selection"], swiftSettings: strict),
        .target(
            name: "ClipBridge",
            dependencies: [
                "UniformTypes", "TransferKit", "X11Selection",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Decoding and encoding images, separate so a text-only user of ClipBridge links no codec.
        .target(
            name: "ImageCodecs",
            dependencies: ["CImageShims", "TransferKit", "UniformTypes"],
            swiftSettings: strict
        ),
        // libyaml, the YAML 1.1 parser the daemon's settings file (and JSON, which it reads too) is read with, each
        // node with its line. Its C API directly: Yams, the Swift wrapper, links full Foundation and ICU's data into
        // the CLI (the binary went from 41 to 94 MB, and a 16-byte paste's start-up with it). Its header only: the
        // library is loaded when a settings file is first read (YAMLLibrary), so a paste does not load it.
        .systemLibrary(name: "CLibYAML", providers: [.apt(["libyaml-dev"])]),
        // SQLite 3's header, for the clipboard history's database (ClipHistory/Database/SQLiteDatabase.swift says why
        // not GRDB.swift: it imports Foundation). Not linked: ClipHistory loads libsqlite3.so.0 when a history is first
        // opened (SQLiteLibrary), so a paste does not load it. Debian's build has FTS5, which search uses.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // OpenSSL 3's headers, for the types of the libcrypto functions the history loads on first use (no link).
        .systemLibrary(name: "CLibCrypto", providers: [.apt(["libssl-dev"])]),
        // The clipboard history: every flavour of every copy in SQLite and content-addressed blob files.
        .target(
            name: "ClipHistory",
            dependencies: [
                "ClipBridge", "UniformTypes", "SelectionCore", "DynamicLibraries", "CSQLite", "CLibCrypto",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // A Wayland compositor's clipboard (issue 30): libwayland-client's headers (not linked: the shims load it on
        // first use) and the wlr data-control protocol's client code, generated by wayland-scanner into
        // Sources/CWaylandShims/generated (its README has the commands that regenerate it).
        .systemLibrary(name: "CWayland", providers: [.apt(["libwayland-dev"])]),
        .target(name: "CWaylandShims", dependencies: ["CWayland"], exclude: ["protocols", "generated/README.md"]),
        // The Wayland side in Swift values: a compositor's selections through data-control.
        .target(name: "WaylandSelection", dependencies: ["CWaylandShims"], swiftSettings: strict),
        // One clipboard between two machines (issue 41): the link protocol two clipbridge processes speak over ssh or
        // any byte stream, and the far machine as one side of a bridge. Swift and the C library only.
        .target(name: "ClipboardLink", dependencies: ["SelectionCore"], swiftSettings: strict),
        // The bridge between an X display and a Wayland compositor (issue 30): the X bridge's machine, both engines.
        .target(
            name: "WaylandBridge",
            dependencies: ["ClipBridge", "SelectionCore", "WaylandSelection", "X11Selection", "ClipboardLink"],
            swiftSettings: strict
        ),
        // What the command line takes besides the libraries' own types: type names and patterns, selection
        // names, durations, and the daemon's settings, each declared once for its option and its file key.
        .target(
            name: "ClipBridgeOptions",
            dependencies: [
                "ClipBridge", "UniformTypes", "X11Selection", "DynamicLibraries",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                "CLibYAML",
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "clipbridge",
            dependencies: [
                "ClipBridge", "ClipBridgeOptions", "ClipHistory", "ImageCodecs", "TransferKit", "UniformTypes", "X11Selection",
                "X11TextWindows", "WaylandBridge", "ClipboardLink",
                "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "clipbridge-bench",
            dependencies: ["X11Selection"],
            path: "Benchmarks/clipbridge-bench",
            swiftSettings: strict
        ),

        .target(
            name: "ClipBridgeTestSupport",
            dependencies: ["SelectionCore", "X11Selection", "WaylandSelection"],
            path: "Tests/ClipBridgeTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "WaylandBridgeTests",
            dependencies: ["WaylandBridge", "SelectionCore", "WaylandSelection", "X11Selection", "ClipBridgeTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "WaylandSelectionTests",
            dependencies: ["WaylandSelection", "ClipBridgeTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "UniformTypesTests",
            dependencies: ["UniformTypes", "UniformTypesFoundation"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ImageCodecsTests", dependencies: ["ImageCodecs", "TransferKit", "ClipBridgeTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(name: "TransferKitTests", dependencies: ["TransferKit"], exclude: ["Seeds"], swiftSettings: strict),
        // Apple's sample models, unchanged but for their import. They are Swift 5-era code (two declare
        // `static var` UTTypes, an error in the Swift 6 mode), so this one target compiles in the Swift 5
        // mode with complete concurrency checking reported as warnings.
        .testTarget(
            name: "TransferKitSeedTests",
            dependencies: ["TransferKit"],
            path: "Tests/TransferKitTests/Seeds",
            swiftSettings: strict + [.swiftLanguageMode(.v5), .enableUpcomingFeature("StrictConcurrency")]
        ),
        // The link between machines: its wire format, its decisions, and two bridges joined by it over a socket pair.
        .testTarget(
            name: "ClipboardLinkTests", dependencies: ["ClipboardLink", "SelectionCore", "ClipBridgeTestSupport"],
            swiftSettings: strict),
        // The orchestration's decisions, with no display: fast, and in `make check`.
        .testTarget(name: "SelectionCoreTests", dependencies: ["SelectionCore", "ClipBridgeTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "X11SelectionTests",
            dependencies: ["X11Selection", "ClipBridgeTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ClipBridgeTests",
            dependencies: [
                "ClipBridge", "ClipBridgeTestSupport", "TransferKit", "UniformTypes", "X11Selection", "X11TextWindows",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ClipHistoryTests",
            dependencies: ["ClipHistory", "ClipBridge", "X11Selection", "ClipBridgeTestSupport"],
            swiftSettings: strict
        ),
        // The settings and option values, without spawning the binary.
        .testTarget(
            name: "ClipBridgeOptionsTests",
            dependencies: ["ClipBridgeOptions", "ClipBridge", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "clipbridgeTests",
            dependencies: ["ClipBridgeOptions", "ClipBridgeTestSupport", "X11Selection", "WaylandSelection"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
