// The one duration option type: every --timeout, --exit-after and the daemon's timeouts.

import ClipBridgeOptions
import Testing

@Suite("Seconds, the duration options take")
struct SecondsTests {
    @Test("only a positive, finite number is a duration", arguments: ["0", "-1", "-0.5", "inf", "nan", "1e400", "", "5s", "five"])
    func refused(text: String) {
        #expect(Seconds(argument: text) == nil)
    }

    @Test("seconds become milliseconds and a Duration in one place")
    func conversions() throws {
        let half = try #require(Seconds(argument: "0.5"))
        #expect(half.milliseconds == 500)
        #expect(half.duration == .milliseconds(500))
        #expect(Seconds(120).duration == .seconds(120))
        #expect(try #require(Seconds(argument: "2.0005")).milliseconds == 2001)
        // A positive limit never rounds to none.
        #expect(try #require(Seconds(argument: "0.0001")).milliseconds == 1)
        #expect(try #require(Seconds(argument: "1e300")).milliseconds > 0)
    }

    @Test("its text reads back as the same value")
    func description() throws {
        for text in ["5", "0.25", "1e-05", "1e+20", "120"] {
            let seconds = try #require(Seconds(argument: text))
            #expect(Seconds(argument: seconds.description) == seconds)
        }
        #expect(Seconds(5).description == "5")
        #expect(Seconds(2.5)?.description == "2.5")
    }
}
