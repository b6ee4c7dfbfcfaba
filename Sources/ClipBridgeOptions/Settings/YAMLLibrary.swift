import CLibYAML
import DynamicLibraries

/// libyaml's few functions the settings reader calls, looked up in `libyaml-0.so.2` the first time a settings file
/// is read, not linked: a process that reads none — every `paste` and `copy` — does not load the library. The
/// header still gives the types and constants; `Package.swift` links no libyaml.
struct YAMLLibrary: @unchecked Sendable {
    // Each type is the C declaration's (CLibYAML/shim.h): a call that does not match it does not compile.
    let parserInitialize: clipbridge_yaml_parser_initialize_t
    let parserDelete: clipbridge_yaml_parser_delete_t
    let parserSetEncoding: clipbridge_yaml_parser_set_encoding_t
    let parserSetInputString: clipbridge_yaml_parser_set_input_string_t
    let parserParse: clipbridge_yaml_parser_parse_t
    let eventDelete: clipbridge_yaml_event_delete_t

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
        parserInitialize = try library.function(clipbridge_yaml_parser_initialize_name)
        parserDelete = try library.function(clipbridge_yaml_parser_delete_name)
        parserSetEncoding = try library.function(clipbridge_yaml_parser_set_encoding_name)
        parserSetInputString = try library.function(clipbridge_yaml_parser_set_input_string_name)
        parserParse = try library.function(clipbridge_yaml_parser_parse_name)
        eventDelete = try library.function(clipbridge_yaml_event_delete_name)
    }
}
