// SPDX-License-Identifier: Apache-2.0
// ClipBridge — UniformTypes

import FoundationEssentials
import Synchronization

// Linux-only: freedesktop shared-mime-info as a source of declarations. Nothing here exists in
// Apple's UniformTypeIdentifiers.
extension UTType {
    /// Declares the MIME types of a freedesktop shared-mime-info database that the built-in table
    /// lacks, and returns the type every `<mime-type>` entry resolves to (new or already known).
    ///
    /// `location` is a package file (`freedesktop.org.xml`), a directory of package files
    /// (`/usr/share/mime/packages`) or a database root with a `packages` subdirectory
    /// (`/usr/share/mime`). New types get identifiers `org.freedesktop.mime.<type>.<subtype>`, conform to
    /// their `<sub-class-of>` parents (plain text for `text/*` and data otherwise when none resolves),
    /// carry the MIME type and its `<alias>`es as MIME tags, `*.ext` globs as filename extensions, and
    /// the untranslated `<comment>` as ``localizedDescription``. Built-in types and earlier declarations
    /// are never replaced. For example `application/vnd.oasis.opendocument.text` then conforms to
    /// ``zip`` and ``data``, and `UTType(filenameExtension: "odt")` finds it.
    ///
    /// The system database (`$XDG_DATA_HOME` and `$XDG_DATA_DIRS`, `mime/packages`) is read
    /// automatically on the first lookup the built-in table cannot answer, unless
    /// ``loadsSystemSharedMIMEInfo`` is `false`; call this for any other database.
    ///
    /// - Throws: ``UTTypeDeclarationError`` naming the file and the reason if a package cannot be read
    ///   or is not well-formed; nothing is declared then.
    @discardableResult
    public static func loadSharedMIMEInfo(from location: URL) throws -> [UTType] {
        let entries = try SharedMIMEInfoDatabase.parsePackages(in: location)
        return TypeRegistry.shared.install(sharedMIMEInfo: entries).map(UTType.init(knownIdentifier:))
    }

    /// Whether a lookup the built-in table and the declarations cannot answer first reads the system's
    /// shared-mime-info database (once per process). `true` by default; set it to `false` before the
    /// first lookup for results that do not depend on the machine.
    public static var loadsSystemSharedMIMEInfo: Bool {
        get { TypeRegistry.shared.state.withLock { $0.loadsSystemSharedMIMEInfo } }
        set { TypeRegistry.shared.state.withLock { $0.loadsSystemSharedMIMEInfo = newValue } }
    }

    /// Reads the system's shared-mime-info database now, if it was not read yet (once per process), whatever
    /// ``loadsSystemSharedMIMEInfo`` says: for programs that keep automatic loading off and read the database
    /// only when a name they were given needs it.
    public static func loadSystemSharedMIMEInfo() {
        TypeRegistry.shared.loadSystemSharedMIMEInfo()
    }

    /// The shared-mime-info package directories this machine has, most important first
    /// (`$XDG_DATA_HOME/mime/packages`, then each `$XDG_DATA_DIRS` entry's).
    public static var systemSharedMIMEInfoDirectories: [URL] {
        SharedMIMEInfoDatabase.systemPackageDirectories()
    }
}
