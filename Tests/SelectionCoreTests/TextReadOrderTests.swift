import Testing
import SelectionCore

@Suite struct TextReadOrderTests {
    @Test("UTF-8, COMPOUND_TEXT, STRING, TEXT, other charsets, bare text/plain — by meaning, not the owner's order")
    func theOrder() {
        // xsel 1.2 lists TEXT first and answers it with UTF-8 bytes typed STRING.
        #expect(TextReadOrder.best(in: ["TIMESTAMP", "TARGETS", "TEXT", "UTF8_STRING", "STRING"]) == "UTF8_STRING")
        // Xfce's manager restoring a GTK 3 copy lists bare text/plain first.
        #expect(TextReadOrder.best(in: ["text/plain", "text/plain;charset=utf-8"]) == "text/plain;charset=utf-8")
        #expect(TextReadOrder.best(in: ["TEXT", "STRING", "COMPOUND_TEXT"]) == "COMPOUND_TEXT")
        // GTK 3 never asks TEXT: STRING comes before it.
        #expect(TextReadOrder.best(in: ["TEXT", "STRING"]) == "STRING")
        #expect(TextReadOrder.best(in: ["text/plain", "TEXT"]) == "TEXT")
        #expect(TextReadOrder.best(in: ["text/plain", "text/plain;charset=iso-8859-15"]) == "text/plain;charset=iso-8859-15")
        #expect(TextReadOrder.best(in: ["image/png", "text/html", "TARGETS"]) == nil)
    }

    @Test("ranked keeps every text target, best first, the owner's order among equals; others dropped")
    func ranked() {
        let offered: [SelectionTarget] = [
            "text/plain", "TEXT", "image/png", "text/plain;charset=UTF-8", "STRING", "UTF8_STRING",
            "text/plain;charset=iso-8859-15", "text/plain; charset=\"utf-8\"", "COMPOUND_TEXT", "text/html",
        ]
        #expect(TextReadOrder.ranked(offered) == [
            "UTF8_STRING", "text/plain;charset=UTF-8", "text/plain; charset=\"utf-8\"", "COMPOUND_TEXT", "STRING",
            "TEXT", "text/plain;charset=iso-8859-15", "text/plain",
        ])
    }

    @Test("a charset is read from the parameters, whatever their spelling")
    func charsets() {
        #expect(TextReadOrder.plainTextCharset(of: "text/plain") == "")
        #expect(TextReadOrder.plainTextCharset(of: "TEXT/PLAIN;CHARSET=UTF-8") == "utf-8")
        #expect(TextReadOrder.plainTextCharset(of: "text/plain; format=flowed; charset=\"ISO-8859-1\"") == "iso-8859-1")
        #expect(TextReadOrder.plainTextCharset(of: "text/plainish") == nil)
        #expect(TextReadOrder.plainTextCharset(of: "text/html;charset=utf-8") == nil)
        #expect(TextReadOrder.textCharset(of: "text/html;charset=utf-8") == "utf-8")
        #expect(TextReadOrder.textCharset(of: "image/png") == nil)
        #expect(TextReadOrder.rank(of: "text/plain;format=flowed") == TextReadOrder.rank(of: "text/plain"))
    }

    @Test("linear in the number of targets: 100,000 distinct names")
    func manyTargets() {
        let offered = (0..<100_000).map { SelectionTarget(rawValue: "application/x-type-\($0)") } + ["STRING"]
        #expect(TextReadOrder.best(in: offered) == "STRING")
        #expect(TextReadOrder.ranked(offered) == ["STRING"])
    }
}
