import Foundation
import GRDB
import WebMap

/// Turns parsed queries into SQL over the visible rows of a layer in a version. Literals and field paths
/// are always bound parameters; the only SQL text is the compiler's own.
struct QueryCompiler {
    let layer: LayerModel

    /// The SQL expression of a field's value in the row aliased `r`.
    func field(_ name: String) -> SQL {
        if name.caseInsensitiveCompare(layer.objectIdField) == .orderedSame { return SQL("r.objectId") }
        if let global = layer.globalIdField, name.caseInsensitiveCompare(global) == .orderedSame { return SQL("r.globalId") }
        let canonical = layer.field(name)?.name ?? name
        return SQL("json_extract(r.attributes, \(Self.jsonPath(canonical)))")
    }

    /// `$."Name"`: a JSON path naming one member (bound as a parameter, never spliced into SQL).
    static func jsonPath(_ name: String) -> String { "$.\"" + name.replacingOccurrences(of: "\"", with: "") + "\"" }

    func compile(_ expression: WhereExpression) -> SQL {
        switch expression {
        // Chains are written flat (`(a OR b OR c)`), not nested: SQLite's parser has a bounded stack.
        case .and:
            return "(\(Self.flatten(expression, and: true).map(compile).joined(separator: " AND ")))"
        case .or:
            return "(\(Self.flatten(expression, and: false).map(compile).joined(separator: " OR ")))"
        case .not(let a): return "(NOT \(compile(a)))"
        case .compare(let l, let op, let r):
            let (left, right) = (operand(l, peer: r), operand(r, peer: l))
            let symbol: SQL
            switch op {
            case .equal: symbol = "="
            case .notEqual: symbol = "<>"
            case .less: symbol = "<"
            case .lessOrEqual: symbol = "<="
            case .greater: symbol = ">"
            case .greaterOrEqual: symbol = ">="
            }
            return "(\(left) \(symbol) \(right))"
        case .inList(let l, let items, let negated):
            let list = items.map { operand($0, peer: l) }.joined(separator: ", ")
            return negated ? "(\(operand(l, peer: nil)) NOT IN (\(list)))" : "(\(operand(l, peer: nil)) IN (\(list)))"
        case .between(let v, let low, let high, let negated):
            let value = operand(v, peer: nil)
            return negated
                ? "(\(value) NOT BETWEEN \(operand(low, peer: v)) AND \(operand(high, peer: v)))"
                : "(\(value) BETWEEN \(operand(low, peer: v)) AND \(operand(high, peer: v)))"
        case .like(let v, let pattern, let escape, let negated):
            let not: SQL = negated ? "NOT " : ""
            if let escape { return "(\(operand(v, peer: nil)) \(not)LIKE \(operand(pattern, peer: nil)) ESCAPE \(escape))" }
            return "(\(operand(v, peer: nil)) \(not)LIKE \(operand(pattern, peer: nil)))"
        case .isNull(let v, let negated):
            return negated ? "(\(operand(v, peer: nil)) IS NOT NULL)" : "(\(operand(v, peer: nil)) IS NULL)"
        }
    }

    /// The operands of a chain of ANDs (or ORs), left to right.
    static func flatten(_ expression: WhereExpression, and: Bool) -> [WhereExpression] {
        var result: [WhereExpression] = []
        var stack = [expression]
        while let next = stack.popLast() {
            switch next {
            case .and(let a, let b) where and: stack.append(b); stack.append(a)
            case .or(let a, let b) where !and: stack.append(b); stack.append(a)
            default: result.append(next)
            }
        }
        return result
    }

    /// A literal compared with a field is converted to that field's stored form: a date string to epoch
    /// milliseconds for Date fields, a GUID to its braced upper-case form.
    private func operand(_ operand: WhereOperand, peer: WhereOperand?) -> SQL {
        switch operand {
        case .field(let name): return field(name)
        case .integer(let i): return "\(i)"
        case .real(let d): return "\(d)"
        case .date(let ms): return "\(ms)"
        case .string(let s):
            if case .field(let name)? = peer, let definition = layer.field(name) {
                switch definition.type {
                case .date:
                    if let ms = WhereParser.parseDate(s, timestamp: true) { return "\(ms)" }
                case .guid, .globalID:
                    if let guid = GUIDText.normalize(s) { return "\(guid)" }
                default: break
                }
            }
            return "\(s)"
        case .upper(let inner): return "upper(\(self.operand(inner, peer: nil)))"
        case .lower(let inner): return "lower(\(self.operand(inner, peer: nil)))"
        }
    }

    /// `FROM ... WHERE ...` selecting the live (not deleted) rows of the layer visible in `view`, aliased `r`.
    static func visibleRows(layerKey: Int64, view: VersionView, defaultUnchangedSinceAncestor: Bool) -> SQL {
        if view.branch == 0 {
            return "FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = \(layerKey) AND h.branch = 0 AND h.isDelete = 0"
        }
        let fromDefault: SQL = defaultUnchangedSinceAncestor
            ? "h0.rowId"
            : """
              (SELECT fr.id FROM featureRow fr WHERE fr.layerKey = \(layerKey) AND fr.branch = 0 AND fr.objectId = h0.objectId \
              AND fr.moment <= \(view.ancestorMoment) ORDER BY fr.moment DESC LIMIT 1)
              """
        return """
            FROM (SELECT rowId AS id FROM head WHERE layerKey = \(layerKey) AND branch = \(view.branch) AND moment > \(view.baseMoment) \
            UNION ALL \
            SELECT \(fromDefault) AS id FROM head h0 WHERE h0.layerKey = \(layerKey) AND h0.branch = 0 \
            AND NOT EXISTS (SELECT 1 FROM head hv WHERE hv.layerKey = \(layerKey) AND hv.branch = \(view.branch) \
            AND hv.objectId = h0.objectId AND hv.moment > \(view.baseMoment))) v \
            JOIN featureRow r ON r.id = v.id WHERE r.isDelete = 0
            """
    }

    /// The two arms of a version's visible rows, each `FROM ... WHERE ...` over a row aliased `r` and
    /// deliverable in object id order by an index: DEFAULT's rows at the ancestor moment that the version
    /// does not override, and the version's own live rows.
    static func versionArms(layerKey: Int64, view: VersionView, defaultUnchangedSinceAncestor: Bool) -> (fromDefault: SQL, fromVersion: SQL) {
        let notOverridden: SQL = """
            NOT EXISTS (SELECT 1 FROM head hv WHERE hv.layerKey = \(layerKey) AND hv.branch = \(view.branch) \
            AND hv.objectId = h0.objectId AND hv.moment > \(view.baseMoment))
            """
        let fromDefault: SQL = defaultUnchangedSinceAncestor
            ? "FROM head h0 JOIN featureRow r ON r.id = h0.rowId WHERE h0.layerKey = \(layerKey) AND h0.branch = 0 AND h0.isDelete = 0 AND \(notOverridden)"
            : """
              FROM head h0 JOIN featureRow r ON r.id = (SELECT fr.id FROM featureRow fr WHERE fr.layerKey = \(layerKey) AND fr.branch = 0 \
              AND fr.objectId = h0.objectId AND fr.moment <= \(view.ancestorMoment) ORDER BY fr.moment DESC LIMIT 1) \
              WHERE h0.layerKey = \(layerKey) AND h0.branch = 0 AND r.isDelete = 0 AND \(notOverridden)
              """
        let fromVersion: SQL = """
            FROM head hv2 JOIN featureRow r ON r.id = hv2.rowId WHERE hv2.layerKey = \(layerKey) AND hv2.branch = \(view.branch) \
            AND hv2.moment > \(view.baseMoment) AND r.isDelete = 0
            """
        return (fromDefault, fromVersion)
    }

    /// Parses `orderByFields` (`Field [ASC|DESC], ...`) against the layer's fields.
    func orderBy(_ text: String?) throws -> SQL {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return "r.objectId" }
        var terms: [SQL] = []
        var offset = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let words = part.split(separator: " ").map(String.init)
            guard (1...2).contains(words.count), let name = words.first, let definition = layer.field(name) else {
                throw ServiceError.invalidQuery("orderByFields at character offset \(offset): '\(part.trimmingCharacters(in: .whitespaces))' is not 'Field [ASC|DESC]' with a field of \(layer.title).")
            }
            var direction: SQL = "ASC"
            if words.count == 2 {
                switch words[1].uppercased() {
                case "ASC": direction = "ASC"
                case "DESC": direction = "DESC"
                default:
                    throw ServiceError.invalidQuery("orderByFields at character offset \(offset): '\(words[1])' is neither ASC nor DESC.")
                }
            }
            terms.append("\(field(definition.name)) \(direction)")
            offset += part.count + 1
        }
        terms.append("r.objectId")
        return terms.joined(separator: ", ")
    }
}
