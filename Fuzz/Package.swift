// swift-tools-version: 6.1
// ClipBridge's fuzz targets (libFuzzer): a package beside the library, as swift-protobuf's FuzzTesting is, one
// executable per parser. Build and run them with scripts/fuzz.sh; the build alone is
//   swift build -c debug --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// See Fuzz/README.md.
//
// Internal APIs are reached with `@testable import` (debug builds enable testability). The daemon's settings
// reader is in ClipBridgeOptions, a library product of ClipBridge (the `clipbridge` executable, which no
// package can import, keeps only the command-line glue).

import PackageDescription

/// A fuzz target: its main.swift, the driver shim, the helpers, and what it fuzzes.
func fuzzer(_ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .executableTarget(name: name, dependencies: ["CFuzzerDriver", "FuzzSupport"] + dependencies)
}

let clipBridge = Target.Dependency.product(name: "ClipBridge", package: "ClipBridge")
let clipHistory = Target.Dependency.product(name: "ClipHistory", package: "ClipBridge")
let clipBridgeOptions = Target.Dependency.product(name: "ClipBridgeOptions", package: "ClipBridge")
let imageCodecs = Target.Dependency.product(name: "ImageCodecs", package: "ClipBridge")
let transferKit = Target.Dependency.product(name: "TransferKit", package: "ClipBridge")
let uniformTypes = Target.Dependency.product(name: "UniformTypes", package: "ClipBridge")
let x11Selection = Target.Dependency.product(name: "X11Selection", package: "ClipBridge")
let selectionCore = Target.Dependency.product(name: "SelectionCore", package: "ClipBridge")
let clipboardLink = Target.Dependency.product(name: "ClipboardLink", package: "ClipBridge")

let package = Package(
    name: "ClipBridgeFuzz",
    dependencies: [
        .package(name: "ClipBridge", path: ".."),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport"),
        fuzzer("fuzz-bmp", [imageCodecs, transferKit]),
        fuzzer("fuzz-netpbm", [imageCodecs, transferKit]),
        fuzzer("fuzz-image-decoder", [imageCodecs, transferKit]),
        fuzzer("fuzz-daemon-settings", [clipBridgeOptions]),
        fuzzer("fuzz-declarations", [uniformTypes]),
        fuzzer("fuzz-shared-mime-info", [uniformTypes]),
        fuzzer("fuzz-dropped-content", [clipBridge, uniformTypes, x11Selection]),
        fuzzer("fuzz-html-text", [clipBridge]),
        fuzzer("fuzz-color-text", [clipBridge]),
        fuzzer("fuzz-properties", [selectionCore, x11Selection]),
        fuzzer("fuzz-xdnd-messages", [x11Selection]),
        fuzzer("fuzz-read-machine", [x11Selection]),
        fuzzer("fuzz-xdnd-machines", [x11Selection]),
        fuzzer("fuzz-history-entry", [clipHistory, selectionCore]),
        fuzzer("fuzz-history-sealed", [clipHistory]),
        fuzzer("fuzz-link-decoder", [clipboardLink, selectionCore]),
    ],
    swiftLanguageModes: [.v6]
)
