import FeatureServiceModel
import WebMap
/// The storage seam of the service core: everything the core keeps (the branch-versioned rows, versions,
/// attachments, replicas, counters) goes through a `Store` as SQL in the subset both backends speak.
///
/// - `SQLiteStore` (GRDB): one file or memory; the default, and the format of offline geodatabases.
/// - `PostgresStore` (PostgresNIO): a database several servers share (`maprules serve --postgres URL`).
///
/// A `write` is one transaction: it commits when its body returns and rolls back when it throws. Writes are
/// serialized across every process on the store (SQLite's one writer; a PostgreSQL advisory lock), so code in a
/// write may read, decide and write as if alone. A `read` sees one consistent snapshot.
///
/// Code above the store never asks which store it has: it asks the store's `dialect` how to spell what SQLite and
/// PostgreSQL write differently, and the store's capabilities (below, each with a default) what it can do beyond
/// `read` and `write`.
protocol Store: Sendable {
    var dialect: SQLDialect { get }
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T
    func close() throws

    // MARK: Capabilities (defaults: a store of one server, read through `read` only)

    /// This server's key among the servers that share the store; nil (the default) when the store is this
    /// server's alone.
    var serverKey: Int32? { get }

    /// True when several servers share the store, so that what one server grants must be seen by all: sessions
    /// on versions (`versionLock`) and signed-in users' tokens (`token`) are then kept in the store instead of
    /// in this process. False by default.
    var sharesSessionsBetweenServers: Bool { get }

    /// Whether the server of `key` (a `serverKey` stamped on a shared session) is still alive, asked inside a
    /// transaction of this store. By default only this server is known to be alive.
    func isServerAlive(_ key: Int32, in db: any StoreConnection) throws -> Bool

    /// The short-read fast path: `body` run synchronously on the calling thread, without the hop to another
    /// thread and back that `read` makes. nil (the default) when the store has no such path: read with `read`.
    func readOnCallingThread<T>(_ body: (any StoreConnection) throws -> T) throws -> T?

    /// One statement answered in its own snapshot, with no transaction around it (one round trip where each
    /// statement is one). nil (the default) when the store has no such path: read with `read`.
    func answerAlone(_ sql: StoreSQL) async throws -> (any StoreAnswer)?

    /// One statement answered in its own snapshot on the calling thread, with no transaction around it: `body` gets
    /// the statement's rows to step through (`rows`) and answers from them. For a short read that is one statement
    /// (SQLite: no BEGIN and COMMIT, no hop to another thread). nil (the default) when the store has no such path.
    func answerAloneOnCallingThread<T>(_ sql: StoreSQL, _ body: (_ rows: ((any StoreCursor) throws -> Bool) throws -> Void) throws -> T) throws -> T?
}

extension Store {
    var serverKey: Int32? { nil }
    var sharesSessionsBetweenServers: Bool { false }
    func isServerAlive(_ key: Int32, in db: any StoreConnection) throws -> Bool { key == serverKey }
    func readOnCallingThread<T>(_ body: (any StoreConnection) throws -> T) throws -> T? { nil }
    func answerAlone(_ sql: StoreSQL) async throws -> (any StoreAnswer)? { nil }
    func answerAloneOnCallingThread<T>(_ sql: StoreSQL, _ body: (_ rows: ((any StoreCursor) throws -> Bool) throws -> Void) throws -> T) throws -> T? { nil }
}

/// The rows of one statement's answer (`Store.answerAlone`), stepped through in place.
protocol StoreAnswer: Sendable {
    /// Steps through the rows; `body` answers false to stop early.
    func forEach(_ body: (any StoreCursor) throws -> Bool) throws
}

/// A connection inside a `read` or `write`: runs SQL and reads rows. Not to be kept beyond its body.
protocol StoreConnection: AnyObject {
    var dialect: SQLDialect { get }

    /// Runs a statement; answers how many rows it inserted, changed or deleted.
    @discardableResult
    func execute(_ sql: StoreSQL) throws -> Int

    /// Runs an `INSERT` into a table whose primary key `column` the store assigns, and answers that key.
    func insert(_ sql: StoreSQL, returning column: String) throws -> Int64

    /// Every row of a query, copied out.
    func fetchAll(_ sql: StoreSQL) throws -> [StoreRow]

    /// Steps through a query's rows in place; `body` answers false to stop early.
    func forEach(_ sql: StoreSQL, _ body: (any StoreCursor) throws -> Bool) throws

    /// Several statements in one text, without values (schema changes).
    func executeScript(_ text: String) throws

    /// A write whose result nobody reads: SQLite runs `now` at once; PostgreSQL keeps the write and sends it
    /// with the next writes of the same kind as one statement (`write.statement`), before any other statement of
    /// the transaction runs and before it commits, so that every read still sees it. Rows of one batch never
    /// share a `key` (a repeated key sends the batch first).
    func deferrable(_ write: DeferrableWrite, now: () throws -> Void) throws
}

/// One row of a write that can wait and go with others (`StoreConnection.deferrable`).
struct DeferrableWrite {
    /// Writes of one kind go in one statement.
    var kind: String
    /// Two rows with one key never go in one statement.
    var key: [Int64]
    var values: [StoreValue]
    /// The statement writing a batch of rows of this kind.
    var statement: @Sendable ([[StoreValue]]) -> StoreSQL
}

extension StoreConnection {
    /// The first row of a query, or nil.
    func fetchOne(_ sql: StoreSQL) throws -> StoreRow? {
        var found: StoreRow?
        try forEach(sql) { cursor in
            found = StoreRow(names: cursor.columnNames, values: (0..<cursor.columnCount).map(cursor.value))
            return false
        }
        return found
    }

    /// The first column of the first row, as `T` (nil when there is no row or the value is NULL).
    func fetchValue<T: StoreValueConvertible>(_ sql: StoreSQL, as type: T.Type = T.self) throws -> T? {
        var found: T?
        try forEach(sql) { cursor in
            found = T(storeValue: cursor.value(0))
            return false
        }
        return found
    }

    /// The first column of every row, as `T` (NULLs left out).
    func fetchValues<T: StoreValueConvertible>(_ sql: StoreSQL, as type: T.Type = T.self) throws -> [T] {
        var values: [T] = []
        try forEach(sql) { cursor in
            if let value = T(storeValue: cursor.value(0)) { values.append(value) }
            return true
        }
        return values
    }
}
