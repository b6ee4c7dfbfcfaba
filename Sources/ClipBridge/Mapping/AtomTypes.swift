// SPDX-License-Identifier: Apache-2.0
// ClipBridge — dynamic types for X target names that are not MIME types

import Synchronization
import UniformTypes

/// Dynamic content types for target names that are neither MIME types nor known identifiers
/// (`GTK_TEXT_BUFFER_CONTENTS`, `_NETSCAPE_URL`, `x-kde-passwordManagerHint`, LibreOffice's private names).
///
/// GTK drops remote target names without a '/' (`gdk_x11_clipboard_formats_from_atoms`); ClipBridge keeps
/// them as dynamic types tagged with the atom name in a tag class of its own, so they can be listed, asked
/// for and served back under the same name. The type → name direction is remembered per process, because
/// UniformTypes exposes only the standard tag classes of a dynamic type.
enum AtomTypes {
    /// The tag class that carries an X atom name.
    static let tagClass = UTTagClass(rawValue: "org.freedesktop.x11.selection-target")

    private static let names = Mutex<[String: String]>([:])

    /// The dynamic type for an atom name (the same identifier in every process).
    static func type(forAtomName name: String) -> UTType {
        guard let type = UTType(tag: name, tagClass: tagClass, conformingTo: .data) else { return .data }
        names.withLock { $0[type.identifier] = name }
        return type
    }

    /// The atom name of a type made by ``type(forAtomName:)`` in this process.
    static func atomName(of type: UTType) -> String? {
        names.withLock { $0[type.identifier] }
    }
}
