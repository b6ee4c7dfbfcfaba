// ClipBridge — the clipbridge command-line tool's option values.
// A settings file's YAML as nodes with their lines, read from libyaml's events.

import CLibYAML

/// One node of a settings file, with the line it starts on (1-based).
public enum SettingsNode: Sendable {
    /// A scalar: its text, and its type as YAML 1.1 resolves it (a quoted scalar is a string).
    case scalar(String, YAMLScalarType, line: Int)
    /// A list.
    case sequence([SettingsNode], line: Int)
    /// A mapping of keys to values, in the file's order.
    case mapping([(key: SettingsNode, value: SettingsNode)], line: Int)

    /// The deepest nesting of lists and mappings read.
    static let maximumDepth = 64

    /// The line the node starts on.
    public var line: Int {
        switch self {
        case .scalar(_, _, let line), .sequence(_, let line), .mapping(_, let line): line
        }
    }

    /// The document's root (nil for an empty file, or one of comments only), read in one linear pass over
    /// libyaml's events. Refused with their line: a syntax error (libyaml's words); an alias (`*name`) — a
    /// settings file needs none, and an alias naming nested aliases (a "billion laughs") would expand
    /// exponentially; a key of a mapping given twice (named at its second place).
    static func parse(_ text: String) throws(SettingsNodeError) -> SettingsNode? {
        let yaml = try YAMLLibrary.api()
        var parser = yaml_parser_t()
        guard yaml.parserInitialize(&parser) == 1 else { throw SettingsNodeError(line: 0, message: "libyaml could not start") }
        defer { yaml.parserDelete(&parser) }
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer throws(SettingsNodeError) -> SettingsNode? in
            yaml.parserSetEncoding(&parser, YAML_UTF8_ENCODING)
            yaml.parserSetInputString(&parser, buffer.baseAddress, buffer.count)
            var builder = Builder()
            while true {
                var event = yaml_event_t()
                guard yaml.parserParse(&parser, &event) == 1 else { throw Self.syntaxError(parser) }
                defer { yaml.eventDelete(&event) }
                if try builder.take(event) { return builder.root }
            }
        }
    }

    private static func syntaxError(_ parser: yaml_parser_t) -> SettingsNodeError {
        let problem = parser.problem.map { String(cString: $0) } ?? "it is not YAML"
        let context = parser.context.map { " (\(String(cString: $0)) at line \(parser.context_mark.line + 1))" } ?? ""
        return SettingsNodeError(line: Int(parser.problem_mark.line) + 1, message: problem + context)
    }

    /// Collections being read, innermost last.
    private struct Builder {
        enum Open {
            case sequence([SettingsNode], line: Int)
            /// `keys`: the scalar keys so far and their lines, to name one given twice.
            case mapping([(key: SettingsNode, value: SettingsNode)], pendingKey: SettingsNode?, keys: [String: Int], line: Int)
        }

        var stack: [Open] = []
        var root: SettingsNode?

        /// Takes one event; true at the end of the stream.
        mutating func take(_ event: yaml_event_t) throws(SettingsNodeError) -> Bool {
            let line = Int(event.start_mark.line) + 1
            switch event.type {
            case YAML_ALIAS_EVENT:
                throw SettingsNodeError(line: line, message: "aliases (*name) are not read in a settings file; write the value")
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let tag = scalar.tag.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
                let type = YAMLScalarType.resolve(text, tag: tag, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE)
                try add(.scalar(text, type, line: line))
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                // Settings need two levels; a deep tree would only cost stack when it is taken apart.
                guard stack.count < SettingsNode.maximumDepth else {
                    throw SettingsNodeError(line: line, message: "nested deeper than \(SettingsNode.maximumDepth) levels")
                }
                stack.append(event.type == YAML_SEQUENCE_START_EVENT
                    ? .sequence([], line: line) : .mapping([], pendingKey: nil, keys: [:], line: line))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let open = stack.popLast() else { return false }
                switch open {
                case .sequence(let items, let start): try add(.sequence(items, line: start))
                case .mapping(let pairs, _, _, let start): try add(.mapping(pairs, line: start))
                }
            case YAML_STREAM_END_EVENT:
                return true
            default:
                break
            }
            return false
        }

        private mutating func add(_ node: SettingsNode) throws(SettingsNodeError) {
            guard let open = stack.popLast() else {
                // A second document is not read: the first is the file's.
                if root == nil { root = node }
                return
            }
            switch open {
            case .sequence(var items, let line):
                items.append(node)
                stack.append(.sequence(items, line: line))
            case .mapping(var pairs, let pendingKey, var keys, let line):
                guard let key = pendingKey else {
                    if case .scalar(let name, _, let keyLine) = node {
                        if let first = keys[name] {
                            throw SettingsNodeError(line: keyLine, message: "key '\(name)' is given twice (first on line \(first))")
                        }
                        keys[name] = keyLine
                    }
                    stack.append(.mapping(pairs, pendingKey: node, keys: keys, line: line))
                    return
                }
                pairs.append((key, node))
                stack.append(.mapping(pairs, pendingKey: nil, keys: keys, line: line))
            }
        }
    }
}

/// A settings file that is not well-formed YAML, at its line.
struct SettingsNodeError: Error {
    var line: Int
    var message: String
}
