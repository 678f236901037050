import FeatureServiceModel
import WebMap
/// The SQL of a store's backend where SQLite and PostgreSQL differ. The store's SQL is written in the subset both
/// speak; what they spell differently is asked of the dialect (`Store.dialect`, `StoreConnection.dialect`), never
/// of the store's type. The query compiler (`QueryCompiler`) writes each dialect's attribute expressions.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// A query answering a count above 0 when the table `name` exists (in the current schema).
    func tableExists(_ name: String) -> StoreSQL {
        switch self {
        case .sqlite:
            return "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = \(name)"
        case .postgres:
            // An unquoted name is folded to lower case by PostgreSQL.
            return "SELECT count(*) FROM pg_tables WHERE tablename = \(name.lowercased()) AND schemaname = current_schema()"
        }
    }

    /// The direction of an `ORDER BY` term, NULL first when ascending and last when descending (SQLite's order,
    /// which PostgreSQL reverses unless told).
    func orderDirection(descending: Bool) -> String {
        switch self {
        case .sqlite: return descending ? "DESC" : "ASC"
        case .postgres: return descending ? "DESC NULLS LAST" : "ASC NULLS FIRST"
        }
    }

    /// ` GROUP BY ... ORDER BY ...` over group keys, the statement's first selected columns (`keys`, in
    /// selection order), NULL first.
    func groupAndOrder(by keys: [StoreSQL]) -> StoreSQL {
        switch self {
        case .sqlite:
            let list = keys.joined(separator: ", ")
            return " GROUP BY \(list) ORDER BY \(list)"
        case .postgres:
            // By position: the keys' SQL binds its member names, and PostgreSQL does not take two spellings with
            // different parameters for the same expression. NULL first, as SQLite orders it.
            let positions = keys.indices.map { "\($0 + 1)" }
            return StoreSQL(text: " GROUP BY " + positions.joined(separator: ", ") + " ORDER BY "
                + positions.map { $0 + " NULLS FIRST" }.joined(separator: ", "))
        }
    }

    /// True when a stored value keeps its own type through SQL (SQLite answers a JSON number written as an
    /// integer as an INTEGER, from `min`, `max` and group keys too); false when numbers are read as one type
    /// (PostgreSQL's `double precision`), so that an integral value must be turned back into an integer.
    var keepsIntegerType: Bool {
        switch self {
        case .sqlite: return true
        case .postgres: return false
        }
    }

    /// True when DEFAULT's live rows are flagged (`featureRow.defaultLive = 1`, kept by a trigger on `head`) and
    /// indexed apart (`PostgresSchema` v4): a page of DEFAULT in object id order is then one range of that index.
    var flagsDefaultLiveRows: Bool {
        switch self {
        case .sqlite: return false
        case .postgres: return true
        }
    }

    /// A statement that refreshes the planner's statistics after a bulk load (nil: not needed). PostgreSQL plans
    /// with guesses until autovacuum gets to new rows.
    var refreshStatistics: StoreSQL? {
        switch self {
        case .sqlite: return nil
        case .postgres: return "ANALYZE"
        }
    }
}
