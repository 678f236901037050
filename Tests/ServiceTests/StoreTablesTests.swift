import Foundation
import GRDB
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// The one definition of the store's tables (`StoreTables`) against what each schema's migrations make, and
/// against what each record writes and reads: a column added, renamed, retyped or made nullable in one place
/// and not the others fails here.
struct StoreTablesTests {
    /// A column as a database describes it.
    struct Described: Equatable, CustomStringConvertible {
        var name: String
        var type: String
        var nullable: Bool
        var description: String { "\(name) \(type)\(nullable ? "" : " NOT NULL")" }
    }

    static func sqliteType(_ kind: StoreColumn.Kind) -> String {
        switch kind {
        case .integer: return "INTEGER"
        case .boolean: return "BOOLEAN"
        case .real: return "DOUBLE"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }

    static func postgresType(_ kind: StoreColumn.Kind) -> String {
        switch kind {
        case .integer: return "bigint"
        case .boolean: return "smallint"
        case .real: return "double precision"
        case .text: return "text"
        case .blob: return "bytea"
        }
    }

    /// The tables a store keeps: those of a shared store only when it is one.
    static func expectedTables(shared: Bool) -> [StoreTable] { StoreTables.all.filter { shared || !$0.sharedStoresOnly } }

    /// Every table of a SQLite store: its columns (in order) and its primary key, as SQLite describes them.
    static func describeSQLite(_ db: any StoreConnection) throws -> [String: (columns: [Described], primaryKey: [String])] {
        let names = try db.fetchValues("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations' ORDER BY name
            """, as: String.self)
        var tables: [String: (columns: [Described], primaryKey: [String])] = [:]
        for name in names {
            let rows = try db.fetchAll("PRAGMA table_info(\(raw: name))")
            // A column that is the whole INTEGER PRIMARY KEY is the rowid, never null, though SQLite says notnull 0.
            let keyCount = rows.filter { ($0.get("pk", as: Int64.self) ?? 0) > 0 }.count
            let columns = try rows.map { row in
                let isRowid = keyCount == 1 && (row.get("pk", as: Int64.self) ?? 0) > 0 && (row.get("type", as: String.self) ?? "") == "INTEGER"
                return Described(name: try row.require("name"), type: try row.require("type"),
                                 nullable: try row.require("notnull", as: Int64.self) == 0 && !isRowid)
            }
            // `pk` is a column's place in the primary key, from 1 (0: not in it).
            let keyed = rows.compactMap { row in row.get("pk", as: Int64.self).flatMap { $0 > 0 ? ($0, row) : nil } }
            let primaryKey = try keyed.sorted { $0.0 < $1.0 }.map { try $0.1.require("name", as: String.self) }
            tables[name] = (columns, primaryKey)
        }
        return tables
    }

    static func expectSQLiteMatchesDefinition(_ store: any Store) async throws {
        let described = try await store.read { db in try describeSQLite(db) }
        let expected = expectedTables(shared: false)
        #expect(described.keys.sorted() == expected.map(\.name).sorted())
        for table in expected {
            let columns = table.columns(in: .sqlite).map { Described(name: $0.name, type: sqliteType($0.kind), nullable: $0.isNullable) }
            #expect(described[table.name]?.columns == columns, "\(table.name)")
            #expect(described[table.name]?.primaryKey == table.primaryKey, "\(table.name)")
        }
    }

    @Test func aNewSQLiteDatabaseHasTheDefinedTables() async throws {
        let store = try SQLiteStore.open(path: ":memory:", singleConnection: true)
        defer { try? store.close() }
        try await Self.expectSQLiteMatchesDefinition(store)
    }

    /// A database made before v3 (envelope columns named xmin, ymin, xmax, ymax) opens, migrates to the defined
    /// tables, and keeps its envelopes.
    @Test func aSQLiteDatabaseOfV2MigratesToTheDefinedTables() async throws {
        let path = Fixtures.temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v2: replicas")
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO service VALUES ('S', '{}', '{}', '', 0, 0, 0)")
                try db.execute(sql: "INSERT INTO layer (service, layerId, metadata, nextObjectId, nextAttachmentId, defaultMoment) VALUES ('S', 0, '{}', 2, 1, 0)")
                try db.execute(sql: """
                    INSERT INTO featureRow (layerKey, objectId, globalId, branch, moment, isDelete, attributes, geometry, xmin, ymin, xmax, ymax) \
                    VALUES (1, 1, '{G}', 0, 1, 0, '{}', '{"x":1,"y":2}', 1, 2, 1, 2)
                    """)
            }
            try queue.close()
        }
        let store = try SQLiteStore.open(path: path, singleConnection: true)
        defer { try? store.close() }
        try await Self.expectSQLiteMatchesDefinition(store)
        let row = try await store.read { db in try db.fetchRecord(FeatureRowRecord.self, "SELECT * FROM featureRow") }
        #expect(row?.xmin == 1 && row?.ymin == 2 && row?.xmax == 1 && row?.ymax == 2)
    }

    @Test(.enabled(if: Fixtures.postgresServer != nil, "MAPRULES_POSTGRES_URL names no PostgreSQL server"))
    func aNewPostgresDatabaseHasTheDefinedTables() async throws {
        let store = try await PostgresStore.open(url: Fixtures.newPostgresDatabase(on: Fixtures.postgresServer!), poolSize: 1)
        defer { try? store.close() }
        let described = try await store.read { db -> [String: (columns: [Described], primaryKey: [String])] in
            let names = try db.fetchValues("""
                SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'maprulesmigration' ORDER BY tablename
                """, as: String.self)
            var tables: [String: (columns: [Described], primaryKey: [String])] = [:]
            for name in names {
                let columns = try db.fetchAll("""
                    SELECT column_name, data_type, is_nullable FROM information_schema.columns \
                    WHERE table_schema = current_schema() AND table_name = \(name) ORDER BY ordinal_position
                    """).map { row in
                    Described(name: try row.require("column_name"), type: try row.require("data_type"), nullable: try row.require("is_nullable", as: String.self) == "YES")
                }
                let primaryKey = try db.fetchValues("""
                    SELECT a.attname::text FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) \
                    WHERE i.indisprimary AND i.indrelid = (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
                    WHERE c.relname = \(name) AND n.nspname = current_schema()) ORDER BY array_position(i.indkey::int2[], a.attnum)
                    """, as: String.self)
                tables[name] = (columns, primaryKey)
            }
            return tables
        }
        let expected = Self.expectedTables(shared: true)
        // PostgreSQL folds unquoted names to lower case.
        #expect(described.keys.sorted() == expected.map { $0.name.lowercased() }.sorted())
        for table in expected {
            let columns = table.columns(in: .postgres).map {
                Described(name: $0.name.lowercased(), type: Self.postgresType($0.kind), nullable: $0.isNullable)
            }
            #expect(described[table.name.lowercased()]?.columns == columns, "\(table.name)")
            #expect(described[table.name.lowercased()]?.primaryKey == table.primaryKey.map { $0.lowercased() }, "\(table.name)")
        }
    }

    /// Each record writes every column of its table and reads back what it wrote, on the store the suite runs on.
    @Test func everyRecordWritesAndReadsItsColumns() async throws {
        let core = try await Fixtures.core(users: false)
        let answers = try await core.database.write { db -> [(String, [StoreValue], [StoreValue]?)] in
            var answers: [(String, [StoreValue], [StoreValue]?)] = []
            func check<R: StoreRecord>(_ record: R, _ select: StoreSQL) throws {
                answers.append((R.table.name, record.values, try db.fetchRecord(R.self, select)?.values))
            }
            let service = ServiceRecord(name: "RecordCheck", root: "{}", settings: "{}", sourceFolder: "/x", loadedDate: 1, lastMoment: 2, defaultMoment: 3)
            try db.insert(service)
            try check(service, "SELECT * FROM service WHERE name = 'RecordCheck'")
            var layer = LayerRecord(key: nil, service: service.name, layerId: 7, metadata: "{\"id\":7}", nextObjectId: 4, nextAttachmentId: 5, defaultMoment: 6)
            layer.key = try db.insert(layer, returning: "key")
            try check(layer, "SELECT * FROM layer WHERE key = \(layer.key)")
            let row = FeatureRowRecord(id: nil, layerKey: layer.key!, objectId: 8, globalId: "{G}", branch: 0, moment: 9, isDelete: true, attributes: "{\"a\":1}",
                                       geometry: "{\"x\":1,\"y\":2}", xmin: 1.5, ymin: 2.5, xmax: 3.5, ymax: 4.5)
            let rowId = try db.insert(row, returning: "id")
            try check(row, "SELECT * FROM featureRow WHERE id = \(rowId)")
            let head = HeadRecord(layerKey: layer.key!, branch: 0, objectId: 8, moment: 9, isDelete: true, rowId: rowId)
            try db.insert(head)
            try check(head, "SELECT * FROM head WHERE rowId = \(rowId)")
            let version = VersionRecord(id: nil, service: service.name, branch: 11, guid: "{V}", owner: "o", name: "n", qualifiedName: "o.n", access: "public",
                                        description: "d", ancestorMoment: 12, baseMoment: 13, createdDate: 14, modifiedDate: 15, reconcileDate: 16, postDate: nil)
            let versionId = try db.insert(version, returning: "id")
            try check(version, "SELECT * FROM version WHERE id = \(versionId)")
            let conflict = ConflictRecord(id: nil, versionId: versionId, layerKey: layer.key!, objectId: 8, kind: "updateUpdate", fields: "[\"a\"]",
                                          inspected: true, ancestorMoment: 17)
            let conflictId = try db.insert(conflict, returning: "id")
            try check(conflict, "SELECT * FROM conflict WHERE id = \(conflictId)")
            let data = AttachmentDataRecord(id: nil, bytes: Data([0, 1, 2, 255]))
            let dataId = try db.insert(data, returning: "id")
            try check(data, "SELECT * FROM attachmentData WHERE id = \(dataId)")
            let attachment = AttachmentRowRecord(id: nil, layerKey: layer.key!, attachmentId: 18, globalId: "{A}", parentObjectId: 8, parentGlobalId: "{G}",
                                                 branch: 0, moment: 19, isDelete: false, name: "a.jpg", contentType: "image/jpeg", size: 4,
                                                 keywords: "k", dataId: dataId)
            let attachmentId = try db.insert(attachment, returning: "id")
            try check(attachment, "SELECT * FROM attachmentRow WHERE id = \(attachmentId)")
            let replica = ReplicaRecord(id: "{R}", service: service.name, name: "r", owner: "o", versionGuid: "{V}", definition: "{}", syncModel: "perLayer",
                                        syncDirection: "bidirectional", returnAttachments: true, serverGen: 20, layerServerGens: "[]", creationDate: 21,
                                        lastSyncDate: 22)
            try db.insert(replica)
            try check(replica, "SELECT * FROM replica WHERE id = '{R}'")
            let generation = ReplicaGenerationRecord(replicaId: "{R}", generation: 23, ancestorMoment: 24, baseMoment: 25)
            try db.insert(generation)
            try check(generation, "SELECT * FROM replicaGeneration WHERE replicaId = '{R}'")
            return answers
        }
        #expect(answers.count == 10)
        for (table, written, read) in answers {
            #expect(written.count == StoreTables.all.first { $0.name == table }?.insertColumns.count, "\(table)")
            #expect(read == written, "\(table)")
        }
    }
}
