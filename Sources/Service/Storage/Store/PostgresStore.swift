import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO
import FeatureServiceModel
import WebMap

/// The PostgreSQL backend of the store, over PostgresNIO, for a database that several servers share.
///
/// The service core's store code is synchronous (it reads, decides and writes inside one transaction, as
/// with SQLite), so each `read` / `write` runs on a thread of its own pool, holding one connection of this
/// process's pool for its whole transaction and waiting on each statement's future there (never on an event
/// loop). Writes take one transaction-scoped advisory lock first: writes from every server on the database are
/// serialized as SQLite's single writer serializes them, so a write sees every write committed before it and
/// counters (object ids, moments) never collide; the lock dies with the transaction, or with the session of a
/// server that dies. Reads run in a repeatable-read snapshot and never wait for writes.
final class PostgresStore: Store, @unchecked Sendable {
    /// The advisory lock key every write takes ("MAPRULES" in ASCII, as a 64-bit number).
    static let writeLockKey: Int64 = 0x4D41_5052_554C_4553

    /// The first key of the advisory locks (pairs of 32-bit keys) that tell which servers are alive ("MR").
    static let presenceLockSpace: Int32 = 0x4D52

    let configuration: PostgresConnection.Configuration
    private let threads: NIOThreadPool
    private let idle: NIOLockedValueBox<[PooledConnection]>
    private let logger: Logger
    /// A connection of its own holding, for this server's whole life, the session advisory lock
    /// (`presenceLockSpace`, `presenceKey`): the lock dies with the server's process or its connection, and other
    /// servers then drop what this one granted (`SessionRegistry`: version locks). Reconnected, and the same key
    /// claimed again, by the next statement after the connection was lost (a database restart).
    private let presence: NIOLockedValueBox<PostgresConnection>
    /// This server's key among the servers alive on the database.
    let presenceKey: Int32
    var serverKey: Int32? { presenceKey }
    var dialect: SQLDialect { .postgres }
    /// Several servers share the database: sessions and tokens are kept in it (`versionLock`, `token`).
    var sharesSessionsBetweenServers: Bool { true }

    private init(configuration: PostgresConnection.Configuration, connections: [PostgresConnection], presence: PostgresConnection,
                 serverKey: Int32, threads: NIOThreadPool, logger: Logger) {
        self.configuration = configuration
        self.idle = NIOLockedValueBox(connections.map { PooledConnection(connection: $0) })
        self.presence = NIOLockedValueBox(presence)
        self.presenceKey = serverKey
        self.threads = threads
        self.logger = logger
    }

    /// True when the server of `key` is alive: its presence lock is held. Inside a transaction (the probe takes the
    /// lock for the transaction when it is free, and PostgreSQL releases it at the end).
    func isServerAlive(_ key: Int32, in db: any StoreConnection) throws -> Bool {
        let free = try db.fetchValue("""
            SELECT CASE WHEN pg_try_advisory_xact_lock(\(raw: String(Self.presenceLockSpace)), \(raw: String(key))) THEN 1 ELSE 0 END
            """, as: Int.self)
        return free == 0
    }

    /// After the presence connection was lost (the database restarted, the network failed), a new one takes this
    /// server's key again, so that the sessions it granted stay alive for the other servers. When another server
    /// has meanwhile taken the key, this server's sessions are that server's now: the store goes on, without
    /// a presence of its own, and says so.
    private func reclaimPresenceIfLost() throws {
        guard presence.withLockedValue({ $0.isClosed }) else { return }
        try presence.withLockedValue { current in
            guard current.isClosed else { return }
            let connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                                            id: Int.random(in: 1000...Int.max), logger: logger).wait()
            if try !Self.takePresence(presenceKey, on: connection, logger: logger).wait() {
                logger.error("PostgreSQL: this server's presence key \(presenceKey) was taken by another server while its connection was lost")
            }
            current = connection
        }
    }

    /// Takes the session advisory lock (`presenceLockSpace`, `key`) on `connection`; true when it was free.
    private static func takePresence(_ key: Int32, on connection: PostgresConnection, logger: Logger) -> EventLoopFuture<Bool> {
        connection.query(PostgresQuery(unsafeSQL: "SELECT pg_try_advisory_lock(\(presenceLockSpace), \(key))"), logger: logger)
            .flatMapThrowing { rows in try rows.first?.decode(Bool.self) == true }
    }

    /// Takes a presence lock under a free random key (a key is free unless a live server holds it).
    private static func claimPresence(_ connection: PostgresConnection, logger: Logger) async throws -> Int32 {
        for _ in 0..<32 {
            let key = Int32.random(in: 1...Int32.max)
            if try await takePresence(key, on: connection, logger: logger).get() { return key }
        }
        throw ServiceError.storeUnavailable("PostgreSQL refused 32 random presence locks in a row; is another program taking advisory locks (\(presenceLockSpace), n)?")
    }

    /// Connects `poolSize` connections to `url` and brings the schema up to date (under a session advisory
    /// lock, so that servers starting together migrate once).
    static func open(url: String, poolSize: Int) async throws -> PostgresStore {
        let configuration = try PostgresURL.configuration(url)
        var logger = Logger(label: "maprules.postgres")
        logger.logLevel = .error
        let size = max(1, min(poolSize, 64))
        try await createDatabaseIfMissing(configuration, url: url, logger: logger)
        var connections: [PostgresConnection] = []
        do {
            for id in 0..<size {
                connections.append(try await PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(),
                                                                        configuration: configuration, id: id, logger: logger).get())
            }
        } catch {
            for connection in connections { try? await connection.close() }
            throw ServiceError.storeUnavailable("Cannot connect to PostgreSQL at \(PostgresURL.redacted(url)): \(PostgresStore.describe(error))")
        }
        var presenceConnection: PostgresConnection?
        let serverKey: Int32
        do {
            presenceConnection = try await PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                                                      id: size, logger: logger).get()
            serverKey = try await claimPresence(presenceConnection!, logger: logger)
        } catch {
            for connection in connections + [presenceConnection].compactMap({ $0 }) { try? await connection.close() }
            if error is ServiceError { throw error }
            throw ServiceError.storeUnavailable("Cannot connect to PostgreSQL at \(PostgresURL.redacted(url)): \(PostgresStore.describe(error))")
        }
        let presence = presenceConnection!
        let threads = NIOThreadPool(numberOfThreads: size)
        threads.start()
        let store = PostgresStore(configuration: configuration, connections: connections, presence: presence, serverKey: serverKey,
                                  threads: threads, logger: logger)
        try await store.run { connection in try PostgresSchema.migrate(connection) }
        return store
    }

    /// Creates the URL's database when the server says it does not exist (connecting to `postgres` to do so):
    /// pointing a first server at a new database name is enough, as a new SQLite file name is.
    private static func createDatabaseIfMissing(_ configuration: PostgresConnection.Configuration, url: String, logger: Logger) async throws {
        guard let name = configuration.database else { return }
        do {
            let probe = try await PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                                             id: 0, logger: logger).get()
            try? await probe.close()
            return
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "3D000" {
            // invalid_catalog_name: the database does not exist yet.
        } catch {
            throw ServiceError.storeUnavailable("Cannot connect to PostgreSQL at \(PostgresURL.redacted(url)) (is the server running, and the URL's host, port and user right?): \(describe(error))")
        }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw ServiceError.invalidParameter("The database '\(name)' does not exist; create it first (its name has characters MapRules does not quote).")
        }
        var admin = configuration
        admin.database = "postgres"
        do {
            let connection = try await PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: admin,
                                                                  id: 0, logger: logger).get()
            defer { Task { try? await connection.close() } }
            _ = try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(name)\""), logger: logger).get()
        } catch let error as PSQLError where ["42P04", "23505"].contains(error.serverInfo?[.sqlState]) {
            // duplicate_database, or the catalogue's unique name index: another server created it meanwhile.
        } catch {
            throw ServiceError.storeUnavailable("The database '\(name)' does not exist and creating it failed: \(describe(error))")
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await run { connection in
            try connection.transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ", readOnly: true, body)
        }
    }

    /// One statement's answer, in the statement's own snapshot: no transaction around it, so one round trip
    /// (`QueryPlan.singleStatementPage`). On a thread of the store's pool as any read: sending it from the calling
    /// task instead measured no faster, and would take connections the pool's threads count on.
    func answerAlone(_ sql: StoreSQL) async throws -> (any StoreAnswer)? {
        try await run { connection in try connection.answerNow(sql) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        try await run { connection in
            try connection.transaction(begin: "BEGIN") { connection in
                try connection.execute("SELECT pg_advisory_xact_lock(\(Self.writeLockKey))")
                return try body(connection)
            }
        }
    }

    func close() throws {
        let connections = idle.withLockedValue { all in
            defer { all.removeAll() }
            return all
        }
        for pooled in connections { try? pooled.connection.close().wait() }
        let presence = self.presence.withLockedValue { $0 }
        if !presence.isClosed { try? presence.close().wait() }
        try? threads.syncShutdownGracefully()
    }

    /// A store dropped without `close()` (a finished test, a failed start) closes its connections in the
    /// background: each stays referenced until its close completes.
    deinit {
        for connection in idle.withLockedValue({ $0 }).map(\.connection) + [presence.withLockedValue { $0 }] where !connection.isClosed {
            connection.close().whenComplete { _ in _ = connection }
        }
        threads.shutdownGracefully { _ in }
    }

    /// Runs `body` on a pool thread with a connection of its own (reconnecting one the server closed).
    private func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnectionBridge) throws -> T) async throws -> T {
        try await threads.runIfActive { [self] in
            try reclaimPresenceIfLost()
            var pooled = idle.withLockedValue { $0.popLast() }
            if pooled == nil || pooled!.connection.isClosed {
                pooled = PooledConnection(connection: try PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                    id: Int.random(in: 1000...Int.max), logger: logger).wait())
            }
            let held = pooled!
            defer { idle.withLockedValue { $0.append(held) } }
            return try body(PostgresConnectionBridge(held.connection, statements: held.statements, logger: logger))
        }
    }

    /// A PostgreSQL error's message and detail (the server's own words), else the error.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let detail = error.serverInfo?[.detail].map { " (\($0))" } ?? ""
                return message + detail
            }
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        return "\(error)"
    }
}

/// The rows of a prepared statement's answer, appended on the connection's event loop and read after the answer
/// completed (the future's completion orders the two).
private final class RowCollector: @unchecked Sendable {
    var rows: [PostgresRow] = []
}

/// A connection of the pool with the statements prepared on it (used by one thread at a time).
private final class PooledConnection: @unchecked Sendable {
    let connection: PostgresConnection
    let statements = PostgresStatements()
    init(connection: PostgresConnection) { self.connection = connection }
}

/// One connection inside a `read` / `write`, answering the store's SQL synchronously.
final class PostgresConnectionBridge: StoreConnection {
    let connection: PostgresConnection
    let statements: PostgresStatements?
    let logger: Logger
    var dialect: SQLDialect { .postgres }

    init(_ connection: PostgresConnection, statements: PostgresStatements? = nil, logger: Logger) {
        self.connection = connection
        self.statements = statements
        self.logger = logger
    }

    /// `begin` is sent without waiting for its answer: the connection answers in order, so the first statement of
    /// `body` waits for both (one round trip fewer). A read's COMMIT is not waited for either (a read-only
    /// transaction has nothing to fail on; the connection's next user queues behind it).
    func transaction<T>(begin: String, readOnly: Bool = false, _ body: (PostgresConnectionBridge) throws -> T) throws -> T {
        pending = nil
        began = connection.query(PostgresQuery(unsafeSQL: begin), logger: logger)
        do {
            let result = try body(self)
            try flush()
            if readOnly && began == nil {
                _ = connection.query(PostgresQuery(unsafeSQL: "COMMIT"), logger: logger)
            } else {
                try executeScript("COMMIT")
            }
            return result
        } catch {
            pending = nil
            try? executeScript("ROLLBACK")
            throw error
        }
    }

    /// The answer to a BEGIN sent and not yet waited for.
    private var began: EventLoopFuture<PostgresQueryResult>?

    private func awaitBegin() throws {
        guard let future = began else { return }
        began = nil
        do {
            _ = try future.wait()
        } catch {
            throw ServiceError.internal("PostgreSQL: \(PostgresStore.describe(error)) in: BEGIN")
        }
    }

    /// Deferred writes of one kind, not sent yet.
    private struct Pending {
        var kind: String
        var keys: Set<[Int64]>
        var rows: [[StoreValue]]
        var statement: @Sendable ([[StoreValue]]) -> StoreSQL
    }
    private var pending: Pending?
    /// Rows per batch statement (PostgreSQL takes at most 65,535 parameters a statement).
    private static let batchRows = 1000

    func deferrable(_ write: DeferrableWrite, now: () throws -> Void) throws {
        if let held = pending, held.kind != write.kind || held.keys.contains(write.key) || held.rows.count >= Self.batchRows {
            try flush()
        }
        if pending == nil { pending = Pending(kind: write.kind, keys: [], rows: [], statement: write.statement) }
        pending!.keys.insert(write.key)
        pending!.rows.append(write.values)
    }

    /// Sends the deferred writes (before any other statement, and before COMMIT).
    private func flush() throws {
        guard let held = pending else { return }
        pending = nil
        _ = try send(held.statement(held.rows))
    }

    private func run(_ sql: StoreSQL) throws -> PostgresAnswer {
        try flush()
        return try send(sql)
    }

    /// One statement outside any transaction, waited for here (`PostgresStore.answer`).
    func answerNow(_ sql: StoreSQL) throws -> PostgresAnswer { try send(sql) }

    /// Sends `sql` and waits for its answer (`answer`).
    private func send(_ sql: StoreSQL) throws -> PostgresAnswer {
        let answer = answer(sql)
        do {
            try awaitBegin()
        } catch {
            // The answer settles before the connection goes back to the pool (its statement cache with it).
            _ = try? answer.wait()
            throw error
        }
        return try answer.wait()
    }

    /// Sends `sql` and answers the future of its answer: a query by name when it is prepared on this connection
    /// (prepared first when it is not yet: `PostgresStatements`), anything else as an unnamed statement. Errors
    /// come as `ServiceError`s naming the statement.
    private func answer(_ sql: StoreSQL) -> EventLoopFuture<PostgresAnswer> {
        let answer: EventLoopFuture<PostgresAnswer>
        if let statements, PostgresStatements.preparable(sql) {
            let key = PostgresStatements.key(sql)
            let statement: EventLoopFuture<PreparedQuery>
            if let known = statements.statement(key) {
                statement = connection.eventLoop.makeSucceededFuture(known)
            } else {
                statement = connection.prepare(query: PostgresStatements.text(key)).map { prepared in
                    statements.add(prepared, for: key)
                    return prepared
                }
            }
            // The rows arrive on the connection's event loop, one call each, before the answer completes.
            let collected = RowCollector()
            let values = PostgresStatements.values(sql.arguments)
            answer = statement.flatMap { statement in
                statement.execute(values) { row in collected.rows.append(row) }
            }.map { PostgresAnswer(rows: collected.rows, count: collected.rows.count, prepared: true) }
        } else {
            var bindings = PostgresBindings(capacity: sql.arguments.count)
            for argument in sql.arguments {
                switch argument {
                case .null: bindings.appendNull()
                case .integer(let v): bindings.append(v)
                case .real(let v): bindings.append(v)
                case .text(let v): bindings.append(v)
                case .blob(let v): bindings.append(ByteBuffer(bytes: v))
                }
            }
            let query = PostgresQuery(unsafeSQL: PostgresPlaceholders.numbered(sql.text), binds: bindings)
            answer = connection.query(query, logger: logger).map { result in
                PostgresAnswer(rows: Array(result), count: result.metadata.rows ?? 0)
            }
        }
        let text = sql.text
        return answer.flatMapErrorThrowing { error in
            throw ServiceError.internal("PostgreSQL: \(PostgresStore.describe(error)) in: \(text)")
        }
    }

    @discardableResult
    func execute(_ sql: StoreSQL) throws -> Int { try run(sql).count }

    func insert(_ sql: StoreSQL, returning column: String) throws -> Int64 {
        var returning = sql
        returning.append(StoreSQL(text: " RETURNING \(column)"))
        let answer = try run(returning)
        guard let row = answer.rows.first, let id = Int64(storeValue: PostgresValues.value(answer.cells(row)[0])) else {
            throw ServiceError.internal("PostgreSQL answered no \(column) for an insert.")
        }
        return id
    }

    func fetchAll(_ sql: StoreSQL) throws -> [StoreRow] {
        let result = try run(sql)
        var rows: [StoreRow] = []
        var names: [String]?
        for row in result.rows {
            let cells = result.cells(row)
            if names == nil { names = cells.map(\.columnName) }
            rows.append(StoreRow(names: names!, values: cells.map(PostgresValues.value)))
        }
        return rows
    }

    func forEach(_ sql: StoreSQL, _ body: (any StoreCursor) throws -> Bool) throws {
        try run(sql).forEach(body)
    }

    /// Statements separated by `;`, each run on its own (PostgresNIO sends every query as a prepared statement,
    /// which holds one command). The store's own schema text: no `;` inside literals, except in a function body
    /// quoted with `$$`, which stays whole.
    func executeScript(_ text: String) throws {
        try flush()
        try awaitBegin()
        for statement in Self.statements(text) where !statement.allSatisfy({ $0.isWhitespace }) {
            do {
                _ = try connection.query(PostgresQuery(unsafeSQL: String(statement)), logger: logger).wait()
            } catch {
                throw ServiceError.internal("PostgreSQL: \(PostgresStore.describe(error)) in: \(statement.prefix(200))")
            }
        }
    }

    /// `text` cut at each `;` outside `$$ ... $$`.
    static func statements(_ text: String) -> [Substring] {
        var statements: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var i = text.startIndex
        while i < text.endIndex {
            if text[i...].hasPrefix("$$") {
                quoted.toggle()
                i = text.index(i, offsetBy: 2)
                continue
            }
            if text[i] == ";" && !quoted {
                statements.append(text[start..<i])
                start = text.index(after: i)
            }
            i = text.index(after: i)
        }
        statements.append(text[start...])
        return statements
    }
}

/// A statement's answer: its rows, and how many rows it returned, inserted, changed or deleted.
struct PostgresAnswer: StoreAnswer {
    var rows: [PostgresRow]
    var count: Int
    /// PostgresNIO asks for every answer in binary, but describes a prepared statement's columns as the server did
    /// before binding (text): its cells are read as binary.
    var prepared = false

    func cells(_ row: PostgresRow) -> [PostgresCell] {
        var cells = Array(row)
        if prepared {
            for index in cells.indices { cells[index].format = .binary }
        }
        return cells
    }

    /// Steps through the rows in place; `body` answers false to stop early.
    func forEach(_ body: (any StoreCursor) throws -> Bool) throws {
        for row in rows {
            guard try body(PostgresCursor(cells: cells(row))) else { break }
        }
    }
}

/// A row of a PostgreSQL answer as a `StoreCursor`.
private struct PostgresCursor: StoreCursor {
    let cells: [PostgresCell]
    var columnCount: Int { cells.count }
    var columnNames: [String] { cells.map(\.columnName) }
    func value(_ column: Int) -> StoreValue { PostgresValues.value(cells[column]) }
    func isNull(_ column: Int) -> Bool { cells[column].bytes == nil }
    func int64(_ column: Int) -> Int64? { Int64(storeValue: value(column)) }
    func double(_ column: Int) -> Double? { Double(storeValue: value(column)) }
    func string(_ column: Int) -> String? { String(storeValue: value(column)) }
    func withTextBytes<R>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        let cell = cells[column]
        guard var bytes = cell.bytes, PostgresValues.isText(cell.dataType) || cell.format == .text else { return try body(nil) }
        if cell.dataType == .jsonb && cell.format == .binary { bytes.moveReaderIndex(forwardBy: 1) }
        return try bytes.withUnsafeReadableBytes { raw in try body(raw.bindMemory(to: UInt8.self)) }
    }
}
