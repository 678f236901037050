import Foundation
import WebMap

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
    let dialect: StoreDialect

    init(layer: LayerModel, dialect: StoreDialect) {
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
    private static func memberName(_ name: String) -> String { name.replacingOccurrences(of: "\"", with: "") }

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
    private func converted(_ s: String, peer: WhereOperand?) -> WhereOperand? {
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

    // MARK: PostgreSQL

    /// A field's value in the row aliased `r`, typed by the field's type.
    private func postgresField(_ name: String) -> PostgresOperand {
        if name.caseInsensitiveCompare(layer.objectIdField) == .orderedSame {
            return PostgresOperand(kind: .number, sql: "r.objectId", asText: "(CAST(r.objectId AS text) COLLATE \"C\")",
                                   affinity: .integer, literal: nil)
        }
        if let global = layer.globalIdField, name.caseInsensitiveCompare(global) == .orderedSame {
            return PostgresOperand(kind: .text, sql: "(r.globalId COLLATE \"C\")", asText: "(r.globalId COLLATE \"C\")",
                                   affinity: .text, literal: nil)
        }
        let definition = layer.field(name)
        let member = Self.memberName(definition?.name ?? name)
        let text: StoreSQL = "((r.attributes::jsonb ->> CAST(\(member) AS text)) COLLATE \"C\")"
        switch definition?.type {
        case .smallInteger?, .integer?, .bigInteger?, .single?, .double?, .date?, .oid?:
            // A JSON number as a number; anything else stored there (a string, true/false) as NULL rather
            // than a cast that fails.
            let number: StoreSQL = """
                (CASE WHEN jsonb_typeof(r.attributes::jsonb -> CAST(\(member) AS text)) = 'number' \
                THEN CAST(r.attributes::jsonb ->> CAST(\(member) AS text) AS double precision) END)
                """
            return PostgresOperand(kind: .number, sql: number, asText: text, affinity: .none, literal: nil, member: member)
        default:
            return PostgresOperand(kind: .text, sql: text, asText: text, affinity: .none, literal: nil, member: member)
        }
    }

    private func postgresOperand(_ operand: WhereOperand, peer: WhereOperand?) -> PostgresOperand {
        switch operand {
        case .field(let name): return postgresField(name)
        case .integer(let i): return .integer(i)
        case .real(let d): return .real(d)
        case .date(let ms): return .integer(ms)
        case .string(let s):
            switch converted(s, peer: peer) {
            case .date(let ms)?: return .integer(ms)
            case .string(let guid)?: return .text(guid)
            default: return .text(s)
            }
        case .upper(let inner):
            let text: StoreSQL = "upper(\(postgresOperand(inner, peer: nil).asText))"
            return PostgresOperand(kind: .text, sql: text, asText: text, affinity: .none, literal: nil)
        case .lower(let inner):
            let text: StoreSQL = "lower(\(postgresOperand(inner, peer: nil).asText))"
            return PostgresOperand(kind: .text, sql: text, asText: text, affinity: .none, literal: nil)
        }
    }

    private func compilePostgres(_ expression: WhereExpression) -> StoreSQL {
        switch expression {
        case .and:
            return "(\(Self.flatten(expression, and: true).map(compilePostgres).joined(separator: " AND ")))"
        case .or:
            return "(\(Self.flatten(expression, and: false).map(compilePostgres).joined(separator: " OR ")))"
        case .not(let a): return "(NOT \(compilePostgres(a)))"
        case .compare(let l, let op, let r):
            return Self.postgresCompare(postgresOperand(l, peer: r), op, postgresOperand(r, peer: l))
        case .inList(let l, let items, let negated):
            return postgresIn(postgresOperand(l, peer: nil), items.map { postgresOperand($0, peer: l) }, negated: negated)
        case .between(let v, let low, let high, let negated):
            let value = postgresOperand(v, peer: nil)
            let (a, lower) = PostgresOperand.coerced(value, postgresOperand(low, peer: v))
            let (b, upper) = PostgresOperand.coerced(value, postgresOperand(high, peer: v))
            if a.kind == lower.kind && b.kind == upper.kind && a.sql == b.sql {
                return "(\(a.sql) \(raw: negated ? "NOT " : "")BETWEEN \(lower.sql) AND \(upper.sql))"
            }
            // Mixed types: SQLite's `x BETWEEN y AND z` is `x >= y AND x <= z`, each compared by its own rules.
            let inside: StoreSQL = "(\(Self.postgresCompare(value, .greaterOrEqual, postgresOperand(low, peer: v))) AND \(Self.postgresCompare(value, .lessOrEqual, postgresOperand(high, peer: v))))"
            return negated ? "(NOT \(inside))" : inside
        case .like(let v, let pattern, let escape, let negated):
            // SQLite's LIKE: both sides as text, ASCII letters without regard to case (ILIKE under the "C"
            // collation folds ASCII only), and no escape character unless one is given.
            let not: StoreSQL = negated ? "NOT " : ""
            let escapeSQL: StoreSQL = "CAST(\(escape ?? "") AS text)"
            return "(\(postgresOperand(v, peer: nil).asText) \(not)ILIKE \(postgresOperand(pattern, peer: nil).asText) ESCAPE \(escapeSQL))"
        case .isNull(let v, let negated):
            // On the text form: a number field holding something else is not NULL, as in SQLite.
            let value = postgresOperand(v, peer: nil).asText
            return negated ? "(\(value) IS NOT NULL)" : "(\(value) IS NULL)"
        }
    }

    /// `value [NOT] IN (items)` with SQLite's meaning: true when some item equals the value, NULL when the value
    /// is NULL (or no item equals it and one is NULL), else false.
    private func postgresIn(_ value: PostgresOperand, _ items: [PostgresOperand], negated: Bool) -> StoreSQL {
        if items.allSatisfy({ $0.literal != nil }) {
            // Literals are never NULL (and take the value's affinity, never give it theirs): those of the value's
            // type go in the list, the others can never equal it.
            let same = items.map { PostgresOperand.coerced(value, $0).1 }.filter { $0.kind == value.kind }.map(\.sql)
            guard !same.isEmpty else { return PostgresOperand.constant(negated, unlessNull: [value]) }
            return "(\(value.sql) \(raw: negated ? "NOT " : "")IN (\(same.joined(separator: ", "))))"
        }
        let equalities = items.map { Self.postgresCompare(value, .equal, $0) }
        let any: StoreSQL = "(\(equalities.joined(separator: " OR ")))"
        return negated ? "(NOT \(any))" : any
    }

    /// `left op right` with SQLite's rules: numbers with numbers, texts with texts (byte order), and a number
    /// always less than a text; a column's affinity converting the other operand first.
    static func postgresCompare(_ l: PostgresOperand, _ op: WhereExpression.ComparisonOperator, _ r: PostgresOperand) -> StoreSQL {
        let (left, right) = PostgresOperand.coerced(l, r)
        if left.kind == right.kind { return "(\(left.sql) \(raw: op.rawValue) \(right.sql))" }
        // A number is less than a text.
        let leftIsLess = left.kind == .number
        let holds: Bool
        switch op {
        case .equal: holds = false
        case .notEqual: holds = true
        case .less, .lessOrEqual: holds = leftIsLess
        case .greater, .greaterOrEqual: holds = !leftIsLess
        }
        return PostgresOperand.constant(holds, unlessNull: [left, right])
    }

    // MARK: Visible rows

    /// `FROM ... WHERE ...` selecting the live (not deleted) rows of the layer visible in `view`, aliased `r`.
    static func visibleRows(layerKey: Int64, view: VersionView, defaultUnchangedSinceAncestor: Bool) -> StoreSQL {
        if view.branch == 0 {
            return "FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = \(layerKey) AND h.branch = 0 AND h.isDelete = 0"
        }
        let fromDefault: StoreSQL = defaultUnchangedSinceAncestor
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
    static func versionArms(layerKey: Int64, view: VersionView, defaultUnchangedSinceAncestor: Bool) -> (fromDefault: StoreSQL, fromVersion: StoreSQL) {
        let notOverridden: StoreSQL = """
            NOT EXISTS (SELECT 1 FROM head hv WHERE hv.layerKey = \(layerKey) AND hv.branch = \(view.branch) \
            AND hv.objectId = h0.objectId AND hv.moment > \(view.baseMoment))
            """
        let fromDefault: StoreSQL = defaultUnchangedSinceAncestor
            ? "FROM head h0 JOIN featureRow r ON r.id = h0.rowId WHERE h0.layerKey = \(layerKey) AND h0.branch = 0 AND h0.isDelete = 0 AND \(notOverridden)"
            : """
              FROM head h0 JOIN featureRow r ON r.id = (SELECT fr.id FROM featureRow fr WHERE fr.layerKey = \(layerKey) AND fr.branch = 0 \
              AND fr.objectId = h0.objectId AND fr.moment <= \(view.ancestorMoment) ORDER BY fr.moment DESC LIMIT 1) \
              WHERE h0.layerKey = \(layerKey) AND h0.branch = 0 AND r.isDelete = 0 AND \(notOverridden)
              """
        let fromVersion: StoreSQL = """
            FROM head hv2 JOIN featureRow r ON r.id = hv2.rowId WHERE hv2.layerKey = \(layerKey) AND hv2.branch = \(view.branch) \
            AND hv2.moment > \(view.baseMoment) AND r.isDelete = 0
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
            terms.append(OrderTerm(field: definition.name, descending: descending))
            offset += part.count + 1
        }
        return terms
    }

    /// The `ORDER BY` list of `terms`, ending with the object id (a total order). NULL first when ascending and
    /// last when descending, as SQLite orders them.
    func orderBy(_ terms: [OrderTerm]) -> StoreSQL {
        var parts: [StoreSQL] = terms.map { term in
            switch dialect {
            case .sqlite: return "\(field(term.field)) \(raw: term.descending ? "DESC" : "ASC")"
            case .postgres: return "\(field(term.field)) \(raw: term.descending ? "DESC NULLS LAST" : "ASC NULLS FIRST")"
            }
        }
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

/// A `where` operand on PostgreSQL: its SQL typed as a number (`double precision` / `bigint`) or a text (byte
/// order), its value as text as SQLite converts it (LIKE, UPPER / LOWER, a TEXT column's affinity), the
/// affinity of the column it is (SQLite converts the other operand of a comparison to it), and, for a literal,
/// its value (decisions made here rather than in SQL).
struct PostgresOperand {
    enum Kind { case number, text }
    enum Affinity { case none, integer, text }
    enum Literal {
        case integer(Int64)
        case real(Double)
        case text(String)
    }

    var kind: Kind
    var sql: StoreSQL
    var asText: StoreSQL
    var affinity: Affinity
    var literal: Literal?
    /// The JSON member read (attributes only).
    var member: String?

    init(kind: Kind, sql: StoreSQL, asText: StoreSQL, affinity: Affinity, literal: Literal?, member: String? = nil) {
        self.kind = kind
        self.sql = sql
        self.asText = asText
        self.affinity = affinity
        self.literal = literal
        self.member = member
    }

    static func integer(_ i: Int64) -> PostgresOperand {
        PostgresOperand(kind: .number, sql: "CAST(\(i) AS bigint)", asText: "(CAST(\(String(i)) AS text) COLLATE \"C\")",
                        affinity: .none, literal: .integer(i))
    }

    static func real(_ d: Double) -> PostgresOperand {
        PostgresOperand(kind: .number, sql: "CAST(\(d) AS double precision)", asText: "(CAST(\(sqliteText(d)) AS text) COLLATE \"C\")",
                        affinity: .none, literal: .real(d))
    }

    static func text(_ s: String) -> PostgresOperand {
        let sql: StoreSQL = "(CAST(\(s) AS text) COLLATE \"C\")"
        return PostgresOperand(kind: .text, sql: sql, asText: sql, affinity: .none, literal: .text(s))
    }

    /// The value as a `numeric` (for exact sums): a JSON number as it is written; for a text, what SQLite's
    /// sum makes of it (the number it spells, else 0).
    var numeric: StoreSQL {
        if affinity == .integer { return "CAST(r.objectId AS numeric)" }
        if kind == .number, let member {
            return """
                (CASE WHEN jsonb_typeof(r.attributes::jsonb -> CAST(\(member) AS text)) = 'number' \
                THEN CAST(r.attributes::jsonb ->> CAST(\(member) AS text) AS numeric) END)
                """
        }
        return "(CASE WHEN \(asText) IS NULL THEN NULL WHEN \(asText) ~ \(Self.numberPattern) THEN CAST(\(asText) AS numeric) ELSE 0 END)"
    }

    /// A number as SQLite writes it (integer, or a real with at least one decimal, after its 15 significant digits).
    static let numberPattern = "^\\s*[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?\\s*$"

    /// SQLite's text of a REAL (`%!.15g`): 15 significant digits, with a decimal point always.
    static func sqliteText(_ d: Double) -> String {
        guard d.isFinite else { return d.isNaN ? "" : (d > 0 ? "Inf" : "-Inf") }
        var text = String(format: "%.15g", d)
        if !text.contains(".") {
            if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) { text.insert(contentsOf: ".0", at: e) } else { text += ".0" }
        }
        return text
    }

    /// A text literal SQLite would convert to a number under numeric affinity (a well-formed number), as one.
    private static func numericLiteral(_ s: String) -> PostgresOperand? {
        guard s.range(of: numberPattern, options: .regularExpression) != nil else { return nil }
        let trimmed = s.trimmingCharacters(in: .whitespaces)
        if let i = Int64(trimmed.hasPrefix("+") ? String(trimmed.dropFirst()) : trimmed) { return .integer(i) }
        guard let d = Double(trimmed), d.isFinite else { return nil }
        return .real(d)
    }

    /// The operands of a comparison after SQLite's affinity conversions: a column of INTEGER affinity (the object
    /// id) turns a text literal that spells a number into that number; a column of TEXT affinity (the global id)
    /// turns any number without affinity into its text.
    static func coerced(_ a: PostgresOperand, _ b: PostgresOperand) -> (PostgresOperand, PostgresOperand) {
        func convert(_ column: PostgresOperand, _ other: PostgresOperand) -> PostgresOperand {
            switch (column.affinity, other.kind) {
            case (.integer, .text):
                if case .text(let s)? = other.literal, let number = numericLiteral(s) { return number }
                return other
            case (.text, .number) where other.affinity == .none:
                var text = other
                text.kind = .text
                text.sql = other.asText
                if case .integer(let i)? = other.literal { text.literal = .text(String(i)) }
                if case .real(let d)? = other.literal { text.literal = .text(sqliteText(d)) }
                return text
            default:
                return other
            }
        }
        if a.affinity != .none && a.affinity != b.affinity { return (a, convert(a, b)) }
        if b.affinity != .none && b.affinity != a.affinity { return (convert(b, a), b) }
        return (a, b)
    }

    /// A condition whose value is known when its operands are not NULL: `holds`, else NULL (SQL's unknown).
    static func constant(_ holds: Bool, unlessNull operands: [PostgresOperand]) -> StoreSQL {
        let dynamic = operands.filter { $0.literal == nil }
        guard !dynamic.isEmpty else { return holds ? "(1 = 1)" : "(1 = 0)" }
        if holds {
            // true when every operand is there, else NULL
            let present = dynamic.map { "\($0.asText) IS NOT NULL" as StoreSQL }.joined(separator: " AND ")
            return "(CASE WHEN \(present) THEN 1 = 1 END)"
        }
        let present = dynamic.map { "\($0.asText) IS NOT NULL" as StoreSQL }.joined(separator: " AND ")
        return "(CASE WHEN \(present) THEN 1 = 0 END)"
    }
}
