import FeatureServiceModel
import WebMap
extension ServiceCore.Configuration {
    /// The store this configuration names, opened (created or migrated): the PostgreSQL database of `postgres`
    /// when there is one, else the SQLite database at `database` (":memory:" for memory).
    func openStore() async throws -> any Store {
        if let postgres {
            return try await PostgresStore.open(url: postgres, poolSize: postgresPoolSize)
        }
        return try SQLiteStore.open(path: database, singleConnection: singleConnection)
    }
}
