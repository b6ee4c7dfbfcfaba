// ClipBridge — the clipbridge command-line tool's option values.
// How one setting's values are read, checked and written back, whatever their source.

import ClipBridge
import Logging

/// How the values of a setting are read — from a command-line argument or a scalar of the settings file —
/// checked, and written back (`--check-config`). One reader serves both sources, so a value the command line
/// takes is one the file takes, and the other way round.
public struct SettingValue<Value: Sendable>: Sendable {
    /// What a value is, for messages: `a size in MiB`.
    public let expects: String
    /// What a command-line argument is read as: the scalar the file would give for the same value.
    let argumentKind: ArgumentKind
    /// The value of a scalar; nil when the scalar is not of the kind this takes (`expected …, found …`);
    /// throws when it is of that kind but not a value the setting takes (out of range, unknown name).
    let read: @Sendable (SettingScalar) throws(SettingProblem) -> Value?
    /// The scalar that reads back as the value.
    let write: @Sendable (Value) -> SettingScalar

    /// How an argument's text becomes a scalar.
    enum ArgumentKind: Sendable {
        case string, integer, number, boolean
    }

    /// Reads a scalar, with the message `expected …, found …` when it is of another kind.
    public func value(of scalar: SettingScalar) throws(SettingProblem) -> Value {
        guard let value = try read(scalar) else { throw SettingProblem("expected \(expects), found \(scalar.kindName)") }
        return value
    }

    /// Reads a command-line argument.
    public func value(ofArgument text: String) throws(SettingProblem) -> Value {
        let scalar: SettingScalar? = switch argumentKind {
        case .string: .string(text)
        case .integer: Int(text).map(SettingScalar.integer)
        case .number: Int(text).map(SettingScalar.integer) ?? Double(text).map(SettingScalar.number)
        case .boolean: Bool(text).map(SettingScalar.boolean)
        }
        guard let scalar else { throw SettingProblem("expected \(expects), found '\(text)'") }
        return try value(of: scalar)
    }
}

// MARK: - The kinds of value the daemon's settings take

extension SettingValue where Value == Int {
    /// A whole number within `range`; `unit` follows the number in messages (` MiB`).
    static func integer(_ expects: String, _ range: ClosedRange<Int>, noun: String, unit: String = "") -> Self {
        Self(expects: expects, argumentKind: .integer, read: { scalar throws(SettingProblem) in
            guard case .integer(let number) = scalar else { return nil }
            guard range.contains(number) else {
                throw SettingProblem("\(number)\(unit) is not \(noun) between \(range.lowerBound) and \(range.upperBound)")
            }
            return number
        }, write: { .integer($0) })
    }
}

extension SettingValue where Value == Seconds {
    /// A positive, finite number of seconds (an integer or a number with a fraction).
    static var seconds: Self {
        Self(expects: "seconds", argumentKind: .number, read: { scalar throws(SettingProblem) in
            let number: Double
            switch scalar {
            case .integer(let whole): number = Double(whole)
            case .number(let fraction): number = fraction
            default: return nil
            }
            guard let seconds = Seconds(number) else { throw SettingProblem("\(number) is not a positive number of seconds") }
            return seconds
        }, write: { seconds in
            seconds.value == seconds.value.rounded() && seconds.value < 1e15 ? .integer(Int(seconds.value)) : .number(seconds.value)
        })
    }
}

extension SettingValue where Value == Bool {
    /// true or false (a flag on the command line).
    static var flag: Self {
        Self(expects: "true or false", argumentKind: .boolean, read: { scalar in
            guard case .boolean(let flag) = scalar else { return nil }
            return flag
        }, write: { .boolean($0) })
    }
}

extension SettingValue where Value == String {
    /// A string that `check` accepts (it returns the problem, or nil).
    static func text(_ expects: String, check: @escaping @Sendable (String) -> String?) -> Self {
        Self(expects: expects, argumentKind: .string, read: { scalar throws(SettingProblem) in
            guard case .string(let text) = scalar else { return nil }
            if let problem = check(text) { throw SettingProblem(problem) }
            return text
        }, write: { .string($0) })
    }
}

extension SettingValue {
    /// A string naming a value: `parse` gives it, or nil (`expected …, found 'x'`); `name` writes it back.
    static func named(
        _ expects: String, parse: @escaping @Sendable (String) -> Value?, name: @escaping @Sendable (Value) -> String
    ) -> Self {
        Self(expects: expects, argumentKind: .string, read: { scalar throws(SettingProblem) in
            guard case .string(let text) = scalar else { return nil }
            guard let value = parse(text) else { throw SettingProblem("expected \(expects), found '\(text)'") }
            return value
        }, write: { .string(name($0)) })
    }

    /// One of an enumeration's cases, by its raw value.
    static func choice(_ cases: [Value], parse: @escaping @Sendable (String) -> Value?) -> Self
    where Value: RawRepresentable<String> {
        named(alternatives(cases.map(\.rawValue)), parse: parse, name: \.rawValue)
    }
}

/// `a, b or c`.
func alternatives(_ names: [String]) -> String {
    names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
}

extension SettingValue where Value == SelectionChoice {
    static var selection: Self { .choice(SelectionChoice.allCases, parse: SelectionChoice.init(argument:)) }
}

extension SettingValue where Value == SyncDirection {
    static var direction: Self { .choice(SyncDirection.allCases, parse: SyncDirection.init(rawValue:)) }
}

extension SettingValue where Value == ContentRule {
    static var rule: Self { .choice(ContentRule.allCases, parse: ContentRule.init(rawValue:)) }
}

extension SettingValue where Value == Logger.Level {
    static var logLevel: Self { .choice(Logger.Level.allCases, parse: Logger.Level.init(rawValue:)) }
}

extension SettingValue where Value == TypePattern {
    /// A type name or a wildcard pattern (`--keep-type`).
    static var typePattern: Self {
        named("a type (text, image, text/html, UTF8_STRING, public.image, image/*)",
              parse: TypePattern.init(argument:), name: \.text)
    }
}
