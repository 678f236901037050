import FeatureServiceModel
import WebMap
/// SQL text with `?` placeholders and the values bound to them, built by string interpolation: an interpolated
/// value is bound (never spliced into the text), an interpolated `StoreSQL` is spliced with its own values, and
/// `\(raw:)` splices trusted text (the store's own identifiers and keywords only).
///
/// ```swift
/// let rows = try db.fetchAll("SELECT * FROM version WHERE service = \(name) AND branch > \(0)")
/// ```
///
/// Each backend turns the placeholders into its own (`?` for SQLite, `$1`... for PostgreSQL); the SQL text
/// itself is written in the subset both understand, with `SQLDialect` for the few places they differ.
struct StoreSQL: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private(set) var text: String
    private(set) var arguments: [StoreValue]

    init(text: String = "", arguments: [StoreValue] = []) {
        self.text = text
        self.arguments = arguments
    }

    init(stringLiteral value: String) { self.init(text: value) }

    init(stringInterpolation: Interpolation) { self.init(text: stringInterpolation.text, arguments: stringInterpolation.arguments) }

    var description: String { text }
    var isEmpty: Bool { text.isEmpty }

    mutating func append(_ other: StoreSQL) {
        text += other.text
        arguments += other.arguments
    }

    mutating func append(literal other: StoreSQL) { append(other) }

    static func + (lhs: StoreSQL, rhs: StoreSQL) -> StoreSQL {
        var result = lhs
        result.append(rhs)
        return result
    }

    struct Interpolation: StringInterpolationProtocol {
        var text = ""
        var arguments: [StoreValue] = []

        init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + interpolationCount * 2) }

        mutating func appendLiteral(_ literal: String) { text += literal }

        mutating func appendInterpolation(_ sql: StoreSQL) {
            text += sql.text
            arguments += sql.arguments
        }

        mutating func appendInterpolation<Value: StoreValueConvertible>(_ value: Value) {
            text += "?"
            arguments.append(value.storeValue)
        }

        mutating func appendInterpolation<Value: StoreValueConvertible>(_ value: Value?) {
            text += "?"
            arguments.append(value?.storeValue ?? .null)
        }

        /// `(?, ?, ?)`: a list of bound values, for `IN`. An empty list is `(NULL)`, which matches nothing.
        mutating func appendInterpolation<Values: Collection>(_ values: Values) where Values.Element: StoreValueConvertible {
            guard !values.isEmpty else {
                text += "(NULL)"
                return
            }
            text += "("
            for (i, value) in values.enumerated() {
                text += i == 0 ? "?" : ", ?"
                arguments.append(value.storeValue)
            }
            text += ")"
        }

        /// Trusted SQL text: identifiers and keywords of the store's own, never caller input.
        mutating func appendInterpolation(raw text: String) { self.text += text }
    }
}

extension Collection where Element == StoreSQL {
    func joined(separator: String) -> StoreSQL {
        var result = StoreSQL()
        for (i, part) in enumerated() {
            if i > 0 { result.append(StoreSQL(text: separator)) }
            result.append(part)
        }
        return result
    }
}
