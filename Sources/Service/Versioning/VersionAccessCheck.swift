import Foundation
import FeatureServiceModel
import WebMap

/// Who may view and edit a version (docs/rules.md, "Access permissions"): the one check behind every path
/// that names a version — version lists, version info, read and edit sessions, version operations,
/// queries, edits and attachments with `gdbVersion` (all through `resolveVersion` or `versionInfos`).
///
/// - public: everyone may view; every signed-in user may edit.
/// - protected: everyone may view; the version owner, the service owner and administrators may edit.
/// - private: only the version owner, the service owner and administrators may view or edit; to everyone
///   else the version does not exist.
///
/// The service owner and administrators are privileged on every version of the service, so they see and
/// may open all of them, private ones included. `sde.DEFAULT` belongs to the service owner.
extension AccessPolicy {
    private func isOwner(of version: VersionRecord) -> Bool {
        if version.isDefault { return ownsService }
        return caller.username?.caseInsensitiveCompare(version.owner) == .orderedSame
    }

    /// Owner, service owner or administrator.
    func isPrivileged(on version: VersionRecord) -> Bool { isAdministrator || ownsService || isOwner(of: version) }

    func canView(_ version: VersionRecord) -> Bool {
        switch VersionAccess(rawValue: version.access) ?? .private {
        case .public, .protected: return true
        case .private: return isPrivileged(on: version)
        }
    }

    /// The `access` values under which this caller may view sde.DEFAULT (`canView` of DEFAULT, whose owner is the
    /// service owner), for a read that checks DEFAULT inside its own statement; nil when any value will do.
    var defaultViewableAccess: [String]? {
        isAdministrator || ownsService ? nil : [VersionAccess.public.rawValue, VersionAccess.protected.rawValue]
    }

    func canEdit(_ version: VersionRecord) -> Bool {
        if isOpen { return true }
        guard !caller.isAnonymous else { return false }
        switch VersionAccess(rawValue: version.access) ?? .private {
        case .public: return true
        case .protected, .private: return isPrivileged(on: version)
        }
    }

    /// Refuses an edit of `version`, naming why.
    func requireEdit(_ version: VersionRecord) throws {
        try requireSignedIn()
        guard canEdit(version) else {
            let who = version.isDefault ? "the service owner and administrators" : "its owner (\(version.owner)), the service owner and administrators"
            throw ServiceError.notPermitted("The version '\(version.qualifiedName)' is \(version.access): only \(who) may edit it.")
        }
    }
}
