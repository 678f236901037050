import Rainbow
import Report
import Testing

@Suite(.serialized) struct StylishTests {
    @Test func plainHasNoEscapesAndTheLayoutOfESLint() {
        let output = ReportFixtures.render(.stylish, color: false)
        #expect(!output.utf8.contains(0x1B))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == ReportFixtures.mapPath)
        #expect(lines[1].hasPrefix("    2:12  info     The map title is 52 characters long."))
        #expect(lines[3].hasPrefix("   41:27  error    Pop-up of layer 'Trees'"))
        #expect(lines[4].hasPrefix("  120:3   error    Control \\u{1B}[31mred\\u{1B}[0m and \\u{1} <&>"))
        // Long messages are not padded: each rule ID follows its message after two spaces.
        for line in lines[1...4] { #expect(line.range(of: "  ", options: .backwards) != nil) }
        #expect(lines[2].contains("🌳\\r\\nsecond line\\nthird "))
        #expect(lines[2].hasSuffix("  map/insecure-url"))
        #expect(lines[4].hasSuffix("popup/unknown-field"))
        #expect(lines[5] == "")
        #expect(lines[6] == ReportFixtures.brokenPath, "files without diagnostics are left out")
        #expect(lines[7] == "  3:1  error  Expected ',' or '}' after an object member.  json/syntax")
        #expect(lines[8] == "")
        #expect(lines[9] == "✖ 5 problems (3 errors, 1 warning, 1 info)")
        #expect(lines.count == 11 && lines[10] == "")
    }

    @Test func colourHasEscapesAndTheSameText() {
        let plain = ReportFixtures.render(.stylish, color: false)
        let colored = ReportFixtures.render(.stylish, color: true)
        #expect(colored.utf8.contains(0x1B))
        #expect(colored.contains("\u{1B}[31merror\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[33mwarning\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[4m" + ReportFixtures.mapPath))
        let stripped = colored.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain)
    }

    @Test func optionAloneDecidesAndRainbowIsRestored() {
        let saved = Rainbow.enabled
        Rainbow.enabled = false
        #expect(ReportFixtures.render(.stylish, color: true).utf8.contains(0x1B))
        #expect(Rainbow.enabled == false)
        Rainbow.enabled = true
        #expect(!ReportFixtures.render(.stylish, color: false).utf8.contains(0x1B))
        #expect(Rainbow.enabled == true)
        Rainbow.enabled = saved
    }

    @Test func noProblems() {
        let report = LintReport(files: [ReportFixtures.report.files[1]])
        #expect(ReportFixtures.render(.stylish, report) == "No problems found\n")
        #expect(ReportFixtures.render(.stylish, report, color: true).hasPrefix("\u{1B}["))
    }
}
