import Foundation
import JSONSchema
import Testing
import WebMap

/// `pattern` and `patternProperties` on text that makes a backtracking engine explode (issue 31, item 4).
@Suite struct PatternBudgetTests {
    func violations(_ schemaText: String, _ instance: String) throws -> [SchemaViolation] {
        let schema = try SchemaRegistry(loader: nil, defaultDraft: .draft2020_12).compile(JSONParser.parse(schemaText).root)
        return schema.validate(try JSONParser.parse(instance))
    }

    /// `(a*)*b` on 24 `a`s took about 10 s in ICU (twice that per more `a`); the matching is now stopped after a
    /// step budget (1,000,000 steps plus 100 per character) and the value refused with the reason. The step count
    /// in the message is the bound; the time limit only catches a hang (a 5 s wall-clock bound failed under load).
    @Test(.timeLimit(.minutes(5))) func exponentialBacktrackingEndsWithADiagnostic() throws {
        let found = try violations(#"{"properties": {"name": {"pattern": "(a*)*b"}}}"#,
                                   #"{"name": "\#(String(repeating: "a", count: 40))"}"#)
        #expect(found.count == 1)
        #expect(found.first?.keyword == "pattern")
        #expect(found.first?.instancePointer.description == "/name")
        #expect(found.first?.message.contains("gave up after 1004000 steps") == true, "\(found.map(\.message))")
        #expect(found.first?.message.contains("(a*)*b") == true)
    }

    @Test(.timeLimit(.minutes(5))) func patternPropertiesGiveUpTooAndRefuseTheMember() throws {
        let key = String(repeating: "a", count: 40)
        let found = try violations(#"{"patternProperties": {"^(a|aa)*c$": true}, "additionalProperties": true}"#, #"{"\#(key)": 1}"#)
        #expect(found.map(\.keyword) == ["patternProperties"], "\(found.map(\.message))")
    }

    /// The budget grows with the text: a long value on a linear pattern is still decided.
    @Test func longTextOnALinearPatternIsDecided() throws {
        let long = String(repeating: "ab", count: 200_000)
        #expect(try violations(#"{"pattern": "^(ab)+$"}"#, #""\#(long)""#).isEmpty)
        #expect(try violations(#"{"pattern": "^(ab)+$"}"#, #""\#(long)x""#).map(\.keyword) == ["pattern"])
        #expect(try violations(#"{"pattern": "(a*)*b"}"#, #""aaaaaaaaaaaaaaaaaaaaaaaab""#).isEmpty)
    }
}
