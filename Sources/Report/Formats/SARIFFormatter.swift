import Rules

/// `--format sarif`: SARIF 2.1.0 as GitHub code scanning accepts it (upload with
/// `github/codeql-action/upload-sarif`).
///
/// - `runs[0].tool.driver.rules` lists the whole catalogue of ``ReportOptions/rules`` in catalogue order,
///   whether a rule fired or not, followed (sorted by ID) by any rule a diagnostic names that the catalogue
///   does not hold. Each result's `ruleIndex` points into that array.
/// - `artifactLocation.uri` is relative to ``ReportOptions/baseDirectory`` with `uriBaseId` `%SRCROOT%`, which
///   `originalUriBaseIds` maps to the folder's `file:` URI; a file outside the folder gets an absolute `file:`
///   URI instead.
/// - Columns count Unicode scalars, as the parser does (`columnKind` `unicodeCodePoints`).
/// - A diagnostic with a fix has `fixes` (one fix: the file's replacements, see ``fix(_:artifact:)``).
///
/// **Fingerprints.** `partialFingerprints["mapRulesFingerprint/v1"]` lets code scanning follow an alert across
/// commits that move it. It is the lowercase hex SHA-256 (``SHA256``, a local implementation; swift-crypto is
/// not a dependency) of the relative file path, rule ID, JSON pointer and layer id (empty when none), joined
/// with NUL bytes, then `:` and the occurrence number of that same key in the file (1 for the first), as
/// GitHub's own `primaryLocationLineHash` does. Line and column are not part of it: reformatting or inserting
/// lines above a finding keeps its alert. Changing the format of this input means bumping `/v1`.
enum SARIFFormatter {
    static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    static let informationURI = "https://maprules.dev"
    static let fingerprintKey = "mapRulesFingerprint/v1"
    static let sourceRootId = "%SRCROOT%"

    static func render(_ report: LintReport, options: ReportOptions) -> String {
        String(decoding: renderUTF8(report, options: options), as: UTF8.self)
    }

    static func renderUTF8(_ report: LintReport, options: ReportOptions) -> [UInt8] {
        JSONOutput.prettyPrintedUTF8(log(report, options: options), newline: true,
                                     capacity: 64 * 1024 + JSONOutput.estimatedSize(of: report, perDiagnostic: 1_000))
    }

    static func log(_ report: LintReport, options: ReportOptions) -> JSONOutput {
        var ruleIds: [String] = []
        var rules: [JSONOutput] = []
        var ruleIndex: [String: Int] = [:]
        for rule in options.rules where ruleIndex[rule.id] == nil {
            ruleIndex[rule.id] = ruleIds.count
            ruleIds.append(rule.id)
            rules.append(descriptor(rule))
        }
        var unknown: [String: Severity] = [:]
        for file in report.files {
            for diagnostic in file.diagnostics where ruleIndex[diagnostic.ruleId] == nil && unknown[diagnostic.ruleId] == nil {
                unknown[diagnostic.ruleId] = diagnostic.severity
            }
        }
        for (id, severity) in unknown.sorted(by: { $0.key < $1.key }) {
            ruleIndex[id] = ruleIds.count
            ruleIds.append(id)
            rules.append(descriptor(id: id, severity: severity))
        }

        // The results are written as they are made (`.generated`); here only what each needs is gathered.
        var results: [(diagnostic: Diagnostic, artifact: JSONOutput, fingerprint: String)] = []
        for file in report.files {
            let relativePath = ReportPaths.relative(file.path, to: options.baseDirectory)
            let artifact: JSONOutput
            if let relativePath {
                artifact = .object([("uri", .string(ReportPaths.uriReference(relativePath))), ("uriBaseId", .string(sourceRootId))])
            } else {
                artifact = .object([("uri", .string(ReportPaths.fileURI(file.path)))])
            }
            let fingerprintPath = relativePath ?? ReportPaths.components(ofAbsolute: file.path).joined(separator: "/")
            // Each key's digest is computed once, however many findings share it (all those of one expression).
            var occurrences: [String: (digest: String, count: Int)] = [:]
            for diagnostic in file.diagnostics {
                let key = fingerprintPath + "\u{0}" + diagnostic.ruleId + "\u{0}" + diagnostic.pointer + "\u{0}" + (diagnostic.layer?.id ?? "")
                let count: Int
                let digest: String
                if let seen = occurrences[key] {
                    (digest, count) = (seen.digest, seen.count + 1)
                } else {
                    (digest, count) = (SHA256.hex(key), 1)
                }
                occurrences[key] = (digest, count)
                let fingerprint = digest + ":" + String(count)
                results.append((diagnostic, artifact, fingerprint))
            }
        }

        let driver = JSONOutput.object([
            ("name", .string(report.tool.name)),
            ("version", .string(report.tool.version)),
            ("semanticVersion", .string(report.tool.version)),
            ("informationUri", .string(informationURI)),
            ("rules", .array(rules)),
        ])
        let run = JSONOutput.object([
            ("tool", .object([("driver", driver)])),
            ("originalUriBaseIds", .object([(sourceRootId, .object([("uri", .string(ReportPaths.folderURI(options.baseDirectory)))]))])),
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .generated(count: results.count) { i in
                let (diagnostic, artifact, fingerprint) = results[i]
                return result(diagnostic, ruleIndex: ruleIndex[diagnostic.ruleId]!, artifact: artifact, fingerprint: fingerprint)
            }),
        ])
        return .object([
            ("$schema", .string(schemaURI)),
            ("version", .string("2.1.0")),
            ("runs", .array([run])),
        ])
    }

    /// SARIF's `level` for a severity.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    /// `PopupUnknownField` for `popup/unknown-field`.
    static func ruleName(_ id: String) -> String {
        id.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static func descriptor(_ rule: RuleDescription) -> JSONOutput {
        .object([
            ("id", .string(rule.id)),
            ("name", .string(ruleName(rule.id))),
            ("shortDescription", .object([("text", .string(rule.summary))])),
            ("fullDescription", .object([("text", .string(rule.rationale))])),
            ("help", .object([
                ("text", .string(rule.rationale + "\n\nHow to fix: " + rule.fix)),
                ("markdown", .string(rule.rationale + "\n\n**How to fix:** " + rule.fix)),
            ])),
            ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
            ("properties", .object([("tags", .array([.string("maprules"), .string(rule.family)]))])),
        ])
    }

    /// A descriptor for a rule the catalogue does not know (from another tool's diagnostics, say).
    private static func descriptor(id: String, severity: Severity) -> JSONOutput {
        let family = String(id.split(separator: "/").first ?? "")
        return .object([
            ("id", .string(id)),
            ("name", .string(ruleName(id))),
            ("shortDescription", .object([("text", .string(id))])),
            ("fullDescription", .object([("text", .string(id))])),
            ("help", .object([("text", .string(id)), ("markdown", .string("`" + id + "`"))])),
            ("defaultConfiguration", .object([("level", .string(level(severity)))])),
            ("properties", .object([("tags", .array([.string("maprules"), .string(family)]))])),
        ])
    }

    private static func result(_ diagnostic: Diagnostic, ruleIndex: Int, artifact: JSONOutput, fingerprint: String) -> JSONOutput {
        var properties: [(String, JSONOutput)] = [("pointer", .string(diagnostic.pointer))]
        if let layer = diagnostic.layer {
            properties.append(("layer", .object([("id", .string(layer.id)), ("title", .string(layer.title))])))
        }
        if let source = diagnostic.metadataSource {
            properties.append(("metadataSource", .string(source.rawValue)))
        }
        let region = JSONOutput.object([
            ("startLine", .int(max(1, diagnostic.line))),
            ("startColumn", .int(max(1, diagnostic.column))),
        ])
        var members: [(String, JSONOutput)] = [
            ("ruleId", .string(diagnostic.ruleId)),
            ("ruleIndex", .int(ruleIndex)),
            ("level", .string(level(diagnostic.severity))),
            ("message", .object([("text", .string(diagnostic.message))])),
            ("locations", .array([.object([("physicalLocation", .object([("artifactLocation", artifact), ("region", region)]))])])),
            ("partialFingerprints", .object([(fingerprintKey, .string(fingerprint))])),
        ]
        if let fix = diagnostic.fix, !fix.edits.isEmpty {
            members.append(("fixes", .array([self.fix(fix, artifact: artifact)])))
        }
        members.append(("properties", .object(properties)))
        return .object(members)
    }

    /// A `fix` object (SARIF 2.1.0 §3.55): one `artifactChange` for the file, one `replacement` per text edit,
    /// its `deletedRegion` given both as lines and columns (Unicode scalars, like every region here) and as
    /// bytes; an insertion deletes an empty region.
    private static func fix(_ fix: Fix, artifact: JSONOutput) -> JSONOutput {
        let replacements: [JSONOutput] = fix.edits.sorted { $0.offset < $1.offset }.map { edit in
            .object([
                ("deletedRegion", .object([
                    ("startLine", .int(edit.start.line)),
                    ("startColumn", .int(edit.start.column)),
                    ("endLine", .int(edit.end.line)),
                    ("endColumn", .int(edit.end.column)),
                    ("byteOffset", .int(edit.offset)),
                    ("byteLength", .int(edit.length)),
                ])),
                ("insertedContent", .object([("text", .string(edit.text))])),
            ])
        }
        return .object([
            ("description", .object([("text", .string(fix.description))])),
            ("artifactChanges", .array([.object([("artifactLocation", artifact), ("replacements", .array(replacements))])])),
        ])
    }
}
