import Testing
@testable import ClipBridgeOptions

/// Plain scalars resolved by YAML 1.1's implicit types, as a settings file's values are read.
@Suite struct YAMLScalarTypeTests {
    @Test func plainScalarsResolveByYAML11Types() {
        let cases: [(String, YAMLScalarType)] = [
            ("", .null), ("~", .null), ("null", .null), ("NULL", .null),
            ("yes", .boolean), ("Off", .boolean), ("TRUE", .boolean), ("y", .string), ("n", .string),
            ("0", .integer), ("64", .integer), ("-12", .integer), ("+1_000", .integer), ("0x1F", .integer),
            ("0b101", .integer), ("017", .integer), ("1:30", .integer), ("190:20:30", .integer),
            ("1.5", .float), ("-0.25", .float), (".5", .float), ("1.", .float), ("1e+20", .float), ("25e-1", .float),
            ("2.5E3", .float), (".inf", .float), ("-.Inf", .float), (".nan", .float), ("08", .float), ("1:30.5", .float),
            ("2001-12-14", .timestamp), ("2001-12-14t21:59:43.10-05:00", .timestamp), ("2001-12-14 21:59:43.10 -5", .timestamp),
            ("clipboard", .string), ("image/png", .string), ("1.2.3", .string), ("0x", .string), ("_1", .string),
            ("1:60", .string), ("e5", .string), ("-", .string), ("+.nan", .string), ("2001-1-1", .string), ("12:30:00", .integer),
        ]
        for (text, type) in cases {
            #expect(YAMLScalarType.resolve(text, tag: nil, plain: true) == type, "\(text)")
        }
        #expect(YAMLScalarType.resolve("64", tag: nil, plain: false) == .string)
        #expect(YAMLScalarType.resolve("64", tag: "tag:yaml.org,2002:str", plain: true) == .string)
        #expect(YAMLScalarType.integer("1:30") == 90)
        #expect(YAMLScalarType.integer("0x1F") == 31)
        #expect(YAMLScalarType.integer("017") == 15)
        #expect(YAMLScalarType.integer("99999999999999999999") == nil)
        #expect(YAMLScalarType.float("1e+20") == 1e20)
    }
}
