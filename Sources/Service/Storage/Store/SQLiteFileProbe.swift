import Foundation
import GRDB
import FeatureServiceModel
import WebMap

/// What an existing SQLite file holds, read through a read-only connection: no migration, no journal-mode
/// change, nothing written. The store probes a file before it migrates it, so a database MapRules did not make
/// (a user's own, given by mistake to `serve --database` or `offline status`) is refused as it was.
public struct SQLiteFileProbe: Sendable, Equatable {
    /// The file's tables, SQLite's own left out, sorted.
    public var tables: [String]
    /// The MapRules schema migrations recorded in it, in the order they ran.
    public var migrations: [String]
    /// True when it holds an offline geodatabase's replica state (`offlineReplica`, one row).
    public var hasOfflineState: Bool

    /// True when MapRules made it (its first migration is recorded), or when it holds no table yet but GRDB's
    /// empty list of migrations (a first start killed before its first migration committed).
    public var isMapRulesDatabase: Bool {
        migrations.contains(Schema.firstMigration) || (migrations.isEmpty && tables.allSatisfy { $0 == "grdb_migrations" })
    }

    /// Probes the file at `path`; nil when there is no file there or it is empty (SQLite makes a database of
    /// an empty file). Throws `ServiceError` (code 400) when SQLite cannot read it as a database.
    public static func read(_ path: String) throws -> SQLiteFileProbe? {
        guard path != ":memory:", !path.isEmpty,
              let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber,
              size.int64Value > 0 else { return nil }
        var configuration = GRDB.Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                let tables = try String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
                    """)
                let migrations = tables.contains("grdb_migrations")
                    ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") : []
                let hasOfflineState = try tables.contains("offlineReplica")
                    && (Int.fetchOne(db, sql: "SELECT count(*) FROM offlineReplica") ?? 0) > 0
                return SQLiteFileProbe(tables: tables, migrations: migrations, hasOfflineState: hasOfflineState)
            }
        } catch let error as DatabaseError {
            throw ServiceError(code: 400, message: "'\(path)' cannot be read as a SQLite database: \(error.message ?? "\(error.resultCode)").")
        }
    }

    /// The refusal for a file MapRules did not make, naming a few of its tables.
    func foreignDatabaseError(_ path: String) -> ServiceError {
        let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", ..." : "")
        return ServiceError(code: 400, message: "'\(path)' is a SQLite database that MapRules did not make (tables: \(shown)); nothing was written to it. Give a new file, or one made by `maprules serve` or `maprules offline generate`.")
    }
}
