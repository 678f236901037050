import Foundation
import Testing
import WebMap
@testable import Service
@testable import FeatureServiceModel

/// The query's stored-text fast path (`StoredAttributesWriter`) against the decoding path it replaces:
/// whenever it answers, its bytes are exactly what encoding the decoded attributes gives.
@Suite struct StoredAttributesTests {
    /// A plan on TreesOfPortland layer 0 (the decoding path) and the stored-text writer of its output fields.
    private static func plans(outFields: [String]?) async throws -> (fast: StoredAttributesWriter, slow: QueryPlan, names: [String]) {
        let core = try await Fixtures.core(users: false)
        let service = try core.service("TreesOfPortland")
        let layer = try service.layer(0)
        let policy = AccessPolicy(core: core, service: service, caller: .anonymous)
        let slow = try QueryPlan(layer: layer, parameters: QueryParameters(outFields: outFields), policy: policy)
        let fast = try #require(StoredAttributesWriter(outFields: slow.outFields))
        return (fast, slow, slow.outFields)
    }

    /// The writer's attributes text, or nil when it falls back; and the slow path's text (nil when it throws).
    private static func both(_ text: String, _ plans: (fast: StoredAttributesWriter, slow: QueryPlan, names: [String])) throws -> (fast: String?, slow: String?) {
        let slowText: String?
        if let slow = try? plans.slow.feature(attributes: text, geometry: nil, withGeometry: false) {
            slowText = try OrderedJSONEncoder().encodeText(slow.attributes)
        } else {
            slowText = nil
        }
        // Written after other bytes, as in an answer: the writer appends, and leaves them alone when it falls back.
        var out = Array("[".utf8)
        var scratch = StoredAttributesWriter.Scratch()
        let taken = text.utf8.withContiguousStorageIfAvailable { plans.fast.encode(bytes: $0, into: &out, scratch: &scratch) }
            ?? { var copy = text; return copy.withUTF8 { plans.fast.encode(bytes: $0, into: &out, scratch: &scratch) } }()
        #expect(out.first == UInt8(ascii: "["))
        if !taken { #expect(out.count == 1, "nothing written when the writer falls back") }
        let fastText = plans.fast.encode(text).map { String(decoding: $0, as: UTF8.self) }
        #expect(fastText == (taken ? String(decoding: out.dropFirst(), as: UTF8.self) : nil))
        return (fastText, slowText)
    }

    /// Values to put in a stored object, each with whether the fast path must take it.
    static let values: [(String, Bool)] = [
        ("null", true), ("0", true), ("-1", true), ("42", true), ("123456789012345678", true), ("-123456789012345678", true),
        ("1234567890123456789", false), ("-0", false), ("007", false), ("1.0", false), ("2.5", true), ("-0.25", true), ("0.1", true),
        ("1e+16", true), ("1e-05", true), ("1e-5", false), ("1E+16", false), ("1e16", false), ("1000000000000000.0", true),
        ("1e+15", false), ("-13653000.123", true), ("41.700072", true), ("5e-324", true), ("1.7976931348623157e+308", true),
        ("0.30000000000000004", true), ("0.3000000000000000444", false), ("-0.0", false), ("1.", false), (".5", false),
        ("true", false), ("false", false), ("[]", false), ("{}", false), ("[1,2]", false),
        ("\"\"", true), ("\"plain\"", true), ("\"é ✓ 😀 \u{7F}\"", true), ("\"a\\\"b\"", false), ("\"a\\\\b\"", false),
        ("\"a\\nb\"", false), ("\"\\u0041\"", false), ("\"a\\/b\"", false), ("\"{\\\"x\\\":1}\"", false), ("\"1,2}\"", true),
    ]

    @Test func everyValueFormMatchesTheDecodingPath() async throws {
        let plans = try await Self.plans(outFields: nil)
        let names = plans.names
        #expect(names.count >= 3)
        for (value, fast) in Self.values {
            // The value in each position of an object holding every field in order.
            for position in [0, names.count / 2, names.count - 1] {
                let members = names.enumerated().map { index, name in "\"\(name)\":" + (index == position ? value : "\(index)") }
                let text = "{" + members.joined(separator: ",") + "}"
                let (fastText, slowText) = try Self.both(text, plans)
                if let fastText {
                    #expect(fastText == slowText, "\(text)")
                    #expect(fastText == text, "in stored order, the stored text is the answer")
                }
                #expect((fastText != nil) == fast, "\(value): fast path \(fastText != nil), expected \(fast)")
            }
        }
    }

    @Test func objectShapesMatchTheDecodingPath() async throws {
        for outFields in [nil, ["*"]] as [[String]?] {
            let plans = try await Self.plans(outFields: outFields)
            let n = plans.names
            let q = { (name: String) in "\"\(name)\"" }
            let shapes: [(String, Bool)] = [
                ("{" + n.map { q($0) + ":1" }.joined(separator: ",") + "}", true),
                // Reordered, missing, extra, repeated, differently cased, escaped or non-ASCII keys.
                ("{" + n.reversed().map { q($0) + ":1" }.joined(separator: ",") + "}", true),
                ("{" + n.dropFirst().map { q($0) + ":\"x\"" }.joined(separator: ",") + "}", true),
                ("{" + n.map { q($0) + ":2.5" }.joined(separator: ",") + ",\"extra\":7}", true),
                ("{" + n.map { q($0) + ":1" }.joined(separator: ",") + "," + q(n[0]) + ":2}", false),
                ("{" + n.map { q($0.uppercased()) + ":1" }.joined(separator: ",") + "}", true),
                ("{" + n.map { q($0) + ":1" }.joined(separator: ",") + ",\"\\u0041\":1}", false),
                ("{" + n.map { q($0) + ":1" }.joined(separator: ",") + ",\"é\":1}", false),
                ("{}", true),
                // Not compact, or not one object.
                ("{ " + n.map { q($0) + ":1" }.joined(separator: ",") + "}", false),
                ("{" + n.map { q($0) + ": 1" }.joined(separator: ",") + "}", false),
                ("{" + n.map { q($0) + ":1" }.joined(separator: ",") + "} ", false),
                ("{" + n.map { q($0) + ":1" }.joined(separator: ",") + ",}", false),
                ("[1]", false), ("{\"a\":1", false), ("{\"a\"}", false), ("{\"a\":nul}", false), ("{\"a\":\"x}", false), ("", false),
            ]
            for (text, fast) in shapes {
                let (fastText, slowText) = try Self.both(text, plans)
                if let fastText { #expect(fastText == slowText, "\(text)") }
                #expect((fastText != nil) == fast, "\(text): fast path \(fastText != nil), expected \(fast)")
            }
        }
    }

    @Test func outFieldSubsetsMatchTheDecodingPath() async throws {
        let all = try await Self.plans(outFields: nil).names
        let stored = "{" + all.enumerated().map { "\"\($1)\":\($0 % 3 == 0 ? "\"s\($0)\"" : $0 % 3 == 1 ? "\($0)" : "\(Double($0) + 0.5)")" }
            .joined(separator: ",") + "}"
        for outFields in [[all[0]], [all[2], all[1]], [all[1].uppercased(), all.last!], Array(all.reversed()), [all[0], all[0]]] {
            let plans = try await Self.plans(outFields: outFields)
            let (fastText, slowText) = try Self.both(stored, plans)
            #expect(fastText != nil)
            #expect(fastText == slowText, "\(outFields)")
        }
    }

    /// Output field names the writer cannot promise the same text for: it is not made, so every feature
    /// takes the decoding path.
    @Test func unsuitableOutputFieldNamesTakeTheDecodingPath() {
        #expect(StoredAttributesWriter(outFields: ["a", "b"]) != nil)
        #expect(StoredAttributesWriter(outFields: []) != nil)
        #expect(StoredAttributesWriter(outFields: ["a", "a"]) == nil, "a repeated field name")
        #expect(StoredAttributesWriter(outFields: ["a", "é"]) == nil)
        #expect(StoredAttributesWriter(outFields: ["a\"b"]) == nil)
        #expect(StoredAttributesWriter(outFields: ["a\\b"]) == nil)
        #expect(StoredAttributesWriter(outFields: ["a\tb"]) == nil)
        #expect(StoredAttributesWriter(outFields: ["\u{212A}"]) == nil, "Kelvin sign, canonically equal to K")
    }

    /// The writer reads SQLite's bytes as they are: text that is not well-formed UTF-8 (which reading it as a
    /// `String` repairs) takes the decoding path.
    @Test func malformedUTF8TakesTheDecodingPath() throws {
        let writer = try #require(StoredAttributesWriter(outFields: ["a"]))
        var scratch = StoredAttributesWriter.Scratch()
        let open = Array(#"{"a":""#.utf8), close = Array(#""}"#.utf8)
        let cases: [([UInt8], Bool)] = [
            (open + Array("é ✓ 😀".utf8) + close, true),
            (open + [0xC3] + close, false),                     // a lead byte without its continuation
            (open + [0xED, 0xA0, 0x80] + close, false),         // an encoded surrogate
            (open + [0xC0, 0xAF] + close, false),               // an overlong form
            (open + [0x61, 0x00, 0x62] + close, false),         // NUL (a control character)
        ]
        for (bytes, fast) in cases {
            var out: [UInt8] = []
            let taken = bytes.withUnsafeBufferPointer { writer.encode(bytes: $0, into: &out, scratch: &scratch) }
            #expect(taken == fast, "\(bytes)")
            #expect(taken ? out == bytes : out.isEmpty)
        }
    }

    @Test func randomDoublesMatchTheDecodingPath() async throws {
        let plans = try await Self.plans(outFields: nil)
        let names = plans.names
        var generator = SystemRandomNumberGenerator()
        var taken = 0
        for i in 0..<3000 {
            let d: Double
            switch i % 3 {
            case 0: d = Double(bitPattern: generator.next())
            case 1: d = Double.random(in: -1e7...1e7)
            default: d = (Double.random(in: -1e6...1e6) * 1000).rounded() / 1000
            }
            guard d.isFinite else { continue }
            let text = "{" + names.enumerated().map { "\"\($1)\":" + ($0 == 1 ? d.description : "\($0)") }.joined(separator: ",") + "}"
            let (fastText, slowText) = try Self.both(text, plans)
            if let fastText {
                taken += 1
                #expect(fastText == slowText, "\(text)")
            }
        }
        #expect(taken > 1000)
    }
}
