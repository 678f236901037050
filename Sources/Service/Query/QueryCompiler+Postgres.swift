import Foundation
import WebMap
import FeatureServiceModel

/// The `where` clause on PostgreSQL (see `QueryCompiler`): fields read by their type, operators written to answer
/// what SQLite answers for the same values.
extension QueryCompiler {

    /// A field's value in the row aliased `r`, typed by the field's type.
    func postgresField(_ name: String) -> PostgresOperand {
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

    func postgresOperand(_ operand: WhereOperand, peer: WhereOperand?) -> PostgresOperand {
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

    func compilePostgres(_ expression: WhereExpression) -> StoreSQL {
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
    func postgresIn(_ value: PostgresOperand, _ items: [PostgresOperand], negated: Bool) -> StoreSQL {
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
