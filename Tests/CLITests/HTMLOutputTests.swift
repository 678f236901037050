import Foundation
import Testing

/// `--format html` of `lint` and `inspect` from the command line (the pages are checked in a browser by
/// BrowserTests).
struct HTMLOutputTests {
    @Test func lintOfStandardInputShowsTheExcerptOfWhatWasRead() throws {
        let map = "{\n  \"operationalLayers\": [],\n  \"baseMap\": {\"baseMapLayers\": []},\n}\n"
        let result = try CLI.run(["lint", "-", "--stdin-filename", "piped.json", "--format", "html"], input: Data(map.utf8))
        #expect(result.exitCode == 1)
        #expect(result.stdout.hasPrefix("<!DOCTYPE html>"))
        #expect(result.stdout.contains("<span class=\"path\">piped.json</span>"))
        // json/syntax at line 4, column 1: the closing brace after the trailing comma, marked.
        #expect(result.stdout.contains("<span class=\"line target\"><span class=\"ln\">4</span><mark>}</mark>"))
    }

    @Test func inspectWritesTheHTMLPageToTheOutputFile() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("trees.html")
        let result = try CLI.run(["inspect", "Samples/TreesOfPortland/TreesOfPortland.json", "--format", "html", "--output", output.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let page = try String(contentsOf: output, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"))
        #expect(!page.contains("<script"))
        #expect(page.contains("<h3>Trees</h3>"))
        // The same page on standard output without --output.
        let printed = try CLI.run(["inspect", "Samples/TreesOfPortland/TreesOfPortland.json", "--format", "html"])
        #expect(printed.stdout == page)
    }

    @Test func anUnwritableOutputIsAClearError() throws {
        let result = try CLI.run(["inspect", "Samples/TreesOfPortland/TreesOfPortland.json", "--format", "html", "--output", "/nonexistent/folder/x.html"])
        #expect(result.exitCode != 0)
        #expect(result.stderr.contains("cannot write /nonexistent/folder/x.html"))
    }
}
