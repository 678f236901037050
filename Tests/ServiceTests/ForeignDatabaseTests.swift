import Foundation
import GRDB
import Service
import Testing
import FeatureServiceModel
import WebMap

/// A SQLite file MapRules did not make (a user's own database given to `serve --database` by mistake) is
/// refused before anything is written to it: no migration, no journal-mode change, no file left beside it.
struct ForeignDatabaseTests {
    /// A database of someone else's: one table, one row, in a rollback journal.
    static func foreignDatabase() throws -> String {
        let path = Fixtures.temporaryDatabase()
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
            try db.execute(sql: "INSERT INTO notes (text) VALUES ('field notes, not a MapRules database')")
        }
        try queue.close()
        return path
    }

    @Test func aDatabaseMapRulesDidNotMakeIsRefusedUntouched() async throws {
        let path = try Self.foreignDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = await expectServiceError(400) {
            _ = try await ServiceCore.open(.init(database: path, sampleFolders: [Fixtures.trees]))
        }
        #expect(error?.message.contains("MapRules did not make (tables: notes)") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file changed")
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix), "\(suffix) left beside it")
        }
        let probe = try #require(try SQLiteFileProbe.read(path))
        #expect(probe.tables == ["notes"] && probe.migrations.isEmpty && !probe.hasOfflineState && !probe.isMapRulesDatabase)
    }

    @Test func aDatabaseMapRulesMadeOpensAgainAndAnEmptyFileBecomesOne() async throws {
        let path = Fixtures.temporaryDatabase()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(try SQLiteFileProbe.read(path) == nil)
        let core = try await ServiceCore.open(.init(database: path, sampleFolders: [Fixtures.trees]))
        try core.close()
        let probe = try #require(try SQLiteFileProbe.read(path))
        #expect(probe.isMapRulesDatabase && probe.migrations.first == "v1: catalogue, rows, versions, attachments")
        let again = try await ServiceCore.open(.init(database: path, sampleFolders: [Fixtures.trees]))
        try again.close()
    }

    /// A first start killed after GRDB made its (empty) list of migrations and before the first migration
    /// committed leaves only that table: the next start takes the file (the reliability suite's kill -9 during a
    /// first start found this).
    @Test func aFirstStartKilledBeforeItsFirstMigrationIsTakenUp() async throws {
        let path = Fixtures.temporaryDatabase()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)") }
        try queue.close()
        #expect(try SQLiteFileProbe.read(path)?.isMapRulesDatabase == true)
        let core = try await ServiceCore.open(.init(database: path, sampleFolders: [Fixtures.trees]))
        try core.close()
    }

    @Test func aFileSQLiteCannotReadIsRefusedWithItsReason() async throws {
        let path = Fixtures.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("SQLite format 3\0 and then nothing a database holds".utf8).write(to: URL(fileURLWithPath: path))
        let error = await expectServiceError(400) { _ = try SQLiteFileProbe.read(path) }
        #expect(error?.message.contains("cannot be read as a SQLite database") == true, "\(String(describing: error))")
    }
}
