import Foundation
import Report
import Rules
import WebMap

/// A hand-built report whose messages hold everything an output format must escape.
enum ReportFixtures {
    static let baseDirectory = "/repo"

    /// `%`, CR LF and LF, `<`, `&`, both quotes, `:` and `,`, non-ASCII and an emoji.
    static let trickyMessage = "100% of <layers> & \"quoted\" 'names': Bäume, 🌳\r\nsecond line\nthird"

    static let mapPath = "/repo/Samples/Broken/popup-unknown-field.json"
    static let goodPath = "/repo/Samples/Good/trees.json"
    static let brokenPath = "/repo/Samples/Broken/not json.json"

    static let report: LintReport = {
        let trees = LayerReference(id: "Trees_1234", title: "Trees")
        let map = FileReport(path: mapPath, kind: "webmap", diagnostics: [
            Diagnostic(ruleId: "map/title-too-long", severity: .info, message: "The map title is 52 characters long.",
                       pointer: "/title", line: 2, column: 12),
            Diagnostic(ruleId: "map/insecure-url", severity: .warning, message: trickyMessage,
                       pointer: "/operationalLayers/0/url", line: 9, column: 14, layer: trees),
            Diagnostic(ruleId: "popup/unknown-field", severity: .error,
                       message: "Pop-up of layer 'Trees' (id Trees_1234) lists field 'Conditon', which the layer does not have. Did you mean 'Condition'?",
                       pointer: "/operationalLayers/0/popupInfo/fieldInfos/3/fieldName", line: 41, column: 27,
                       layer: trees, metadataSource: .snapshot),
            Diagnostic(ruleId: "popup/unknown-field", severity: .error, message: "Control \u{1B}[31mred\u{1B}[0m and \u{01} <&>",
                       pointer: "/operationalLayers/0/popupInfo/fieldInfos/7/fieldName", line: 120, column: 3,
                       layer: LayerReference(id: "Trees_1234", title: nil), metadataSource: .live),
        ])
        let good = FileReport(path: goodPath, kind: "webmap", diagnostics: [])
        let broken = FileReport(path: brokenPath, kind: "json", diagnostics: [
            Diagnostic(ruleId: "json/syntax", severity: .error, message: "Expected ',' or '}' after an object member.",
                       pointer: "", line: 3, column: 1),
        ])
        return LintReport(files: [map, good, broken])
    }()

    static var options: ReportOptions { ReportOptions(color: false, baseDirectory: baseDirectory) }

    static func render(_ format: ReportFormat, _ report: LintReport = report, color: Bool = false) -> String {
        ReportRenderer.render(report, as: format, options: ReportOptions(color: color, baseDirectory: baseDirectory))
    }

    /// The report with one diagnostic changed.
    static func changing(file: Int = 0, diagnostic: Int, _ change: (inout Diagnostic) -> Void) -> LintReport {
        var files = report.files
        change(&files[file].diagnostics[diagnostic])
        return LintReport(files: files)
    }

    /// The package's root folder, found from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func jsonObject(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }
}
