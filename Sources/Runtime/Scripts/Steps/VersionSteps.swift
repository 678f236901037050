import Foundation
import FeatureServiceModel
import WebMap

// The user and the version a script edits: signIn, fetchVersions, createVersion, switchVersion.

/// `signIn: {user, password}`: the steps after it run as that user (two crews in one script).
struct SignInStep: ScriptOperation {
    static let name = "signIn"
    let user: String
    let password: String

    init(arguments: JSON) {
        user = arguments["user"]?.string ?? ""
        password = arguments["password"]?.string ?? ""
    }

    func run(in context: StepContext) async throws -> StepResult {
        try await context.geodatabase.signIn(.password(user: user, password: password))
        return StepResult("signed in as \(user)")
    }
}

/// `fetchVersions`: the versions the user may see; saves `versions[]` (`versionName`, `access`, `versionGuid`).
struct FetchVersionsStep: ScriptOperation {
    static let name = "fetchVersions"

    init(arguments: JSON) {}

    func run(in context: StepContext) async throws -> StepResult {
        let versions = try await context.geodatabase.fetchVersions()
        let list = JSON.array(versions.map { .object([("versionName", .string($0.versionName)), ("access", .string(StepText.accessWord($0.access))),
                                                      ("versionGuid", .string($0.versionGuid))]) })
        return StepResult("\(versions.count) versions: \(versions.map(\.versionName).joined(separator: ", "))", value: .object([("versions", list)]))
    }
}

/// `createVersion: {name, access, description}`: checked by the version/ rules first; saves `versionName`, `versionGuid`.
struct CreateVersionStep: ScriptOperation {
    static let name = "createVersion"
    let versionName: String
    let access: String
    let description: String

    init(arguments: JSON) {
        versionName = arguments["name"]?.string ?? ""
        access = arguments["access"]?.string ?? "private"
        description = arguments["description"]?.string ?? ""
    }

    func run(in context: StepContext) async throws -> StepResult {
        let info = try await context.geodatabase.createVersion(name: versionName, access: access, description: description)
        let access = StepText.accessWord(info.access)
        return StepResult("created \(info.versionName) (\(access)) \(info.versionGuid)",
                          value: .object([("versionName", .string(info.versionName)), ("versionGuid", .string(info.versionGuid)), ("access", .string(access))]))
    }
}

/// `switchVersion: {to, pending}`: with `pending: apply | discard`, local edits are applied or dropped first.
struct SwitchVersionStep: ScriptOperation {
    static let name = "switchVersion"
    let target: String
    let pending: ServiceGeodatabase.PendingEditsPolicy?

    init(arguments: JSON) {
        target = arguments["to"]?.string ?? ""
        pending = arguments["pending"]?.string.flatMap(ServiceGeodatabase.PendingEditsPolicy.init(rawValue:))
    }

    func run(in context: StepContext) async throws -> StepResult {
        try await context.geodatabase.switchVersion(to: target, pending: pending)
        let now = await context.geodatabase.versionName ?? ""
        return StepResult("now on \(now)")
    }
}
