import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Report
import Rules
import Testing

@Suite struct JUnitTests {
    let document: XMLDocument

    init() throws {
        document = try XMLDocument(xmlString: ReportFixtures.render(.junit), options: [])
    }

    func elements(_ xpath: String) throws -> [XMLElement] {
        try document.nodes(forXPath: xpath).compactMap { $0 as? XMLElement }
    }

    func attribute(_ element: XMLElement?, _ name: String) -> String? {
        element?.attribute(forName: name)?.stringValue
    }

    @Test func countsMatch() throws {
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(attribute(root, "name") == "maprules")
        // Map: info, warning, error rule -> 3 cases (1 failing); good file: 1; broken: 1 failing.
        #expect(attribute(root, "tests") == "5")
        #expect(attribute(root, "failures") == "2")
        let suites = try elements("/testsuites/testsuite")
        #expect(suites.map { attribute($0, "name") } == ReportFixtures.report.files.map(\.path))
        #expect(suites.map { attribute($0, "tests") } == ["3", "1", "1"])
        #expect(suites.map { attribute($0, "failures") } == ["1", "0", "1"])
        #expect(try elements("//testcase").count == 5)
        #expect(try elements("//failure").count == 2)
    }

    @Test func oneCasePerFileAndRule() throws {
        let cases = try elements("/testsuites/testsuite[1]/testcase")
        #expect(cases.map { attribute($0, "name") } == ["map/insecure-url", "map/title-too-long", "popup/unknown-field"])
        #expect(cases.allSatisfy { attribute($0, "classname") == ReportFixtures.mapPath })
        let failure = try #require(cases[2].elements(forName: "failure").first)
        #expect(attribute(failure, "type") == "popup/unknown-field")
        let lines = (failure.stringValue ?? "").split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("41:27 Pop-up of layer 'Trees'"))
        #expect(lines[1].hasPrefix("120:3 Control \\u{1B}[31mred"))
        #expect(lines[1].hasSuffix("\\u{1} <&>"))
        #expect(attribute(failure, "message")?.hasPrefix("2 errors: Pop-up of layer") == true)

        let good = try elements("/testsuites/testsuite[2]/testcase")
        #expect(good.count == 1 && attribute(good[0], "name") == "maprules" && good[0].childCount == 0)
    }

    @Test func warningsAndInfosPassWithTheirTextInSystemOut() throws {
        let warning = try #require(try elements("//testcase[@name='map/insecure-url']").first)
        #expect(warning.elements(forName: "failure").isEmpty)
        let out = try #require(warning.elements(forName: "system-out").first?.stringValue)
        // Written as a character reference, the CR survives the parser's line-end normalization.
        #expect(out == "9:14 warning " + ReportFixtures.trickyMessage)
    }

    @Test func attributesKeepSpecialCharacters() throws {
        let message = "1 < 2 & \"a\" 'b' > c\nnext\ttab \u{1B} \u{FFFF} Bäume"
        let report = LintReport(files: [FileReport(path: "a&b <c>.json", kind: "json", diagnostics: [
            Diagnostic(ruleId: "json/syntax", severity: .error, message: message, pointer: "", line: 1, column: 1),
        ])])
        let xml = ReportFixtures.render(.junit, report)
        let parsed = try XMLDocument(xmlString: xml, options: [])
        let failure = try #require(try parsed.nodes(forXPath: "//failure").first as? XMLElement)
        #expect(failure.attribute(forName: "message")?.stringValue == "1 < 2 & \"a\" 'b' > c\nnext\ttab \\u{1B} \\u{FFFF} Bäume")
        let suite = try #require(try parsed.nodes(forXPath: "//testsuite").first as? XMLElement)
        #expect(suite.attribute(forName: "name")?.stringValue == "a&b <c>.json")
    }
}
