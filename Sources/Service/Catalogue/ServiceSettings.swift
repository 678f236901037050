import Foundation
import FeatureServiceModel
import WebMap


/// Service-level settings that a sample folder carries in `service.json` beside its
/// `<Name>.services.json`. Every member is optional:
///
/// ```json
/// {
///   "branchVersioned": true,
///   "defaultVersionAccess": "protected",
///   "allowAnonymousQuery": true,
///   "maxRecordCount": 2000
/// }
/// ```
///
/// - `branchVersioned`: the service has branch versioning (a VersionManagementServer); defaults to the
///   root metadata's `hasVersionedData`.
/// - `defaultVersionAccess`: access of `sde.DEFAULT` (`public`, `protected` or `private`; default
///   `public`). Protected means only the service owner and administrators edit DEFAULT directly.
/// - `allowAnonymousQuery`: queries need no token (default true). Edits and version operations always
///   need one when a users file is in force.
/// - `maxRecordCount`: the page size cap of queries; defaults to the root metadata's, else 2000.
///
/// Which users own the service is said by the users file (`ownedServices`), not here.
public struct ServiceSettings: Sendable, Codable, Equatable {
    public var branchVersioned: Bool?
    public var defaultVersionAccess: VersionAccess?
    public var allowAnonymousQuery: Bool?
    public var maxRecordCount: Int?

    public init(branchVersioned: Bool? = nil, defaultVersionAccess: VersionAccess? = nil, allowAnonymousQuery: Bool? = nil, maxRecordCount: Int? = nil) {
        self.branchVersioned = branchVersioned
        self.defaultVersionAccess = defaultVersionAccess
        self.allowAnonymousQuery = allowAnonymousQuery
        self.maxRecordCount = maxRecordCount
    }

    /// Reads `service.json` of a sample folder; a missing file means all defaults.
    static func load(from files: SampleFiles) throws -> ServiceSettings {
        guard files.contains("service.json") else { return ServiceSettings() }
        do {
            guard let data = files.data("service.json") else { throw CocoaError(.fileReadUnknown) }
            return try JSONDecoder().decode(ServiceSettings.self, from: data)
        } catch {
            throw ServiceError.invalidParameter("\(files.path(of: "service.json")) is not a valid service settings file: \(error)")
        }
    }
}
