import Rules

/// `--format json`: the report of docs/cli.md, validated by `Schemas/report.schema.json`.
///
/// Keys are written in the order docs/cli.md shows them, indented by two spaces. `layer`, `metadataSource` and
/// `fix` (`{"description", "patch"}`, the patch an RFC 6902 JSON Patch) appear only when a diagnostic has them; a layer's `id` and `title` are always both there, `null` when the
/// map does not give one.
enum JSONReportFormatter {
    static func render(_ report: LintReport) -> String {
        String(decoding: renderUTF8(report), as: UTF8.self)
    }

    static func renderUTF8(_ report: LintReport) -> [UInt8] {
        JSONOutput.prettyPrintedUTF8(value(of: report), newline: true, capacity: JSONOutput.estimatedSize(of: report, perDiagnostic: 300))
    }

    static func value(of report: LintReport) -> JSONOutput {
        .object([
            ("tool", .object([("name", .string(report.tool.name)), ("version", .string(report.tool.version))])),
            ("files", .array(report.files.map(value(of:)))),
            ("summary", .object([
                ("files", .int(report.summary.files)),
                ("errors", .int(report.summary.errors)),
                ("warnings", .int(report.summary.warnings)),
                ("infos", .int(report.summary.infos)),
            ])),
        ])
    }

    static func value(of file: FileReport) -> JSONOutput {
        .object([
            ("path", .string(file.path)),
            ("kind", .string(file.kind)),
            ("diagnostics", .streamed(count: file.diagnostics.count) { i, indent, writer in
                write(file.diagnostics[i], indent: indent, to: &writer)
            }),
        ])
    }

    static func value(of diagnostic: Diagnostic) -> JSONOutput {
        var members: [(String, JSONOutput)] = [
            ("ruleId", .string(diagnostic.ruleId)),
            ("severity", .string(diagnostic.severity.rawValue)),
            ("message", .string(diagnostic.message)),
            ("pointer", .string(diagnostic.pointer)),
            ("line", .int(diagnostic.line)),
            ("column", .int(diagnostic.column)),
        ]
        if let layer = diagnostic.layer {
            members.append(("layer", .object([("id", .string(layer.id)), ("title", .string(layer.title))])))
        }
        if let source = diagnostic.metadataSource {
            members.append(("metadataSource", .string(source.rawValue)))
        }
        if let fix = diagnostic.fix {
            members.append(("fix", .object([("description", .string(fix.description)), ("patch", .array(fix.patch.map(value(of:))))])))
        }
        return .object(members)
    }

    /// `value(of:)` of a diagnostic written straight into the output: the same bytes, without the value (a
    /// report of 250,000 findings would make 2,000,000 of them).
    static func write(_ diagnostic: Diagnostic, indent: Int, to writer: inout JSONByteWriter) {
        var object = JSONObjectStream(indent: indent, &writer)
        object.key("ruleId", &writer)
        writer.string(diagnostic.ruleId)
        object.key("severity", &writer)
        writer.string(diagnostic.severity.rawValue)
        object.key("message", &writer)
        writer.string(diagnostic.message)
        object.key("pointer", &writer)
        writer.string(diagnostic.pointer)
        object.key("line", &writer)
        writer.append(diagnostic.line)
        object.key("column", &writer)
        writer.append(diagnostic.column)
        writer.layerAndMetadataSource(of: diagnostic, in: &object)
        if let fix = diagnostic.fix {
            object.key("fix", &writer)
            JSONOutput.write(.object([("description", .string(fix.description)), ("patch", .array(fix.patch.map(value(of:))))]),
                             indent: object.memberIndent, to: &writer)
        }
        object.close(&writer)
    }

    /// An RFC 6902 operation: `op`, `path`, and `value` for `add` and `replace`.
    static func value(of operation: PatchOperation) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("op", .string(operation.op.rawValue)), ("path", .string(operation.path))]
        switch operation.value {
        case .string(let s)?: members.append(("value", .string(s)))
        case .bool(let b)?: members.append(("value", .bool(b)))
        case .json(let json)?: members.append(("value", JSONOutput(json)))
        case nil: break
        }
        return .object(members)
    }
}

extension JSONByteWriter {
    /// The `layer` (`{"id": …, "title": …}`, null for what it lacks) and `metadataSource` members of `object`,
    /// each when the finding has one: the JSON report's diagnostic and the SARIF result's `properties` share them.
    mutating func layerAndMetadataSource(of diagnostic: Diagnostic, in object: inout JSONObjectStream) {
        if let layer = diagnostic.layer {
            object.key("layer", &self)
            var member = JSONObjectStream(indent: object.memberIndent, &self)
            member.key("id", &self)
            if let id = layer.id { string(id) } else { append("null") }
            member.key("title", &self)
            if let title = layer.title { string(title) } else { append("null") }
            member.close(&self)
        }
        if let source = diagnostic.metadataSource {
            object.key("metadataSource", &self)
            string(source.rawValue)
        }
    }
}
