import Foundation
import WebMap
import FeatureServiceModel

/// Turns parsed queries into SQL over the visible rows of a layer in a version. Literals and field paths
/// are always bound parameters; the only SQL text is the compiler's own.
///
/// A row's attributes are one JSON object in a TEXT column. SQLite reads a member with `json_extract`, whose
/// value has the type the JSON has (integer, real, text, NULL) and compares with SQLite's rules (NULL first,
/// then numbers, then text in byte order; a column's affinity converting the other operand). PostgreSQL is
/// typed: there a member is read by the field's type (`PostgresOperand`): numbers (integer, double and date
/// fields) as `double precision`, everything else as text in byte order (`COLLATE "C"`), and each operator is
/// written so that it answers what SQLite answers for the same values (a number compared with a text, LIKE
/// ignoring ASCII case only, NULL ordered first).
struct QueryCompiler {
    let layer: LayerModel
    let dialect: SQLDialect

    init(layer: LayerModel, dialect: SQLDialect) {
        self.layer = layer
        self.dialect = dialect
    }

    /// The SQL expression of a field's value in the row aliased `r`.
    func field(_ name: String) -> StoreSQL {
        switch dialect {
        case .sqlite:
            if name.caseInsensitiveCompare(layer.objectIdField) == .orderedSame { return "r.objectId" }
            if let global = layer.globalIdField, name.caseInsensitiveCompare(global) == .orderedSame { return "r.globalId" }
            let canonical = layer.field(name)?.name ?? name
            return "json_extract(r.attributes, \(Self.jsonPath(canonical)))"
        case .postgres:
            return postgresField(name).sql
        }
    }

    /// `$."Name"`: a JSON path naming one member (bound as a parameter, never spliced into SQL).
    static func jsonPath(_ name: String) -> String { "$.\"" + name.replacingOccurrences(of: "\"", with: "") + "\"" }

    /// The member name PostgreSQL's `->>` takes: the name as SQLite's path names it (quotes dropped).
    static func memberName(_ name: String) -> String { name.replacingOccurrences(of: "\"", with: "") }

    func compile(_ expression: WhereExpression) -> StoreSQL {
        switch dialect {
        case .sqlite: return compileSQLite(expression)
        case .postgres: return compilePostgres(expression)
        }
    }

    /// The ownership filter: rows whose creator field holds `name`.
    func creatorFilter(_ creator: String, is name: String) -> StoreSQL {
        switch dialect {
        case .sqlite: return "json_extract(r.attributes, \(Self.jsonPath(creator))) = \(name)"
        case .postgres: return "\(postgresField(creator).asText) = \(PostgresOperand.text(name).sql)"
        }
    }

    /// `field IN (values)` for stored values of some feature (related records' keys); never empty.
    func field(_ name: String, in values: [AttributeValue]) -> StoreSQL {
        switch dialect {
        case .sqlite:
            return "\(field(name)) IN \(values)"
        case .postgres:
            let items: [WhereOperand] = values.compactMap {
                switch $0 {
                case .int(let i): return .integer(i)
                case .double(let d): return .real(d)
                case .string(let s): return .string(s)
                case .null: return nil
                }
            }
            return postgresIn(postgresField(name), items.map { postgresOperand($0, peer: nil) }, negated: false)
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

    /// A string literal compared with a field takes that field's stored form: a date string epoch milliseconds
    /// for Date fields, a GUID its braced upper-case form. Nil when it stays a string.
    func converted(_ s: String, peer: WhereOperand?) -> WhereOperand? {
        guard case .field(let name)? = peer, let definition = layer.field(name) else { return nil }
        switch definition.type {
        case .date:
            if let ms = WhereParser.parseDate(s, timestamp: true) { return .date(ms) }
        case .guid, .globalID:
            if let guid = GUIDText.normalize(s) { return .string(guid) }
        default: break
        }
        return nil
    }

    // MARK: SQLite

    private func compileSQLite(_ expression: WhereExpression) -> StoreSQL {
        switch expression {
        // Chains are written flat (`(a OR b OR c)`), not nested: SQLite's parser has a bounded stack.
        case .and:
            return "(\(Self.flatten(expression, and: true).map(compileSQLite).joined(separator: " AND ")))"
        case .or:
            return "(\(Self.flatten(expression, and: false).map(compileSQLite).joined(separator: " OR ")))"
        case .not(let a): return "(NOT \(compileSQLite(a)))"
        case .compare(let l, let op, let r):
            let (left, right) = (sqliteOperand(l, peer: r), sqliteOperand(r, peer: l))
            return "(\(left) \(raw: op.rawValue) \(right))"
        case .inList(let l, let items, let negated):
            let list = items.map { sqliteOperand($0, peer: l) }.joined(separator: ", ")
            return negated ? "(\(sqliteOperand(l, peer: nil)) NOT IN (\(list)))" : "(\(sqliteOperand(l, peer: nil)) IN (\(list)))"
        case .between(let v, let low, let high, let negated):
            let value = sqliteOperand(v, peer: nil)
            return negated
                ? "(\(value) NOT BETWEEN \(sqliteOperand(low, peer: v)) AND \(sqliteOperand(high, peer: v)))"
                : "(\(value) BETWEEN \(sqliteOperand(low, peer: v)) AND \(sqliteOperand(high, peer: v)))"
        case .like(let v, let pattern, let escape, let negated):
            let not: StoreSQL = negated ? "NOT " : ""
            if let escape { return "(\(sqliteOperand(v, peer: nil)) \(not)LIKE \(sqliteOperand(pattern, peer: nil)) ESCAPE \(escape))" }
            return "(\(sqliteOperand(v, peer: nil)) \(not)LIKE \(sqliteOperand(pattern, peer: nil)))"
        case .isNull(let v, let negated):
            return negated ? "(\(sqliteOperand(v, peer: nil)) IS NOT NULL)" : "(\(sqliteOperand(v, peer: nil)) IS NULL)"
        }
    }

    private func sqliteOperand(_ operand: WhereOperand, peer: WhereOperand?) -> StoreSQL {
        switch operand {
        case .field(let name): return field(name)
        case .integer(let i): return "\(i)"
        case .real(let d): return "\(d)"
        case .date(let ms): return "\(ms)"
        case .string(let s):
            switch converted(s, peer: peer) {
            case .date(let ms)?: return "\(ms)"
            case .string(let guid)?: return "\(guid)"
            default: return "\(s)"
            }
        case .upper(let inner): return "upper(\(sqliteOperand(inner, peer: nil)))"
        case .lower(let inner): return "lower(\(sqliteOperand(inner, peer: nil)))"
        }
    }

    // MARK: Visible rows

    /// `AND <alias>.objectId IN (...)` on a head entry when the query names at most `headIdsLimit` object ids, else
    /// nothing. Bound on the head (whose primary key is layer, branch, object id), not only on the row it points to,
    /// so that a read by ids seeks the head index once per id instead of walking the layer's entries. Longer lists
    /// (up to the 30,000 a query takes) are filtered on the rows only: bound once per arm here as well, they would
    /// pass SQLite's limit of bound values, and they read a good part of the layer anyway.
    static func headIds(_ alias: String, _ objectIds: [Int64]?) -> StoreSQL {
        guard let objectIds, !objectIds.isEmpty, objectIds.count <= headIdsLimit else { return "" }
        return "AND \(raw: alias).objectId IN \(objectIds) "
    }

    static let headIdsLimit = 2_000

    /// `FROM ... WHERE ...` selecting the live (not deleted) rows of the layer visible in `view`, aliased `r`;
    /// with `objectIds`, only those (the caller still filters `r.objectId` as for any query).
    static func visibleRows(layerKey: Int64, view: VersionView, defaultUnchangedSinceAncestor: Bool, objectIds: [Int64]? = nil) -> StoreSQL {
        if view.branch == 0 {
            return "FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = \(layerKey) AND h.branch = 0 \(headIds("h", objectIds))AND h.isDelete = 0"
        }
        let fromDefault: StoreSQL = defaultUnchangedSinceAncestor
            ? "h0.rowId"
            : """
              (SELECT fr.id FROM featureRow fr WHERE fr.layerKey = \(layerKey) AND fr.branch = 0 AND fr.objectId = h0.objectId \
              AND fr.moment <= \(view.ancestorMoment) ORDER BY fr.moment DESC LIMIT 1)
              """
        return """
            FROM (SELECT rowId AS id FROM head WHERE layerKey = \(layerKey) AND branch = \(view.branch) \(headIds("head", objectIds))AND moment > \(view.baseMoment) \
            UNION ALL \
            SELECT \(fromDefault) AS id FROM head h0 WHERE h0.layerKey = \(layerKey) AND h0.branch = 0 \(headIds("h0", objectIds))\
            AND NOT EXISTS (SELECT 1 FROM head hv WHERE hv.layerKey = \(layerKey) AND hv.branch = \(view.branch) \
            AND hv.objectId = h0.objectId AND hv.moment > \(view.baseMoment))) v \
            JOIN featureRow r ON r.id = v.id WHERE r.isDelete = 0
            """
    }

    /// The two arms of a version's visible rows, each `FROM ... WHERE ...` over a row aliased `r` and
    /// deliverable in object id order by an index: DEFAULT's rows at the ancestor moment that the version
    /// does not override, and the version's own live rows.
    static func versionArms(layerKey: Int64, view: VersionView, defaultUnchangedSinceAncestor: Bool,
                            objectIds: [Int64]? = nil) -> (fromDefault: StoreSQL, fromVersion: StoreSQL) {
        let notOverridden: StoreSQL = """
            NOT EXISTS (SELECT 1 FROM head hv WHERE hv.layerKey = \(layerKey) AND hv.branch = \(view.branch) \
            AND hv.objectId = h0.objectId AND hv.moment > \(view.baseMoment))
            """
        let fromDefault: StoreSQL = defaultUnchangedSinceAncestor
            ? "FROM head h0 JOIN featureRow r ON r.id = h0.rowId WHERE h0.layerKey = \(layerKey) AND h0.branch = 0 \(headIds("h0", objectIds))AND h0.isDelete = 0 AND \(notOverridden)"
            : """
              FROM head h0 JOIN featureRow r ON r.id = (SELECT fr.id FROM featureRow fr WHERE fr.layerKey = \(layerKey) AND fr.branch = 0 \
              AND fr.objectId = h0.objectId AND fr.moment <= \(view.ancestorMoment) ORDER BY fr.moment DESC LIMIT 1) \
              WHERE h0.layerKey = \(layerKey) AND h0.branch = 0 \(headIds("h0", objectIds))AND r.isDelete = 0 AND \(notOverridden)
              """
        let fromVersion: StoreSQL = """
            FROM head hv2 JOIN featureRow r ON r.id = hv2.rowId WHERE hv2.layerKey = \(layerKey) AND hv2.branch = \(view.branch) \
            \(headIds("hv2", objectIds))AND hv2.moment > \(view.baseMoment) AND r.isDelete = 0
            """
        return (fromDefault, fromVersion)
    }

    // MARK: Order

    /// One term of `orderByFields`: a field's canonical name and its direction.
    struct OrderTerm: Sendable, Equatable {
        var field: String
        var descending: Bool
    }

    /// Parses `orderByFields` (`Field [ASC|DESC], ...`) against the layer's fields.
    static func orderTerms(_ text: String?, layer: LayerModel) throws -> [OrderTerm] {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return [] }
        var terms: [OrderTerm] = []
        var offset = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let words = part.split(separator: " ").map(String.init)
            guard (1...2).contains(words.count), let name = words.first, let definition = layer.field(name) else {
                throw ServiceError.invalidQuery("orderByFields at character offset \(offset): '\(part.trimmingCharacters(in: .whitespaces))' is not 'Field [ASC|DESC]' with a field of \(layer.title).")
            }
            var descending = false
            if words.count == 2 {
                switch words[1].uppercased() {
                case "ASC": descending = false
                case "DESC": descending = true
                default:
                    throw ServiceError.invalidQuery("orderByFields at character offset \(offset): '\(words[1])' is neither ASC nor DESC.")
                }
            }
            // A field ordered by again changes nothing (the first term decides): kept once, so that a list
            // repeating a field thousands of times stays within SQLite's ORDER BY limit.
            if !terms.contains(where: { $0.field == definition.name }) { terms.append(OrderTerm(field: definition.name, descending: descending)) }
            offset += part.count + 1
        }
        return terms
    }

    /// The `ORDER BY` list of `terms`, ending with the object id (a total order). NULL first when ascending and
    /// last when descending, as SQLite orders them.
    func orderBy(_ terms: [OrderTerm]) -> StoreSQL {
        var parts: [StoreSQL] = terms.map { term in "\(field(term.field)) \(raw: dialect.orderDirection(descending: term.descending))" }
        parts.append("r.objectId")
        return parts.joined(separator: ", ")
    }

    // MARK: Statistics

    /// The SQL of one statistic over a field (`*` for count only).
    func statistic(_ type: StatisticDefinition.Kind, of name: String) -> StoreSQL {
        switch dialect {
        case .sqlite:
            let argument: StoreSQL = name == "*" ? "*" : field(name)
            switch type {
            case .count: return "count(\(argument))"
            case .min: return "min(\(argument))"
            case .max: return "max(\(argument))"
            case .sum: return "total(\(argument))"
            case .avg: return "avg(\(argument))"
            }
        case .postgres:
            if name == "*" { return "count(*)" }
            let value = postgresField(name)
            switch type {
            // Counted on the text form: a number field holding something else still counts, as in SQLite.
            case .count: return "count(\(value.asText))"
            case .min: return "min(\(value.sql))"
            case .max: return "max(\(value.sql))"
            // SQLite's total (0.0 over no value) and avg (a double), summed exactly in numeric before the one
            // rounding to double precision.
            case .sum: return "CAST(coalesce(sum(\(value.numeric)), 0) AS double precision)"
            case .avg: return "(CAST(sum(\(value.numeric)) AS double precision) / count(\(value.numeric)))"
            }
        }
    }
}
