import Foundation
import Rules
import FeatureServiceModel
import WebMap

extension ServiceGeodatabase {
    /// The versions the current user may see (others' private versions never appear).
    public func fetchVersions() async throws -> [VersionInfo] {
        try await requireVersioned("Listing versions")
        do { return try await service.versions() } catch { throw RuntimeError.wrapping(error, operation: "Listing versions") }
    }

    /// Checks `name` against the version/ rules (nothing is sent when it breaks one), then creates the version.
    /// Answers its info: qualified name `owner.name`, GUID, access, dates.
    public func createVersion(name: String, access: String = "private", description: String = "") async throws -> VersionInfo {
        try await requireVersioned("Creating the version '\(name)'")
        let owner = await service.userName() ?? "anonymous"
        let existing = (try? await service.versions().map(\.versionName)) ?? []
        let candidate = VersionCandidate(name: name, owner: owner, existingNames: existing, access: access)
        let violations = VersionNameCheck.violations(of: candidate).filter { $0.severity == .error }
        if !violations.isEmpty {
            let problems = violations.map { RuntimeError($0.ruleId, "Creating the version '\(name)': \($0.message)") }
            throw RuntimeError.combining(problems, operation: "Creating the version '\(name)'")
        }
        do { return try await service.createVersion(name: name, access: access, description: description) } catch {
            throw RuntimeError.wrapping(error, operation: "Creating the version '\(name)'")
        }
    }

    /// Switches the version queries read and edits go to. Refused while local edits exist
    /// (`runtime/local-edits-pending`) unless `pending` says to apply or discard them first. A version that does
    /// not exist or that the user may not see is `runtime/version-not-found`.
    public func switchVersion(to name: String, pending: PendingEditsPolicy? = nil) async throws {
        try await load()
        try await requireVersioned("Switching to the version '\(name)'")
        if hasLocalEdits {
            switch pending {
            case nil:
                throw RuntimeError(RuntimeError.Identifier.localEditsPending,
                                   "Switching to the version '\(name)': \(localEditCount) local edits are pending. Apply or undo them first, or switch with pending: apply or discard.")
            case .apply?: _ = try await applyEdits()
            case .discard?: undoLocalEdits()
            }
        }
        let info: VersionInfo
        do { info = try await service.version(named: name) } catch {
            let wrapped = RuntimeError.wrapping(error, operation: "Switching to the version '\(name)'")
            if wrapped.serviceCode == 404 || wrapped.identifier == RuntimeError.Identifier.versionNotFound {
                throw RuntimeError(RuntimeError.Identifier.versionNotFound,
                                   "Switching to the version '\(name)': it does not exist or you may not see it.", serviceCode: wrapped.serviceCode)
            }
            throw wrapped
        }
        currentVersion = info.versionName
    }

    private func requireVersioned(_ operation: String) async throws {
        guard try await loaded().description.supportsBranchVersioning else {
            throw RuntimeError(RuntimeError.Identifier.serviceError, "\(operation): the service is not branch-versioned.", serviceCode: 400)
        }
    }

    /// True when edits now go to the default version of a branch-versioned service.
    var isOnDefaultVersion: Bool {
        get async throws {
            let loaded = try await loaded()
            guard loaded.description.supportsBranchVersioning, let defaultName = loaded.defaultVersionName else { return false }
            return (currentVersion ?? defaultName).caseInsensitiveCompare(defaultName) == .orderedSame
        }
    }

    /// The `gdbVersion` to send: the current version on a branch-versioned service, else nil.
    var gdbVersion: String? {
        get async throws { try await loaded().description.supportsBranchVersioning ? currentVersion : nil }
    }

    /// Refuses an edit on the default version when the policy says so (checked before anything else).
    func requireEditableVersion(_ operation: String, table: TableInfo) async throws {
        if defaultVersionPolicy == .refuse, try await isOnDefaultVersion {
            throw RuntimeError(RuntimeError.Identifier.defaultVersionReadOnly,
                               "\(operation.contains(table.title) ? operation : "\(operation) in \(table.title)"): the default version '\(currentVersion ?? "sde.DEFAULT")' is read-only here. Create or switch to a version first (or allow default-version edits).",
                               layer: table.reference)
        }
    }
}
