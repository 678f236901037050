import Foundation
import Testing
import Rules
import WebMap

/// arcade/ rules beyond their own examples: what counts as code, exact positions through JSON escapes, and
/// hostile expressions.
@Suite struct ArcadeRulesTests {
    /// A map whose one pop-up expression is `json`, written into the file exactly as given (a JSON string
    /// literal, quotes included), so that a test controls every escape.
    static func map(rawExpression json: String, minified: Bool = false) -> String {
        let text = """
            {
              "operationalLayers": [
                {
                  "id": "Trees_1234", "title": "Trees", "layerType": "ArcGISFeatureLayer",
                  "url": "\(Examples.treesURL)",
                  "popupInfo": {
                    "title": "{Address}",
                    "fieldInfos": [{"fieldName": "expression/e", "label": "E", "visible": true}],
                    "expressionInfos": [{"name": "e", "title": "E",
                      "expression": \(json)}],
                    "popupElements": [{"type": "fields"}]
                  }
                }
              ],
              "baseMap": {"title": "Topographic", "baseMapLayers": []}
            }
            """
        return minified ? text.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "  ", with: "") : text
    }

    static func lint(_ map: String, services: String? = Examples.treesSnapshot, rule: String) -> [Diagnostic] {
        ExampleRunner.diagnostics(for: .document(map, services: services)).filter { $0.ruleId == rule }
    }

    /// The 1-based line and column (in Unicode scalars) where `marker` first occurs in `text`.
    static func position(of marker: String, in text: String) throws -> (line: Int, column: Int) {
        let range = try #require(text.range(of: marker))
        let before = text[..<range.lowerBound]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
        return (line, before[lineStart...].unicodeScalars.count + 1)
    }

    // MARK: positions

    @Test(arguments: [false, true])
    func unknownFieldPointsAtTheExactCharacterThroughEveryKindOfEscape(minified: Bool) throws {
        // A newline, an escaped quote, an escaped backslash, \u00e9, a surrogate pair and raw non-ASCII before
        // the field: each is one character of the expression but several bytes (or columns) of the file.
        let raw = #""// caf\u00e9 \"x\" \\ \ud83c\udf33 Bäume 🌳\nvar a = \"\\\"\"\nreturn $feature.Address + $feature.Conditon""#
        let map = Self.map(rawExpression: raw, minified: minified)
        let found = Self.lint(map, rule: "arcade/unknown-field")
        #expect(found.count == 1, "\(found.map(\.message))")
        let diagnostic = try #require(found.first)
        let expected = try Self.position(of: "Conditon", in: map)
        #expect(diagnostic.line == expected.line && diagnostic.column == expected.column,
                "\(diagnostic.line):\(diagnostic.column) != \(expected)")
        #expect(diagnostic.pointer == "/operationalLayers/0/popupInfo/expressionInfos/0/expression")
        #expect(diagnostic.message.contains("Did you mean 'Condition'?"))
        #expect(diagnostic.layer == LayerReference(id: "Trees_1234", title: "Trees"))
    }

    @Test func bracketFieldNamePointsAtItsQuote() throws {
        let map = Self.map(rawExpression: #""return $feature[\"Adress\"] + $feature['Conditon']""#)
        let found = Self.lint(map, rule: "arcade/unknown-field")
        #expect(found.map(\.message).contains { $0.contains("'Adress'") } && found.count == 2)
        let first = try #require(found.first)
        // The escaped quote `\"` before Adress: the reference starts at its backslash.
        let expected = try Self.position(of: #"\"Adress"#, in: map)
        #expect(first.line == expected.line && first.column == expected.column)
        let second = try Self.position(of: "'Conditon'", in: map)
        #expect(found[1].line == second.line && found[1].column == second.column)
    }

    @Test func syntaxProblemsPointAtWhatIsNeverClosed() throws {
        let cases: [(String, String)] = [
            (#""return 'abc + 1""#, "'abc"),
            (#""return \"abc""#, #"\"abc"#),
            (#""return `a ${b} c""#, "`a ${"),
            (#""return 1 /* never closed""#, "/* never"),
            (#""if (a { return 1 }""#, "(a {"),
            (#""return [1, 2)""#, ")\""),
            (#""x = 1 }; y""#, "}; y"),
            // The `${` is never closed: the backtick that was meant to end the literal starts a new one.
            (#""return `a ${ (b) c`""#, "`\"}"),
        ]
        for (raw, marker) in cases {
            let map = Self.map(rawExpression: raw)
            let found = Self.lint(map, rule: "arcade/syntax")
            #expect(found.count == 1, "\(raw): \(found.map(\.message))")
            let expected = try Self.position(of: marker, in: map)
            #expect(found.first?.line == expected.line && found.first?.column == expected.column,
                    "\(raw): \(found.first.map { "\($0.line):\($0.column) \($0.message)" } ?? "none") != \(expected)")
        }
    }

    @Test func stringsAndCommentsAreNotCodeButInterpolationsAre() {
        let quiet = [
            #""return '$feature.Conditon )' + \"( $feature['Conditon']\" // $feature.Conditon (""#,
            #""/* $feature.Conditon [ */ return `$feature.Conditon {` + `${ {a: 1}.a }`""#,
            #""return `${ `${$feature.Address}` }`""#,
        ]
        for raw in quiet {
            let map = Self.map(rawExpression: raw)
            #expect(Self.lint(map, rule: "arcade/syntax").isEmpty, "\(raw)")
            #expect(Self.lint(map, rule: "arcade/unknown-field").isEmpty, "\(raw)")
        }
        let interpolated = Self.map(rawExpression: #""return `tree: ${ $feature.Conditon }`""#)
        #expect(Self.lint(interpolated, rule: "arcade/unknown-field").count == 1)
        let expects = Self.map(rawExpression: #""Expects($feature, 'Address', \"Conditon\")\nreturn 1""#)
        #expect(Self.lint(expects, rule: "arcade/unknown-field").count == 1)
        // A computed name cannot be checked, and is not.
        let computed = Self.map(rawExpression: #""var n = 'Cond'\nreturn $feature[n + 'iton'] + $feature['Con' + 'diton']""#)
        #expect(Self.lint(computed, rule: "arcade/unknown-field").isEmpty)
    }

    @Test func fieldsAreCheckedOnlyWithMetadata() {
        let map = Self.map(rawExpression: #""return $feature.Conditon""#)
        #expect(Self.lint(map, services: nil, rule: "arcade/unknown-field").isEmpty)
        #expect(Self.lint(map, rule: "arcade/unknown-field").count == 1)
    }

    @Test func aTablesFeatureIsItsRecord() throws {
        let url = "https://example.com/arcgis/rest/services/Trees/FeatureServer/2"
        let map = """
            {
              "operationalLayers": [],
              "tables": [{"id": "Inspections_1", "title": "Inspections", "url": "\(url)",
                "popupInfo": {"title": "{Notes}", "fieldInfos": [{"fieldName": "Notes", "label": "Notes", "visible": true}],
                  "expressionInfos": [{"name": "e", "expression": "return $feature.Notes + $feature.Condition"}]}}],
              "baseMap": {"title": "Topographic", "baseMapLayers": []}
            }
            """
        let table = """
            {"id": 2, "name": "Inspections", "type": "Table", "objectIdField": "OBJECTID", "capabilities": "Query",
             "fields": [{"name": "OBJECTID", "type": "esriFieldTypeOID"}, {"name": "Notes", "type": "esriFieldTypeString"}]}
            """
        let found = Self.lint(map, services: Examples.snapshot([url: table]), rule: "arcade/unknown-field")
        #expect(found.count == 1)
        #expect(try #require(found.first).message.contains("table 'Inspections' (id Inspections_1) reads field 'Condition'"))
    }

    @Test func relationshipNamesAreCheckedAgainstTheLayer() throws {
        let map = Self.map(rawExpression: #""var a = FeatureSetByRelationshipName($feature, 'Trees_Inspection')\nvar b = FeatureSetByRelationshipName($feature, \"TREES_INSPECTIONS\")\nreturn FeatureSetByRelationshipName($datastore, 'Other')""#)
        let services = Examples.snapshot([Examples.treesURL: Examples.treesLayer(extra: """
            "relationships": [{"id": 1, "name": "Trees_Inspections", "relatedTableId": 2, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin"}]
            """)])
        let found = Self.lint(map, services: services, rule: "arcade/unknown-relationship")
        #expect(found.count == 1)
        let diagnostic = try #require(found.first)
        #expect(diagnostic.severity == .warning)
        #expect(diagnostic.message.contains("Did you mean 'Trees_Inspections'?"))
        let expected = try Self.position(of: "'Trees_Inspection'", in: map)
        #expect(diagnostic.line == expected.line && diagnostic.column == expected.column)
        // No relationships at all: every name is unknown.
        #expect(Self.lint(map, rule: "arcade/unknown-relationship").count == 2)
    }

    @Test func placeholderSubstitutedInTheExpressionStillReportsInsideTheString() throws {
        let map = Self.map(rawExpression: #""return '{{ prefix }}' + $feature.Conditon""#)
        let found = ExampleRunner.diagnostics(for: .document(map, services: Examples.treesSnapshot, variables: ["prefix": "Tree: "]))
            .filter { $0.ruleId == "arcade/unknown-field" }
        #expect(found.count == 1)
        // The text in the file is not the text linted: the finding is at the string's start.
        let expected = try Self.position(of: #""return '{{"#, in: map)
        #expect(found.first?.line == expected.line && found.first?.column == expected.column)
    }

    // MARK: hostile input

    @Test func hostileExpressionsNeverCrashOrHang() {
        let hostile: [String] = [
            String(repeating: "(", count: 200_000),
            String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000),
            String(repeating: "`${", count: 50_000),
            String(repeating: "`${", count: 50_000) + String(repeating: "}`", count: 50_000),
            String(repeating: "$feature[", count: 50_000),
            String(repeating: "'\\", count: 100_000),
            "\\", "'\\", "`\\", "/*", "/", "$feature.", "$feature[", "Expects($feature,", "`${", "\\u{110000}'\\u{FFFFFFFFF}'",
            String(repeating: "a", count: 2_000_000) + " $feature.x",
        ]
        let start = Date()
        for expression in hostile {
            let map = ArcadeRulesTests.map(rawExpression: Self.jsonString(expression))
            _ = ExampleRunner.diagnostics(for: .document(map, services: Examples.treesSnapshot))
        }
        #expect(Date().timeIntervalSince(start) < 60)
        // Invalid UTF-16 escapes make the file invalid JSON: json/syntax, and no arcade finding.
        for raw in [#""\ud800 $feature.Conditon""#, #""\udc00""#, #""\ud83c\u0041""#] {
            let found = ExampleRunner.diagnostics(for: .document(Self.map(rawExpression: raw), services: Examples.treesSnapshot))
            #expect(found.contains { $0.ruleId == "json/syntax" }, "\(raw)")
            #expect(!found.contains { $0.ruleId.hasPrefix("arcade/") }, "\(raw)")
        }
    }

    static func jsonString(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }

    // MARK: the corpus

    /// Real web maps from public repositories hold dozens of expressions: none is flagged, except the one real
    /// mistake among them (an expression that reads a "User Table" its map does not contain).
    @Test func theCorpusHasNoArcadeFindings() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/corpus/webmaps")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count > 10)
        var expressions = 0
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            expressions += text.components(separatedBy: "\"expression\"").count - 1
            let report = try Linter().lint(path: path, isExplicit: true)
            let arcade = (report?.diagnostics ?? []).filter { $0.ruleId.hasPrefix("arcade/") }
            if file == "011-adopt-a-stop-manager.json" {
                // Three expressions ask `FeatureSetByName($map, "User Table")`; the map has no tables at all.
                #expect(arcade.map(\.ruleId) == Array(repeating: "arcade/unknown-layer", count: 3))
                #expect(arcade.allSatisfy { $0.message.contains("'User Table'") })
                continue
            }
            #expect(arcade.isEmpty, "\(file): \(arcade.map { "\($0.line):\($0.column) \($0.message)" })")
        }
        #expect(expressions > 50, "the corpus should exercise the tokenizer")
    }

    /// A finding that suggests no title lists the map's layers, at most 20 of them and how many more: every such
    /// finding names them, and 20,000 findings on a map of 100,000 layers made 30 GB of messages.
    @Test func unknownLayerListsAtMostTwentyTitles() throws {
        let layers = (0..<30).map { k in
            #"{"id": "L\#(k)", "title": "Layer \#(k)", "layerType": "ArcGISFeatureLayer", "url": "\#(Examples.treesURL)", "popupInfo": {"title": "{Address}", "fieldInfos": [{"fieldName": "expression/e", "label": "E", "visible": true}], "expressionInfos": [{"name": "e", "title": "E", "expression": "Count(FeatureSetByName($map, 'Qqqqqqqqqqqqqqqqqqqq \#(k)'))"}], "popupElements": [{"type": "fields"}]}}"#
        }
        let text = "{\"operationalLayers\": [" + layers.joined(separator: ",") + "], \"version\": \"2.28\"}"
        let found = try LargeMapLintTests.lint(text, services: Examples.treesSnapshot, with: [LintOptions()])[0]
            .filter { $0.ruleId == "arcade/unknown-layer" }
        #expect(found.count == 30)
        for diagnostic in found {
            #expect(diagnostic.message.hasSuffix("Its layers and tables: " + (0..<20).map { "'Layer \($0)'" }.joined(separator: ", ") + " and 10 more."),
                    "\(diagnostic.message)")
        }
    }

}
