import Foundation
import WebMap

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
