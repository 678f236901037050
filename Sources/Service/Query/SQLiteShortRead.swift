import GRDB
import FeatureServiceModel
import WebMap

extension SQLiteStore {
    /// GRDB's synchronous read, on the calling thread: `queryText`'s short reads of SQLite, without the hop to
    /// GRDB's reader queue and back (the `Store` protocol's read is asynchronous). SQLite only: the one place
    /// the query path names GRDB.
    func readHere<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try writer.read { db in try body(SQLiteConnection(db)) }
    }
}
