import Foundation
import GRDB

extension ServiceCore {
    /// The version a request names (`gdbVersion`: a qualified name or a GUID; nil or empty = DEFAULT), as
    /// the caller may see it. Unknown and invisible versions answer the same "not found".
    static func resolveVersion(_ db: Database, service: ServiceModel, name: String?, policy: AccessPolicy) throws -> VersionRecord {
        let requested = name?.trimmingCharacters(in: .whitespaces) ?? ""
        let record: VersionRecord?
        if requested.isEmpty {
            // Every query of DEFAULT comes here: a statement prepared once per connection.
            record = try VersionRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM version WHERE service = ? AND branch = 0 LIMIT 1"),
                                                arguments: [service.name])
        } else if let guid = GUIDText.normalize(requested) {
            record = try VersionRecord.filter(VersionRecord.Columns.service == service.name && VersionRecord.Columns.guid == guid).fetchOne(db)
        } else {
            // "DEFAULT" alone names sde.DEFAULT, as ArcGIS accepts.
            let qualified = requested.contains(".") ? requested : (requested.caseInsensitiveCompare("DEFAULT") == .orderedSame ? "sde.DEFAULT" : requested)
            record = try VersionRecord.filter(VersionRecord.Columns.service == service.name && VersionRecord.Columns.qualifiedName == qualified).fetchOne(db)
        }
        guard let record, policy.canView(record) else { throw ServiceError.versionNotFound(requested.isEmpty ? "sde.DEFAULT" : requested) }
        if !record.isDefault && !service.isBranchVersioned { throw ServiceError.versionNotFound(requested) }
        return record
    }
}
