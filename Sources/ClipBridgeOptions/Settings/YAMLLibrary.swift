import CLibYAML
import X11Selection

/// libyaml's few functions the settings reader calls, looked up in `libyaml-0.so.2` the first time a settings file
/// is read, not linked: a process that reads none — every `paste` and `copy` — does not load the library. The
/// header still gives the types and constants; `Package.swift` links no libyaml.
struct YAMLLibrary: @unchecked Sendable {
    let parserInitialize: @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Int32
    let parserDelete: @convention(c) (UnsafeMutablePointer<yaml_parser_t>?) -> Void
    let parserSetEncoding: @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, yaml_encoding_t) -> Void
    let parserSetInputString: @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, UnsafePointer<UInt8>?, Int) -> Void
    let parserParse: @convention(c) (UnsafeMutablePointer<yaml_parser_t>?, UnsafeMutablePointer<yaml_event_t>?) -> Int32
    let eventDelete: @convention(c) (UnsafeMutablePointer<yaml_event_t>?) -> Void

    private static let loaded: Result<YAMLLibrary, SettingsNodeError> = {
        do throws(SettingsNodeError) {
            return .success(try YAMLLibrary())
        } catch {
            return .failure(error)
        }
    }()

    /// The functions, loaded on first use.
    /// - Throws: ``SettingsNodeError`` (line 0) when libyaml or one of its functions is missing.
    static func api() throws(SettingsNodeError) -> YAMLLibrary {
        try loaded.get()
    }

    private init() throws(SettingsNodeError) {
        do throws(SharedLibrary.LoadError) {
            try self.init(SharedLibrary("libyaml-0.so.2", provider: "libyaml-0-2"))
        } catch {
            throw SettingsNodeError(line: 0, message: error.description)
        }
    }

    private init(_ library: SharedLibrary) throws(SharedLibrary.LoadError) {
        func symbol<T>(_ name: String) throws(SharedLibrary.LoadError) -> T { try library.function(name) }
        parserInitialize = try symbol("yaml_parser_initialize")
        parserDelete = try symbol("yaml_parser_delete")
        parserSetEncoding = try symbol("yaml_parser_set_encoding")
        parserSetInputString = try symbol("yaml_parser_set_input_string")
        parserParse = try symbol("yaml_parser_parse")
        eventDelete = try symbol("yaml_event_delete")
    }
}
