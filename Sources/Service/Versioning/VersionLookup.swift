import Foundation
import FeatureServiceModel
import WebMap

extension ServiceCore {
    /// The version a request names (`gdbVersion`: a qualified name or a GUID; nil or empty = DEFAULT), as
    /// the caller may see it. Unknown and invisible versions answer the same "not found".
    static func resolveVersion(_ db: any StoreConnection, service: ServiceModel, name: String?, policy: AccessPolicy) throws -> VersionRecord {
        let requested = name?.trimmingCharacters(in: .whitespaces) ?? ""
        let record: VersionRecord?
        if requested.isEmpty {
            // Every query of DEFAULT comes here: one constant SQL text, prepared once per connection.
            record = try db.fetchRecord(VersionRecord.self, "SELECT * FROM version WHERE service = \(service.name) AND branch = 0 LIMIT 1")
        } else if let guid = GUIDText.normalize(requested) {
            record = try db.fetchRecord(VersionRecord.self, "SELECT * FROM version WHERE service = \(service.name) AND guid = \(guid) LIMIT 1")
        } else {
            // "DEFAULT" alone names sde.DEFAULT, as ArcGIS accepts.
            let qualified = requested.contains(".") ? requested : (requested.caseInsensitiveCompare("DEFAULT") == .orderedSame ? "sde.DEFAULT" : requested)
            // Version names compare ignoring case (SQLite declares the column NOCASE; PostgreSQL does not).
            record = try db.fetchRecord(VersionRecord.self, """
                SELECT * FROM version WHERE service = \(service.name) AND lower(qualifiedName) = lower(\(qualified)) LIMIT 1
                """)
        }
        guard let record, policy.canView(record) else { throw ServiceError.versionNotFound(requested.isEmpty ? "sde.DEFAULT" : requested) }
        if !record.isDefault && !service.isBranchVersioned { throw ServiceError.versionNotFound(requested) }
        return record
    }

    /// The version with `id`, as stored.
    static func version(_ db: any StoreConnection, id: Int64) throws -> VersionRecord? {
        try db.fetchRecord(VersionRecord.self, "SELECT * FROM version WHERE id = \(id)")
    }

    /// Writes every changeable column of a version record back to its row.
    static func updateVersion(_ db: any StoreConnection, _ record: VersionRecord) throws {
        try db.execute("""
            UPDATE version SET owner = \(record.owner), name = \(record.name), qualifiedName = \(record.qualifiedName), \
            access = \(record.access), description = \(record.description), ancestorMoment = \(record.ancestorMoment), \
            baseMoment = \(record.baseMoment), createdDate = \(record.createdDate), modifiedDate = \(record.modifiedDate), \
            reconcileDate = \(record.reconcileDate), postDate = \(record.postDate) WHERE id = \(record.id)
            """)
    }
}
