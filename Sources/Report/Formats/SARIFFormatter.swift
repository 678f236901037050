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
    static let fingerprintKey: StaticString = "mapRulesFingerprint/v1"
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

        // The results are written straight into the output as they are reached (`.streamed`), never built as
        // values: a result as a tree of values is some twenty allocations, for 250,000 results.
        var results = ResultCursor(files: report.files, baseDirectory: options.baseDirectory)
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
            ("results", .streamed(count: results.count) { _, indent, writer in
                let (diagnostic, file) = results.next()
                writeResult(diagnostic, ruleIndex: ruleIndex[diagnostic.ruleId]!, file: file, indent: indent, to: &writer)
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

    /// One result, written as the value tree of the previous versions of this formatter would print it:
    /// `ruleId`, `ruleIndex`, `level`, `message`, `locations`, `partialFingerprints`, `fixes` (when there is a
    /// fix), `properties`.
    private static func writeResult(_ diagnostic: Diagnostic, ruleIndex: Int, file: ResultCursor.FileFacts, indent: Int,
                                    to writer: inout JSONByteWriter) {
        var result = JSONObjectStream(indent: indent, &writer)
        result.key("ruleId", &writer)
        writer.string(diagnostic.ruleId)
        result.key("ruleIndex", &writer)
        writer.append(ruleIndex)
        result.key("level", &writer)
        writer.string(level(diagnostic.severity))

        result.key("message", &writer)
        var message = JSONObjectStream(indent: result.memberIndent, &writer)
        message.key("text", &writer)
        writer.string(diagnostic.message)
        message.close(&writer)

        // "locations": [ { "physicalLocation": { "artifactLocation": …, "region": { … } } } ]
        result.key("locations", &writer)
        writer.append("[\n")
        writer.spaces(result.memberIndent + 2)
        var location = JSONObjectStream(indent: result.memberIndent + 2, &writer)
        location.key("physicalLocation", &writer)
        var physical = JSONObjectStream(indent: location.memberIndent, &writer)
        physical.key("artifactLocation", &writer)
        JSONOutput.write(file.artifact, indent: physical.memberIndent, to: &writer)
        physical.key("region", &writer)
        var region = JSONObjectStream(indent: physical.memberIndent, &writer)
        region.key("startLine", &writer)
        writer.append(max(1, diagnostic.line))
        region.key("startColumn", &writer)
        writer.append(max(1, diagnostic.column))
        region.close(&writer)
        physical.close(&writer)
        location.close(&writer)
        writer.append(UInt8(ascii: "\n"))
        writer.spaces(result.memberIndent)
        writer.append(UInt8(ascii: "]"))

        result.key("partialFingerprints", &writer)
        var fingerprints = JSONObjectStream(indent: result.memberIndent, &writer)
        fingerprints.key(fingerprintKey, &writer)
        let (digest, occurrence) = file.fingerprint(of: diagnostic)
        writer.append(UInt8(ascii: "\""))
        writer.appendUnescaped(digest)
        writer.append(UInt8(ascii: ":"))
        writer.append(occurrence)
        writer.append(UInt8(ascii: "\""))
        fingerprints.close(&writer)

        if let fix = diagnostic.fix, !fix.edits.isEmpty {
            result.key("fixes", &writer)
            JSONOutput.write(.array([self.fix(fix, artifact: file.artifact)]), indent: result.memberIndent, to: &writer)
        }

        result.key("properties", &writer)
        var properties = JSONObjectStream(indent: result.memberIndent, &writer)
        properties.key("pointer", &writer)
        writer.string(diagnostic.pointer)
        writer.layerAndMetadataSource(of: diagnostic, in: &properties)
        properties.close(&writer)
        result.close(&writer)
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

extension SARIFFormatter {
    /// Walks a report's diagnostics in order, file by file, with what each file's results share: the artifact
    /// location and the fingerprint occurrences counted so far.
    struct ResultCursor {
        /// One file's artifact location and fingerprint state. A class: results read it as they are written.
        final class FileFacts {
            let artifact: JSONOutput
            private let fingerprintPath: String
            /// Each key's digest and how many times it was seen, once its run of consecutive findings ends.
            private var occurrences: [String: (digest: String, count: Int)] = [:]
            /// The key of the last finding, its parts, digest and count so far: the findings of one expression
            /// come one after another with the same key, and are counted without making the key again.
            private var current: (ruleId: String, pointer: String, layerId: String, key: String, digest: String, count: Int)?

            init(artifact: JSONOutput, fingerprintPath: String) {
                self.artifact = artifact
                self.fingerprintPath = fingerprintPath
            }

            /// The digest of `diagnostic`'s key and its occurrence number in the file (1 for the first).
            /// Called once per diagnostic, in report order.
            func fingerprint(of diagnostic: Diagnostic) -> (digest: String, occurrence: Int) {
                let layerId = diagnostic.layer?.id ?? ""
                if let last = current, last.ruleId == diagnostic.ruleId, last.pointer == diagnostic.pointer, last.layerId == layerId {
                    current!.count += 1
                    return (last.digest, last.count + 1)
                }
                if let last = current { occurrences[last.key] = (last.digest, last.count) }
                let key = fingerprintPath + "\u{0}" + diagnostic.ruleId + "\u{0}" + diagnostic.pointer + "\u{0}" + layerId
                let seen = occurrences[key]
                let digest = seen?.digest ?? SHA256.hex(key)
                let count = (seen?.count ?? 0) + 1
                current = (diagnostic.ruleId, diagnostic.pointer, layerId, key, digest, count)
                return (digest, count)
            }
        }

        private let files: [FileReport]
        private let baseDirectory: String
        private var fileIndex = 0
        private var diagnosticIndex = 0
        private var facts: FileFacts?
        /// The number of diagnostics in all files.
        let count: Int

        init(files: [FileReport], baseDirectory: String) {
            self.files = files
            self.baseDirectory = baseDirectory
            count = files.reduce(0) { $0 + $1.diagnostics.count }
        }

        /// The next diagnostic and its file's facts; call at most ``count`` times.
        mutating func next() -> (Diagnostic, FileFacts) {
            while diagnosticIndex >= files[fileIndex].diagnostics.count {
                fileIndex += 1
                diagnosticIndex = 0
                facts = nil
            }
            let file = files[fileIndex]
            let fileFacts = facts ?? Self.facts(of: file, baseDirectory: baseDirectory)
            facts = fileFacts
            diagnosticIndex += 1
            return (file.diagnostics[diagnosticIndex - 1], fileFacts)
        }

        private static func facts(of file: FileReport, baseDirectory: String) -> FileFacts {
            let relativePath = ReportPaths.relative(file.path, to: baseDirectory)
            let artifact: JSONOutput
            if let relativePath {
                artifact = .object([("uri", .string(ReportPaths.uriReference(relativePath))), ("uriBaseId", .string(sourceRootId))])
            } else {
                artifact = .object([("uri", .string(ReportPaths.fileURI(file.path)))])
            }
            let fingerprintPath = relativePath ?? ReportPaths.components(ofAbsolute: file.path).joined(separator: "/")
            return FileFacts(artifact: artifact, fingerprintPath: fingerprintPath)
        }
    }
}
