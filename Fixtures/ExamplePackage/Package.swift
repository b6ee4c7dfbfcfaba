// swift-tools-version: 6.1
// A package outside ClipBridge that depends on its products by path, as an app would by URL: CI builds it, so a
// product that stops being usable from outside (a missing public, a system library SwiftPM cannot find) fails.

import PackageDescription

let package = Package(
    name: "ClipboardExample",
    dependencies: [
        .package(name: "ClipBridge", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ClipboardExample",
            dependencies: [
                .product(name: "ClipBridge", package: "ClipBridge"),
                .product(name: "ImageCodecs", package: "ClipBridge"),
                .product(name: "TransferKit", package: "ClipBridge"),
                .product(name: "UniformTypes", package: "ClipBridge"),
                .product(name: "X11Selection", package: "ClipBridge"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
