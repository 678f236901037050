import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// The named prepared statements of a PostgreSQL connection (`PostgresStatements`), on the server named by
/// MAPRULES_POSTGRES_URL: queries prepared once and run again by name, with the same meaning as unnamed ones,
/// and never more than `capacity` of them on a connection.
@Suite(.enabled(if: Fixtures.postgresServer != nil, "MAPRULES_POSTGRES_URL names no PostgreSQL server"))
struct PostgresStatementsTests {
    @Test func queriesArePreparedOnceKeptWithinCapacityAndMeanTheSame() async throws {
        let store = try await PostgresStore.open(url: Fixtures.newPostgresDatabase(on: Fixtures.postgresServer!), poolSize: 1)
        defer { try? store.close() }
        let count = PostgresStatements.capacity + 40
        let answers = try await store.read { db -> [Int64] in
            var answers: [Int64] = []
            // More distinct queries than a connection keeps, twice: the second round finds the newest prepared and
            // prepares the evicted again; each answers its own values.
            for round in 0..<2 {
                for i in 0..<count {
                    answers.append(try db.fetchValue("SELECT \(raw: String(i)) + \(Int64(round * 1_000))", as: Int64.self) ?? -1)
                }
            }
            return answers
        }
        var expected: [Int64] = []
        for round in 0..<2 {
            for i in 0..<count { expected.append(Int64(i + round * 1_000)) }
        }
        #expect(answers == expected)

        let kept = try await store.read { db in
            try db.fetchValue("SELECT count(*) FROM pg_prepared_statements", as: Int64.self) ?? -1
        }
        // The pool's one connection: what it keeps, plus at most the one just prepared for this count.
        #expect(kept >= 1 && kept <= Int64(PostgresStatements.capacity) + 1)

        // Values bind as they would unnamed (the same text behind a WITH goes unnamed): an integer against a SMALLINT
        // column, a NULL typed by its context, text with a quote, a real.
        let select: StoreSQL = """
            SELECT count(*) AS n, coalesce(\(StoreValue.null), 7) AS fallback, \("ä'b") || 'c' AS text, \(2.5) * 2 AS real \
            FROM head WHERE isDelete = \(Int64(0))
            """
        for sql in [select, "WITH unnamed AS (SELECT 1) " + select] {
            let row = try await store.read { db in try db.fetchOne(sql) }
            #expect(row?.get("n", as: Int64.self) == 0, "\(sql)")
            #expect(row?.get("fallback", as: Int64.self) == 7, "\(sql)")
            #expect(row?.get("text", as: String.self) == "ä'bc", "\(sql)")
            #expect(row?.get("real", as: Double.self) == 5, "\(sql)")
        }
    }
}
