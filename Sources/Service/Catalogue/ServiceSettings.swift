import Foundation

/// Access to a branch version (docs/rules.md, "Access permissions").
public enum VersionAccess: String, Sendable, Codable, CaseIterable {
    /// Every signed-in user may view and edit.
    case `public`
    /// Everyone may view; only the version owner, the service owner and administrators may edit.
    case protected
    /// Only the owner, the service owner and administrators may view or edit; to everyone else the version
    /// does not exist.
    case `private`

    /// Accepts any case, and the Esri spellings `esriVersionAccessPublic`...
    public init?(parameter: String) {
        let key = parameter.lowercased().replacingOccurrences(of: "esriversionaccess", with: "")
        self.init(rawValue: key)
    }

    /// The Esri spelling used in version infos.
    public var esriName: String {
        switch self {
        case .public: return "esriVersionAccessPublic"
        case .protected: return "esriVersionAccessProtected"
        case .private: return "esriVersionAccessPrivate"
        }
    }
}

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
