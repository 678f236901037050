import Testing
import WebMap

@Suite struct YAMLCoreScalarTests {
    @Test func readsWhatYAML12sCoreSchemaReads() {
        #expect(YAMLCoreScalar(plain: "~") == .null)
        #expect(YAMLCoreScalar(plain: "") == .null)
        #expect(YAMLCoreScalar(plain: "NULL") == .null)
        #expect(YAMLCoreScalar(plain: "True") == .bool(true))
        #expect(YAMLCoreScalar(plain: "false") == .bool(false))
        #expect(YAMLCoreScalar(plain: "42") == .integer("42"))
        #expect(YAMLCoreScalar(plain: "+007") == .integer("7"))
        #expect(YAMLCoreScalar(plain: "-0") == .integer("0"))
        #expect(YAMLCoreScalar(plain: "0x1F") == .integer("31"))
        #expect(YAMLCoreScalar(plain: "0o17") == .integer("15"))
        #expect(YAMLCoreScalar(plain: "99999999999999999999") == .integer("99999999999999999999"))
        #expect(YAMLCoreScalar(plain: "1.5") == .float(1.5))
        #expect(YAMLCoreScalar(plain: ".5") == .float(0.5))
        #expect(YAMLCoreScalar(plain: "1.") == .float(1))
        #expect(YAMLCoreScalar(plain: "-2e3") == .float(-2000))
        #expect(YAMLCoreScalar(plain: "1e300") == .float(1e300))
        #expect(YAMLCoreScalar(plain: "-.inf") == .float(-.infinity))
    }

    /// YAML 1.1's readings, which Yams applies, are strings in 1.2: a time of day, a URL, yes/no, on/off.
    @Test func leavesYAML11sExtrasAsText() {
        for text in ["10:20:30", "http://x.org/a", "x:y", "Yes", "no", "on", "OFF", "y", "0b101", "1_000", "0x", "0o8",
                     "1e", "e5", ".", "+", "-", "1.2.3", "0xG1", "12abc", "2026-05-01", "NaN", "inf", ".infinity"] {
            #expect(YAMLCoreScalar(plain: text) == nil, "\(text)")
        }
    }
}
