import Foundation
import Testing
import WebMap

/// A large document's top arrays are read on every core (`JSONParser.Options.concurrentMinimumSize`): the
/// outcome must be the serial parser's, tree, offsets, repeated keys, elided arrays and errors alike. Here the
/// threshold is 0, so that small documents take the concurrent path.
@Suite struct ConcurrentJSONParseTests {
    static var concurrent: JSONParser.Options {
        var options = JSONParser.Options()
        options.concurrentMinimumSize = 0
        return options
    }

    static var serial: JSONParser.Options {
        var options = JSONParser.Options()
        options.concurrentMinimumSize = .max
        return options
    }

    /// The outcome of a parse written out in full: every value with its offset, every key with its offset,
    /// then the repeated keys and elided arrays; or the error.
    static func outcome(_ bytes: [UInt8], _ options: JSONParser.Options) -> String {
        do {
            let parsed = try JSONParser.parse(SourceText(bytes: bytes), options: options)
            var text = ""
            write(parsed.root, into: &text)
            for duplicate in parsed.duplicateKeys { text += "\nrepeated \(duplicate.key) \(duplicate.pointer) @\(duplicate.offset)" }
            for (pointer, count) in parsed.elidedArrays.sorted(by: { $0.key.description < $1.key.description }) {
                text += "\nelided \(pointer) \(count)"
            }
            return text
        } catch {
            return "error \(error.kind) @\(error.offset): \(error.message)"
        }
    }

    static func write(_ node: JSONNode, into text: inout String) {
        text += "@\(node.offset)"
        switch node.value {
        case .null: text += "null"
        case .bool(let b): text += "\(b)"
        case .number(let n): text += n.isInteger ? "i\(n.int.map(String.init) ?? "\(n.double)")" : "d\(n.double)"
        case .string(let s): text += "s\(s.debugDescription)"
        case .array(let elements):
            text += "["
            for element in elements { write(element, into: &text); text += "," }
            text += "]"
        case .object(let object):
            text += "{"
            for member in object.members {
                text += "\(member.key.debugDescription)@\(member.keyOffset):"
                write(member.value, into: &text)
                text += ","
            }
            text += "}"
        }
    }

    static func expectSameOutcome(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(text.utf8)
        #expect(outcome(bytes, concurrent) == outcome(bytes, serial), "\(text.prefix(200))", sourceLocation: sourceLocation)
    }

    static let samples: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    @Test func everyShippedSampleParsesTheSameOnEveryCore() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.samples, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
        #expect(files.count > 20)
        for file in files {
            let bytes = Array(try Data(contentsOf: file))
            #expect(Self.outcome(bytes, Self.concurrent) == Self.outcome(bytes, Self.serial), "\(file.lastPathComponent)")
        }
    }

    @Test func arraysOfStringsWithBracketsCommasAndEscapesSplitAtTheirRealElements() {
        Self.expectSameOutcome(#"{"operationalLayers": ["a,b", "]", "[", "\"],[", "\\", {"x": "}"}, [1, [2, "]"]], "é,😀", -1.5e3, true, null]}"#)
        Self.expectSameOutcome(#"[ 1 , 2 ,3,   {"a" : [ ] } , [ ] , { } , "\u005d" ]"#)
        Self.expectSameOutcome(#"{"a": [{"k": 1, "k": 2}, {"k": 3}, {"j": [1], "j": {}}], "b": [[1, 2], [3]]}"#)
    }

    /// The outcomes are the same either way, so this is what tells that a map's layers are still read on every
    /// core: a map whose layers hold lists of their own (field infos, pop-up elements) between their objects.
    @Test func aMapsLayersAreReadOnEveryCore() throws {
        guard ProcessInfo.processInfo.activeProcessorCount > 1 else { return }
        let layer = #"{"id": "L%d", "title": "Trees %d", "popupInfo": {"title": "{Address}", "fieldInfos": [{"fieldName": "A", "visible": true}, {"fieldName": "B", "visible": false}], "popupElements": [{"type": "fields"}, {"type": "attachments"}], "expressionInfos": [{"name": "e", "expression": "return \"},{\" + %d"}]}}"#
        let layers = (0..<500).map { String(format: layer, $0, $0, $0) }.joined(separator: ",")
        let text = #"{"operationalLayers": ["# + layers + #"], "baseMap": {"baseMapLayers": [{"id": "b"}]}, "version": "2.31"}"#
        let parsed = try JSONParser.parse(SourceText(string: text), options: Self.concurrent)
        #expect(parsed.arraysReadConcurrently >= 1)
        #expect(parsed.root["operationalLayers"]?.array?.count == 500)
        Self.expectSameOutcome(text)
    }

    /// Strings holding the bytes of an element boundary (`},{`), short arrays before the long one and arrays after
    /// it, and repeated keys or elided arrays in the later chunks (their element indexes counted in the whole
    /// array) must all give the serial outcome.
    @Test func elementBoundariesInStringsAndArraysAroundTheLongOneGiveTheSerialOutcome() {
        var elided = Self.concurrent
        elided.elisionThreshold = 0
        var elidedSerial = Self.serial
        elidedSerial.elisionThreshold = 0
        for count in [2, 3, 17, 64, 301] {
            let layers = (0..<count).map { i -> String in
                switch i % 4 {
                case 0: return #"{"id": \#(i), "title": "a },{ b }, {\"c\": [1, {\"d\": \#(i)}]}"}"#
                case 1: return #"{"id": \#(i), "k": 1, "k": 2, "s": "},{"}"#
                case 2: return #"{"id": \#(i), "featureSet": {"features": [{"x": 1}, {"x": 2}]}, "t": "}  ,\t{"}"#
                default: return #"{"id": \#(i), "nested": [{"a": 1}, {"a": 2, "a": 3}]}"#
                }
            }.joined(separator: count % 2 == 1 ? ",\n " : ", ")
            let text = #"{"tables": [{"a": 1}, {"b": 2}], "operationalLayers": ["# + layers
                + #"], "baseMap": {"baseMapLayers": [{"x": 1}, {"y": 2}]}, "after": [{"z": 1}, {"z": 2}]}"#
            let bytes = Array(text.utf8)
            #expect(!Self.outcome(bytes, Self.serial).hasPrefix("error"), "\(text.prefix(300))")
            Self.expectSameOutcome(text)
            Self.expectSameOutcome("[" + layers + "]")
            #expect(Self.outcome(bytes, elided) == Self.outcome(bytes, elidedSerial))
        }
    }

    @Test func aBrokenElementIsReportedWhereTheSerialParserReportsIt() {
        let broken = [
            #"{"operationalLayers": [{"id": 1}, {"id": 2,}, {"id": 3}]}"#,
            #"{"operationalLayers": [{"id": 1}, {"id": "2}, {"id": 3}]}"#,
            #"{"operationalLayers": [{"id": 1}, {"id": 2]}, {"id": 3}]}"#,
            #"{"operationalLayers": [{"id": 1}, {"id": 2}}, {"id": 3}]}"#,
            #"{"operationalLayers": [{"id": 1} {"id": 2}]}"#,
            #"{"operationalLayers": [1, 2, 3,]}"#,
            #"{"operationalLayers": [1, 2, 3"#,
            #"{"operationalLayers": [1, 2, "3]}"#,
            #"{"operationalLayers": [1, 2, tru, 4]}"#,
            #"{"operationalLayers": [1, "a\qb", 4]}"#,
            #"{"operationalLayers": [1, 2, 3], "x": }"#,
            #"[1, 2, 3]]"#,
            #"[1, {"a": [1, 2}, 3]"#,
        ]
        for text in broken { Self.expectSameOutcome(text) }
    }

    @Test func badUTF8AndControlCharactersInAnElementAreReportedAlike() {
        var bytes = Array(#"{"operationalLayers": [{"t": "ok"}, {"t": "XX"}, {"t": "ok"}]}"#.utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "X"))!
        bytes[at] = 0xC3
        bytes[at + 1] = 0x28
        #expect(Self.outcome(bytes, Self.concurrent) == Self.outcome(bytes, Self.serial))
        bytes[at] = 0x01
        #expect(Self.outcome(bytes, Self.concurrent) == Self.outcome(bytes, Self.serial))
    }

    @Test func nestingBeyondTheLimitInOneElementIsStillRefused() {
        var options = Self.concurrent
        options.maximumDepth = 6
        let deep = #"{"operationalLayers": [[[[1]]], [[[[[2]]]]], 3]}"#
        let serial: String = {
            var options = Self.serial
            options.maximumDepth = 6
            return Self.outcome(Array(deep.utf8), options)
        }()
        #expect(serial.hasPrefix("error tooDeep"))
        #expect(Self.outcome(Array(deep.utf8), options) == serial)
    }

    @Test func elidedFeatureArraysInsideElementsAreCountedAlike() {
        var concurrent = Self.concurrent
        concurrent.elisionThreshold = 0
        var serial = Self.serial
        serial.elisionThreshold = 0
        let text = #"{"layers": [{"featureSet": {"features": [1, 2, 3]}}, {"featureSet": {"features": [{"a": 1}]}}], "features": [4, 5]}"#
        let bytes = Array(text.utf8)
        let outcome = Self.outcome(bytes, concurrent)
        #expect(outcome.contains("elided /layers/1/featureSet/features 1"))
        #expect(outcome == Self.outcome(bytes, serial))
    }

    /// Damage to a real map: a byte replaced, removed or repeated, at 400 places spread over the file (a fixed
    /// stride, so the same places every run). Each damaged document gives the same tree or the same error on
    /// both paths.
    @Test func damagedMapsGiveTheSameOutcome() throws {
        let file = Self.samples.appendingPathComponent("TreesOfPortland/TreesOfPortland.json")
        let original = Array(try Data(contentsOf: file))
        let replacements = Array(#"[]{}",:\ 0a"#.utf8)
        for k in 0..<400 {
            var bytes = original
            let at = (k * 7_919 + k * k) % bytes.count
            switch k % 3 {
            case 0: bytes[at] = replacements[k % replacements.count]
            case 1: bytes.remove(at: at)
            default: bytes.insert(bytes[at], at: at)
            }
            #expect(Self.outcome(bytes, Self.concurrent) == Self.outcome(bytes, Self.serial), "damage \(k % 3) at byte \(at)")
        }
    }
}
