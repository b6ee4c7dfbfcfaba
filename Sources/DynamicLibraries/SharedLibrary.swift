import Glibc

/// A system library loaded when first needed (`dlopen`), not linked, for every module of this package that reaches
/// one only on some paths — SQLite and libcrypto for the history, libyaml for the settings file — so a process that
/// never takes those paths (a 16-byte paste) does not map or relocate them. The library stays loaded for the
/// process's life.
package struct SharedLibrary: @unchecked Sendable {
    /// Why a library or one of its functions could not be had, for people: it names the library and the Debian
    /// package that provides it.
    package struct LoadError: Error, CustomStringConvertible, Sendable {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The soname loaded.
    package let name: String
    private let handle: UnsafeMutableRawPointer

    /// Loads `name` (a soname: `libsqlite3.so.0`), provided by the Debian package `provider`.
    package init(_ name: String, provider: String) throws(LoadError) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw LoadError(description: "cannot load \(name) (Debian's \(provider)): \(String(cString: dlerror()))")
        }
        self.name = name
        self.handle = handle
    }

    /// The function `symbol`, as the C function type `T`: a shim's `clipbridge_F_t`, with its name from the same
    /// header's `clipbridge_F_name` (`CLIPBRIDGE_LOOKED_UP` in CSQLite, CLibYAML and CLibCrypto), so neither the type
    /// nor the name is typed by hand.
    package func function<T>(_ symbol: UnsafePointer<CChar>) throws(LoadError) -> T {
        guard let address = dlsym(handle, symbol) else {
            throw LoadError(description: "\(name) has no \(String(cString: symbol))")
        }
        return unsafeBitCast(address, to: T.self)
    }
}
