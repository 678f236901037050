import NIOCore
import PostgresNIO
import FeatureServiceModel
import WebMap

/// The named prepared statements of one PostgreSQL connection: a query the store sends again is parsed and
/// planned by the server once per connection, then run by name with new values.
///
/// PostgresNIO's typed `PostgresPreparedStatement` names a statement by a Swift type with a static SQL text;
/// the store's SQL is built at run time (filters, orders, page forms), so statements are prepared here with
/// `prepare(query:)`, which lets the server infer the parameters' types. So that a prepared statement means
/// exactly what the unnamed one means (where PostgresNIO sends each value's type), every placeholder carries
/// the type its value is bound as (`$1::int8`); a NULL's placeholder carries none, as its unnamed one sends none.
///
/// Queries only (`SELECT`): their answer is rows, which the prepared path gives; a data change must answer how
/// many rows it changed, which it does not. At most `capacity` statements a connection, the least recently
/// used closed first. Used by one caller of its connection at a time (the pool hands a connection to one user).
final class PostgresStatements: @unchecked Sendable {
    struct Key: Hashable {
        var text: String
        var types: [UInt8]
    }

    /// Statements kept a connection (each holds its plan in the server's memory).
    static let capacity = 96
    /// Larger statements (long `IN` lists) go unnamed, as they rarely repeat exactly.
    static let maximumArguments = 200
    static let maximumTextLength = 16_384

    private var entries: [Key: (statement: PreparedQuery, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// The prepared statement of `key` on this connection, if there is one.
    func statement(_ key: Key) -> PreparedQuery? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.statement, clock)
        return entry.statement
    }

    /// Keeps `statement` for `key`, closing the least recently used one when there is no room.
    func add(_ statement: PreparedQuery, for key: Key) {
        if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            _ = oldest.value.statement.deallocate()
        }
        clock += 1
        entries[key] = (statement, clock)
    }

    /// Whether `sql` is prepared: a query, small enough.
    static func preparable(_ sql: StoreSQL) -> Bool {
        guard sql.arguments.count <= maximumArguments, sql.text.utf8.count <= maximumTextLength else { return false }
        return sql.text.utf8.starts(with: "SELECT ".utf8)
    }

    static func key(_ sql: StoreSQL) -> Key {
        Key(text: sql.text, types: sql.arguments.map(typeCode))
    }

    /// The statement's text with each placeholder cast to its value's type.
    static func text(_ key: Key) -> String {
        PostgresPlaceholders.numbered(key.text, casts: key.types.map(cast))
    }

    /// The values as the prepared statement takes them.
    static func values(_ arguments: [StoreValue]) -> [PostgresData] {
        arguments.map { argument in
            switch argument {
            case .null: return PostgresData(type: .null, value: nil)
            case .integer(let v): return PostgresData(int64: v)
            case .real(let v): return PostgresData(double: v)
            case .text(let v): return PostgresData(string: v)
            case .blob(let v): return PostgresData(bytes: v)
            }
        }
    }

    private static func typeCode(_ value: StoreValue) -> UInt8 {
        switch value {
        case .null: return 0
        case .integer: return 1
        case .real: return 2
        case .text: return 3
        case .blob: return 4
        }
    }

    /// The types PostgresNIO binds Int64, Double, String and bytes as.
    private static func cast(_ code: UInt8) -> String {
        switch code {
        case 1: return "::int8"
        case 2: return "::float8"
        case 3: return "::text"
        case 4: return "::bytea"
        default: return ""
        }
    }
}
