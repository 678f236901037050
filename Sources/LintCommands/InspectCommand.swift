import ArgumentParser
import Foundation
import Report
import Rules
import WebMap

public struct InspectCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what a field app will do with a map, layer by layer.",
        discussion: """
            For each layer and table: pop-up enabled, identify order, whether features can be added (and \
            if not, why), display and editable fields with their editors, related records, attachments, delete.
            With --format html, one self-contained page to open in a browser: each layer's pop-up drawn as a crew \
            sees it in edit mode (fields in order with their controls and choice values, related records, \
            attachments, delete), the add button's state with the reasons, and the layers' draw order and scale \
            ranges as a picture.
            Examples:
              maprules inspect Samples/TreesOfPortland/TreesOfPortland.json --format json
              maprules inspect Samples/TreesOfPortland/TreesOfPortland.json --format html --output trees.html
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, html }

    @Argument(help: "The web map file.")
    var map: String

    @Option(help: ArgumentHelp("A services snapshot file (repeatable).", valueName: "FILE"))
    var services: [String] = []

    @Flag(help: "Fetch metadata missing from snapshots from the live services.")
    var fetch = false

    @Option(help: "Token for --fetch (or MAPRULES_TOKEN).")
    var token: String?

    @Option(help: "Output format: text, json or html.")
    var format: Format = .text

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    public func run() throws {
        var options = LintOptions()
        do {
            for path in services { options.snapshots.append(try ServicesSnapshot.load(path: path)) }
            if fetch { options.fetcher = MetadataOverURLSession.fetcher(token: token ?? ProcessInfo.processInfo.environment["MAPRULES_TOKEN"]) }
            let (document, behavior) = try Linter(options: options).analyze(path: map)
            let report = InspectReport(path: map, document: document, behavior: behavior)
            switch format {
            case .text: try emit(report.text(), to: output)
            case .json: try emit(report.json() + "\n", to: output)
            case .html: try emit(InspectPage.render(report: report, behavior: behavior), to: output)
            }
        } catch let error as DocumentError {
            throw CommandFailure(error.description)
        } catch let error as ConfigurationError {
            throw CommandFailure(error.description)
        }
    }
}

public struct SnapshotCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Fetch the metadata of every service-backed layer of a map into a services snapshot file.",
        discussion: """
            The snapshot lets CI lint the map offline: name it <map>.services.json beside the map, or pass it \
            with --services.
            Example: maprules snapshot map.json --output map.services.json --token $TOKEN
            """)

    @Argument(help: "The web map file.")
    var map: String

    @Option(help: "The snapshot file to write.")
    var output: String

    @Option(help: "Token for secured services (or MAPRULES_TOKEN).")
    var token: String?

    public func run() throws {
        let fetcher = MetadataOverURLSession.fetcher(token: token ?? ProcessInfo.processInfo.environment["MAPRULES_TOKEN"])
        let document: WebMapDocument
        do {
            var options = LintOptions()
            options.useDefaultSnapshots = false
            document = try Linter(options: options).analyze(path: map).document
        } catch {
            throw CommandFailure("\(error)")
        }
        var urls: [String] = []
        for layer in document.layers where layer.isServiceBacked {
            guard let url = layer.url, let parts = ServiceURL.layerComponents(url) else { continue }
            for candidate in [parts.service, ServiceURL.normalize(url)] where !urls.contains(candidate) { urls.append(candidate) }
        }
        var entries: [(String, String)] = []
        var failures: [String] = []
        for (index, url) in urls.enumerated() {
            if Console.stderrIsTerminal { FileHandle.standardError.write(Data("\rfetching \(index + 1)/\(urls.count)".utf8)) }
            switch fetcher.fetchRaw(url: url) {
            case .success(let text): entries.append((url, text))
            case .failure(let error): failures.append(error.description)
            }
        }
        if Console.stderrIsTerminal && !urls.isEmpty { FileHandle.standardError.write(Data("\n".utf8)) }
        for failure in failures { Console.error("warning: \(failure)") }
        let body = entries.map { "  \(jsonString($0.0)): \($0.1)" }.joined(separator: ",\n")
        try emit("{\n" + body + "\n}\n", to: output)
        print("wrote \(entries.count) entries to \(output)" + (failures.isEmpty ? "" : " (\(failures.count) failed)"))
        if !failures.isEmpty { throw ExitCode(2) }
    }

    private func jsonString(_ s: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])
        let text = data.map { String(decoding: $0, as: UTF8.self) } ?? "[\"\"]"
        return String(text.dropFirst().dropLast())
    }
}
