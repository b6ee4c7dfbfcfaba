// ClipBridge — the clipbridge command-line tool's option values.
// A linear pass over libyaml's events before Yams composes a settings file.

// libyaml's C API: the module Yams builds it in (CYaml), reached through the Yams product (SwiftPM puts every
// module of a dependency's targets on the import path).
import CYaml

/// What is checked on libyaml's events before Yams composes the file, in one linear pass:
/// - aliases (`*name`) are refused: a settings file needs none, and Yams hashes every mapping key whole, so an
///   alias key naming nested aliases (a "billion laughs") would take exponential time;
/// - a key of the file's mapping given twice is named at its second place (Yams names the first).
/// Syntax errors are left to the reading that follows, which words them.
enum SettingsEvents {
    /// The first problem, with its line; nil when there is none.
    static func problem(in text: String) -> (line: Int, message: String)? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var keys = TopLevelKeys()
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1
                switch event.type {
                case YAML_ALIAS_EVENT:
                    return (line, "aliases (*name) are not read in a settings file; write the value")
                case YAML_SCALAR_EVENT:
                    let value = String(decoding: UnsafeBufferPointer(start: event.data.scalar.value, count: event.data.scalar.length),
                                       as: UTF8.self)
                    if let first = keys.scalar(value, line: line) {
                        return (line, "key '\(value)' is given twice (first on line \(first))")
                    }
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    keys.start(mapping: event.type == YAML_MAPPING_START_EVENT)
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    keys.end()
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    continue
                }
            }
            return nil
        }
    }

    /// The keys of the top-level mapping, followed through the events: at depth 1 of a mapping, nodes alternate
    /// key, value.
    struct TopLevelKeys {
        private var depth = 0
        private var rootIsMapping = false
        private var expectingKey = true
        private var lines: [String: Int] = [:]

        /// A scalar; the line where it was first a key, when it is a key given again.
        mutating func scalar(_ value: String, line: Int) -> Int? {
            guard depth == 1, rootIsMapping else { return nil }
            defer { expectingKey.toggle() }
            guard expectingKey else { return nil }
            if let first = lines[value] { return first }
            lines[value] = line
            return nil
        }

        mutating func start(mapping: Bool) {
            if depth == 0 { rootIsMapping = mapping }
            depth += 1
        }

        /// A collection ended; one at depth 1 was a whole key or value.
        mutating func end() {
            depth -= 1
            if depth == 1 && rootIsMapping { expectingKey.toggle() }
        }
    }
}
