import Foundation
import Rules

/// The findings a project has accepted for now, by fingerprint: `maprules lint --write-baseline FILE` records
/// them, `--baseline FILE` reports only the findings not in it (and counts the entries that no longer occur).
///
/// A fingerprint is the SHA-256 of the rule ID, the layer's identity (`id:ID`, else `title:TITLE`, else empty)
/// and the diagnostic's ``Diagnostic/subject`` (its pointer with array indexes replaced by the identities of
/// the elements, and a digest of the value), joined with NUL bytes. No line, column, array index or path is in
/// it, so it survives reformatting the file, reordering its layers or fields, and moving or renaming the file.
/// Each entry also keeps the file's path relative to the baseline file's folder: a finding is matched first
/// to an entry of its own file, then to any entry left with the same fingerprint (a file that moved).
///
/// The reports must come from a linter with `LintOptions.recordSubjects` set (a diagnostic without a subject
/// falls back to its pointer, which does not survive reordering).
///
/// The file (`version` 1) is pretty-printed JSON, entries sorted by file, rule ID, subject and fingerprint, so
/// the same findings always give the same bytes:
///
///     {"tool": "maprules", "version": 1, "entries": [
///       {"file": "maps/trees.json", "ruleId": "popup/unknown-field", "layer": "id:Trees_1234",
///        "subject": "operationalLayers[id=Trees_1234]/popupInfo/fieldInfos[fieldName=Conditon]/fieldName=…",
///        "fingerprint": "9f2c…", "count": 1}]}
public struct Baseline: Sendable, Equatable {
    public struct Entry: Sendable, Hashable, Codable {
        /// Relative to the baseline file's folder, with `/` separators.
        public var file: String
        public var ruleId: String
        public var layer: String
        public var subject: String
        public var fingerprint: String
        /// How many findings of the file have this fingerprint (a repeated entry, say).
        public var count: Int
    }

    public static let formatVersion = 1
    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries.sorted { ($0.file, $0.ruleId, $0.subject, $0.fingerprint) < ($1.file, $1.ruleId, $1.subject, $1.fingerprint) }
    }

    /// The baseline of `reports`, with paths relative to the folder of `baselinePath`.
    public init(recording reports: [FileReport], baselinePath: String) {
        let folder = Self.folder(of: baselinePath)
        var counts: [Entry: Int] = [:]
        for report in reports {
            let file = Self.relativePath(report.path, from: folder)
            for diagnostic in report.diagnostics {
                let key = Self.entry(diagnostic, file: file)
                counts[key, default: 0] += 1
            }
        }
        self.init(entries: counts.map { entry, count in
            var entry = entry
            entry.count = count
            return entry
        })
    }

    private static func entry(_ diagnostic: Diagnostic, file: String) -> Entry {
        let layer = diagnostic.layer.flatMap { reference in
            reference.id.map { "id:" + $0 } ?? reference.title.map { "title:" + $0 }
        } ?? ""
        let subject = diagnostic.subject ?? diagnostic.pointer
        let fingerprint = SHA256.hex([diagnostic.ruleId, layer, subject].joined(separator: "\u{0}"))
        return Entry(file: file, ruleId: diagnostic.ruleId, layer: layer, subject: subject, fingerprint: fingerprint, count: 0)
    }

    /// The baseline as its file's text.
    public var text: String {
        JSONOutput.prettyPrinted(.object([
            ("tool", .string("maprules")),
            ("version", .int(Self.formatVersion)),
            ("entries", .array(entries.map { entry in
                .object([
                    ("file", .string(entry.file)), ("ruleId", .string(entry.ruleId)), ("layer", .string(entry.layer)),
                    ("subject", .string(entry.subject)), ("fingerprint", .string(entry.fingerprint)), ("count", .int(entry.count)),
                ])
            })),
        ])) + "\n"
    }

    /// Reads a baseline file.
    public static func load(path: String) throws(BaselineError) -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BaselineError(path: path, reason: "cannot be read", hint: "write one with `maprules lint --write-baseline \(path)`")
        }
        struct File: Decodable {
            var tool: String
            var version: Int
            var entries: [Entry]
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw BaselineError(path: path, reason: "is not a MapRules baseline (\(Self.describe(error)))",
                                hint: "it should be the JSON that `--write-baseline` writes; write it again")
        }
        guard file.tool == "maprules", file.version == formatVersion else {
            throw BaselineError(path: path, reason: "has version \(file.version) of tool '\(file.tool)', not version \(formatVersion) of maprules",
                                hint: "write it again with this maprules (`--write-baseline`)")
        }
        return Baseline(entries: file.entries)
    }

    private static func describe(_ error: Error) -> String {
        /// "/entries/0/file: " (a JSON pointer), or nothing at the top.
        func place(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? ""
                : "/" + context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/") + ": "
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "\(place(context))no \"\(key.stringValue)\""
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "\(place(context))\(context.debugDescription)"
        case .dataCorrupted(let context)? where !context.codingPath.isEmpty:
            return "\(place(context))\(context.debugDescription)"
        default:
            return "not JSON"
        }
    }

    /// What is left of `reports` once the findings in this baseline are taken out.
    public struct Outcome: Sendable {
        public var reports: [FileReport]
        /// Findings matched by an entry (not reported).
        public var suppressed: Int
        /// Baseline findings that no longer occur (their entries' unmatched counts).
        public var stale: Int
    }

    /// `reports` without the findings this baseline records; `baselinePath` is where it was read from.
    public func filter(_ reports: [FileReport], baselinePath: String) -> Outcome {
        let folder = Self.folder(of: baselinePath)
        var left: [String: [String: Int]] = [:]  // fingerprint -> file -> count
        for entry in entries { left[entry.fingerprint, default: [:]][entry.file, default: 0] += max(entry.count, 0) }
        var keep: [[Bool]] = []
        var pending: [(file: Int, diagnostic: Int, fingerprint: String)] = []
        var suppressed = 0
        for (f, report) in reports.enumerated() {
            let file = Self.relativePath(report.path, from: folder)
            keep.append(Array(repeating: true, count: report.diagnostics.count))
            for (d, diagnostic) in report.diagnostics.enumerated() {
                let fingerprint = Self.entry(diagnostic, file: file).fingerprint
                if let count = left[fingerprint]?[file], count > 0 {
                    left[fingerprint]![file] = count - 1
                    keep[f][d] = false
                    suppressed += 1
                } else {
                    pending.append((f, d, fingerprint))
                }
            }
        }
        // A finding whose file has no entry left may be that of a file that moved: any entry of the same
        // fingerprint still unmatched takes it (the files in sorted order, for a stable answer).
        for (f, d, fingerprint) in pending {
            guard let files = left[fingerprint], let file = files.keys.sorted().first(where: { files[$0]! > 0 }) else { continue }
            left[fingerprint]![file]! -= 1
            keep[f][d] = false
            suppressed += 1
        }
        let stale = left.values.reduce(0) { $0 + $1.values.reduce(0, +) }
        let filtered = reports.enumerated().map { f, report in
            FileReport(path: report.path, kind: report.kind,
                       diagnostics: report.diagnostics.enumerated().filter { keep[f][$0.offset] }.map(\.element))
        }
        return Outcome(reports: filtered, suppressed: suppressed, stale: stale)
    }

    /// The absolute folder holding `path`.
    static func folder(of path: String) -> [String] {
        Array(ReportPaths.components(ofAbsolute: path).dropLast())
    }

    /// `path` relative to `folder` (components of an absolute path), with `..` where it lies outside.
    static func relativePath(_ path: String, from folder: [String]) -> String {
        let file = ReportPaths.components(ofAbsolute: path)
        var common = 0
        while common < folder.count, common < file.count - 1, folder[common] == file[common] { common += 1 }
        return (Array(repeating: "..", count: folder.count - common) + file[common...]).joined(separator: "/")
    }
}

/// A baseline file that cannot be used.
public struct BaselineError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var hint: String

    public var description: String { "baseline \(path) \(reason): \(hint)." }
}
