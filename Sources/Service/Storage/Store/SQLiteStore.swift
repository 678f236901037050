import Foundation
import GRDB
import GRDBSQLite
import FeatureServiceModel
import WebMap

/// The SQLite backend of the store, over GRDB: a queue (memory, or one file with a rollback journal) or a
/// pool in WAL mode (concurrent readers beside the one writer). Statements are prepared once per connection
/// (GRDB's statement cache) and rows read in place from SQLite's statement.
final class SQLiteStore: Store {
    let writer: any DatabaseWriter
    /// Connections of their own for one-statement short reads, beside a pool (`SQLiteShortReads`).
    let shortReads: SQLiteShortReads?
    var dialect: SQLDialect { .sqlite }

    init(writer: any DatabaseWriter, shortReads: SQLiteShortReads? = nil) {
        self.writer = writer
        self.shortReads = shortReads
    }

    /// Opens (creating or migrating) a database: ":memory:" or "" for memory, else a file; `singleConnection`
    /// keeps the file one file (a rollback journal, no `-wal` / `-shm` beside it), e.g. an offline geodatabase.
    static func open(path: String, singleConnection: Bool) throws -> SQLiteStore {
        var config = GRDB.Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(10)
        // SQLite's default page cache is 2 MB per connection: inserts into the global id index of a large layer
        // then read their pages back from the file again and again.
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -32768") }
        if let probe = try SQLiteFileProbe.read(path), !probe.isMapRulesDatabase {
            throw probe.foreignDatabaseError(path)
        }
        do {
            let writer: any DatabaseWriter
            var shortReads: SQLiteShortReads?
            if path == ":memory:" || path.isEmpty {
                writer = try DatabaseQueue(configuration: config)
            } else if singleConnection {
                writer = try DatabaseQueue(path: path, configuration: config)
            } else {
                writer = try DatabasePool(path: path, configuration: config)
                shortReads = SQLiteShortReads(path: path, configuration: config)
            }
            try Schema.migrator.migrate(writer)
            return SQLiteStore(writer: writer, shortReads: shortReads)
        } catch {
            throw ServiceError.internal("Cannot open the database '\(path)': \(error)")
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await writer.read { db in try body(SQLiteConnection(db)) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await writer.write { db in try body(SQLiteConnection(db)) }
    }

    /// GRDB's synchronous read, on the calling thread: `queryText`'s short reads, without the hop to GRDB's reader
    /// queue and back (the protocol's `read` is asynchronous).
    func readOnCallingThread<T>(_ body: (any StoreConnection) throws -> T) throws -> T? {
        try writer.read { db in try body(SQLiteConnection(db)) }
    }

    /// A synchronous read without a transaction, on the calling thread: SQLite reads one statement in autocommit mode
    /// in a snapshot of its own, so a short read written as one statement needs neither the BEGIN and COMMIT of `read`
    /// nor a look-up before it. Beside a pool, on a connection of `shortReads` (without the pool's own costs); else
    /// GRDB's `unsafeRead`.
    func answerAloneOnCallingThread<T>(_ sql: StoreSQL, _ body: (_ rows: ((any StoreCursor) throws -> Bool) throws -> Void) throws -> T) throws -> T? {
        func read(_ db: Database) throws -> T {
            let connection = SQLiteConnection(db)
            return try body { step in try connection.forEach(sql, step) }
        }
        if let shortReads, let answer = try shortReads.read(read) { return answer }
        return try writer.unsafeRead(read)
    }

    func close() throws {
        shortReads?.close()
        if let queue = writer as? DatabaseQueue { try queue.close() }
        if let pool = writer as? DatabasePool { try pool.close() }
    }
}

/// A GRDB `Database` seen as a `StoreConnection`; `database` is there for SQLite-only work (offline
/// geodatabase files, which are SQLite by definition).
final class SQLiteConnection: StoreConnection {
    let database: Database
    var dialect: SQLDialect { .sqlite }

    init(_ database: Database) { self.database = database }

    /// The connection's cached statement of `sql.text`, reset, with `sql.arguments` bound by GRDB's own binding of each
    /// value (`DatabaseValue.bind`). GRDB's `StatementArguments`, built for every statement from a generic sequence, was
    /// 3 % of a page's CPU. The values must be exactly as many as the statement's placeholders, as `setArguments`
    /// checks; a binding SQLite refuses is thrown, never a crash.
    private func statement(_ sql: StoreSQL) throws -> Statement {
        let statement = try database.cachedStatement(sql: sql.text)
        let raw = statement.sqliteStatement
        let values = sql.arguments
        guard Int(sqlite3_bind_parameter_count(raw)) == values.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "The statement has \(sqlite3_bind_parameter_count(raw)) placeholders and \(values.count) values.", sql: sql.text)
        }
        // A failed step of the statement's last use is reported again by its next reset (it was thrown then): reset it
        // here first, so that GRDB's reset below, which must not fail, starts from a clean statement.
        sqlite3_reset(raw)
        // Resets the statement and clears its bindings; GRDB then takes them as bound, and its cursor only resets it.
        statement.setUncheckedArguments(StatementArguments())
        for (index, value) in values.enumerated() {
            let code = Self.databaseValue(value).bind(to: raw, at: CInt(index + 1))
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(raw))), sql: sql.text)
            }
        }
        return statement
    }

    static func databaseValue(_ value: StoreValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let v): return v.databaseValue
        case .real(let v): return v.databaseValue
        case .text(let v): return v.databaseValue
        case .blob(let v): return v.databaseValue
        }
    }

    @discardableResult
    func execute(_ sql: StoreSQL) throws -> Int {
        try statement(sql).execute()
        return database.changesCount
    }

    func insert(_ sql: StoreSQL, returning column: String) throws -> Int64 {
        try statement(sql).execute()
        return database.lastInsertedRowID
    }

    func fetchAll(_ sql: StoreSQL) throws -> [StoreRow] {
        let statement = try statement(sql)
        let names = statement.columnNames
        let cursor = SQLiteCursor(statement)
        let rows = StepCursor(statement)
        var result: [StoreRow] = []
        while try rows.next() != nil {
            result.append(StoreRow(names: names, values: (0..<names.count).map(cursor.value)))
        }
        return result
    }

    func forEach(_ sql: StoreSQL, _ body: (any StoreCursor) throws -> Bool) throws {
        let statement = try statement(sql)
        let cursor = SQLiteCursor(statement)
        let rows = StepCursor(statement)
        while try rows.next() != nil {
            guard try body(cursor) else { break }
        }
    }

    func executeScript(_ text: String) throws { try database.execute(sql: text) }

    func deferrable(_ write: DeferrableWrite, now: () throws -> Void) throws { try now() }
}

/// Steps a statement that `SQLiteConnection.statement` has just reset and bound, through GRDB's own stepping (its
/// `DatabaseCursor.next`: the start and end of the statement reported to the database, errors thrown as GRDB throws
/// them), the row then read with `SQLiteCursor`. GRDB's `Row.fetchCursor` made a `Row` for each statement, with a
/// dictionary of its lower-cased column names that no page reads (1 % of a page's CPU), and reset the statement a second
/// time. Like GRDB's cursors, it resets the statement when it goes (a page read to its end, or left after its last row).
private final class StepCursor: DatabaseCursor {
    typealias Element = Void
    let _statement: Statement
    var _isDone = false

    init(_ statement: Statement) { _statement = statement }

    deinit { sqlite3_reset(_statement.sqliteStatement) }

    func _element(sqliteStatement: SQLiteStatement) {}
}

/// The current row of a GRDB statement, read with SQLite's column functions.
private struct SQLiteCursor: StoreCursor {
    let raw: SQLiteStatement
    let columnNames: [String]

    init(_ statement: Statement) {
        raw = statement.sqliteStatement
        columnNames = statement.columnNames
    }

    var columnCount: Int { columnNames.count }

    func value(_ column: Int) -> StoreValue {
        let c = Int32(column)
        switch sqlite3_column_type(raw, c) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(raw, c))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(raw, c))
        case SQLITE_TEXT: return .text(string(column) ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(raw, c))
            guard count > 0, let start = sqlite3_column_blob(raw, c) else { return .blob(Data()) }
            return .blob(Data(bytes: start, count: count))
        default: return .null
        }
    }

    func isNull(_ column: Int) -> Bool { sqlite3_column_type(raw, Int32(column)) == SQLITE_NULL }

    func int64(_ column: Int) -> Int64? {
        switch sqlite3_column_type(raw, Int32(column)) {
        case SQLITE_INTEGER: return sqlite3_column_int64(raw, Int32(column))
        case SQLITE_NULL: return nil
        default: return Int64(storeValue: value(column))
        }
    }

    func double(_ column: Int) -> Double? {
        switch sqlite3_column_type(raw, Int32(column)) {
        case SQLITE_FLOAT: return sqlite3_column_double(raw, Int32(column))
        case SQLITE_INTEGER: return Double(sqlite3_column_int64(raw, Int32(column)))
        default: return nil
        }
    }

    func string(_ column: Int) -> String? {
        withTextBytes(column) { bytes in bytes.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// `sqlite3_column_blob` rather than `_text`: the text as it is, without SQLite copying it to add a NUL.
    func withTextBytes<R>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        let c = Int32(column)
        guard sqlite3_column_type(raw, c) == SQLITE_TEXT else { return try body(nil) }
        let count = Int(sqlite3_column_bytes(raw, c))
        guard count > 0, let start = sqlite3_column_blob(raw, c) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count))
    }
}
