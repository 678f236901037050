import FeatureServiceModel
import WebMap
/// One row read from the store, its values copied out: columns by position or by name (names compared
/// ignoring case, because PostgreSQL answers unquoted names in lower case).
struct StoreRow: Sendable {
    let names: [String]
    let values: [StoreValue]

    var count: Int { values.count }

    subscript(_ column: Int) -> StoreValue { values[column] }

    subscript(_ name: String) -> StoreValue {
        guard let index = index(of: name) else { return .null }
        return values[index]
    }

    func index(of name: String) -> Int? {
        if let exact = names.firstIndex(of: name) { return exact }
        return names.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The column's value as `T`; nil when it is NULL or not a `T`.
    func get<T: StoreValueConvertible>(_ name: String, as type: T.Type = T.self) -> T? { T(storeValue: self[name]) }
    func get<T: StoreValueConvertible>(_ column: Int, as type: T.Type = T.self) -> T? { T(storeValue: values[column]) }

    /// The column's value as `T`, which must be there: a missing or NULL value is a storage fault.
    func require<T: StoreValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let value = T(storeValue: self[name]) else {
            throw ServiceError.internal("The store answered no \(T.self) for '\(name)'.")
        }
        return value
    }
}

/// The current row of a statement being stepped (`StoreConnection.forEach`): read in place, valid only inside
/// the callback it is handed to. Lets the query path copy stored text into its answer without a `String`.
protocol StoreCursor {
    var columnCount: Int { get }
    var columnNames: [String] { get }
    func value(_ column: Int) -> StoreValue
    func isNull(_ column: Int) -> Bool
    func int64(_ column: Int) -> Int64?
    func double(_ column: Int) -> Double?
    func string(_ column: Int) -> String?
    /// The bytes of a text column in place (nil when NULL or not text), for the duration of `body`.
    func withTextBytes<R>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R
}
