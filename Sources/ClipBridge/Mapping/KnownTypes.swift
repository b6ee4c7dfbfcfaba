// SPDX-License-Identifier: Apache-2.0
// ClipBridge — content types of X11 formats that have no system UTType

import UniformTypes

/// Types for X11 clipboard formats that no system declaration covers. They are the dynamic types of their
/// MIME names, so they are the same in every process (dynamic identifiers are reversible).
enum KnownTypes {
    /// `x-special/gnome-copied-files` (Nautilus, Nemo, Caja, Thunar): operation line + file URIs.
    static let gnomeCopiedFiles = UTType(mimeType: "x-special/gnome-copied-files") ?? .data
    /// `application/x-kde-cutselection`: "1" when the URL list was cut (Dolphin, Konqueror).
    static let kdeCutSelection = UTType(mimeType: "application/x-kde-cutselection") ?? .data
    /// `text/x-moz-url`: UTF-16 "url\ntitle" pairs (Firefox, Qt).
    static let mozURL = UTType(mimeType: "text/x-moz-url") ?? .data
    /// `application/x-color`: 4 × uint16 RGBA, format 16 (GTK `GdkRGBA`, Qt `QColor`).
    static let color = UTType(mimeType: "application/x-color") ?? .data
    /// `application/x-clipbridge-items`: a ClipBridge owner's whole item list.
    static let items = UTType(mimeType: "application/x-clipbridge-items") ?? .data
}
