import FeatureServiceModel
import WebMap
/// One table of the store as it stands after every migration: the one definition of its columns, which the
/// records (`StoreRecord`) write and read, and which both schemas (`Schema` for SQLite, `PostgresSchema`) are
/// checked against by `StoreTablesTests` (a fresh database of each kind, and an old one migrated, must have
/// exactly these columns, types, nullability and primary key).
///
/// The migrations themselves stay as they were shipped (an existing database migrates as before); a change to a
/// table is a new migration in each schema plus the change here, and the test fails until the three agree.
struct StoreTable: Sendable, Equatable {
    let name: String
    let columns: [StoreColumn]
    /// The primary key's columns.
    let primaryKey: [String]
    /// Kept only where several servers share the store (`Store.sharesSessionsBetweenServers`: PostgreSQL's
    /// `token` and `versionLock`); a store of one server keeps these in memory and has no such table.
    let sharedStoresOnly: Bool
    /// Columns a dialect adds and keeps itself, never written by the core (PostgreSQL's `featureRow.defaultLive`,
    /// `SQLDialect.flagsDefaultLiveRows`).
    let maintainedByStore: [SQLDialect: [StoreColumn]]

    /// The columns an insert writes, in `StoreRecord.values` order: all but a key the store assigns.
    let insertColumns: [String]
    /// `INSERT INTO name (insertColumns) VALUES (?, ...)`.
    let insertText: String

    init(name: String, columns: [StoreColumn], primaryKey: [String], sharedStoresOnly: Bool = false,
         maintainedByStore: [SQLDialect: [StoreColumn]] = [:]) {
        self.name = name
        self.columns = columns
        self.primaryKey = primaryKey
        self.sharedStoresOnly = sharedStoresOnly
        self.maintainedByStore = maintainedByStore
        insertColumns = columns.filter { !$0.isAssignedKey }.map(\.name)
        let placeholders = Array(repeating: "?", count: insertColumns.count).joined(separator: ", ")
        insertText = "INSERT INTO \(name) (\(insertColumns.joined(separator: ", "))) VALUES (\(placeholders))"
    }

    /// Every column a store of `dialect` has in this table, in definition order.
    func columns(in dialect: SQLDialect) -> [StoreColumn] { columns + (maintainedByStore[dialect] ?? []) }
}

/// A column of a `StoreTable`.
struct StoreColumn: Sendable, Equatable {
    /// What a column holds, and the type each dialect declares for it.
    enum Kind: Sendable, Equatable {
        case integer
        /// 0 or 1 (a SQLite BOOLEAN, a PostgreSQL SMALLINT: the same SQL reads both).
        case boolean
        case real
        case text
        case blob
    }

    var name: String
    var kind: Kind
    var isNullable = false
    /// The store assigns it on insert (an auto-incremented primary key), so inserts leave it out.
    var isAssignedKey = false

    static func integer(_ name: String, nullable: Bool = false) -> StoreColumn { StoreColumn(name: name, kind: .integer, isNullable: nullable) }
    static func boolean(_ name: String) -> StoreColumn { StoreColumn(name: name, kind: .boolean) }
    static func real(_ name: String, nullable: Bool = false) -> StoreColumn { StoreColumn(name: name, kind: .real, isNullable: nullable) }
    static func text(_ name: String, nullable: Bool = false) -> StoreColumn { StoreColumn(name: name, kind: .text, isNullable: nullable) }
    static func blob(_ name: String) -> StoreColumn { StoreColumn(name: name, kind: .blob) }
    /// An integer key the store assigns.
    static func assignedKey(_ name: String) -> StoreColumn { StoreColumn(name: name, kind: .integer, isAssignedKey: true) }
}
