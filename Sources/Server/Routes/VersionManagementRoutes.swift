import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// `/arcgis/rest/services/<name>/VersionManagementServer`: the root, `versions` / `versionInfos`,
/// `create`, `delete`, and per version (`versions/<guid>`, braces optional) its info, `alter`, read
/// and edit sessions, `reconcile`, `post`, `differences`, `conflicts`, `inspectConflicts`,
/// `restoreRows` and `deleteForwardEdits`. Refusals use the version management error style
/// `{"success": false, "error": {...}}`. Operations are answered synchronously, also when `async`
/// is asked.
struct VersionManagementRoutes {
    static let prefix: RouterPath = "arcgis/rest/services/:service/VersionManagementServer"
    let core: ServiceCore

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        let group = router.group(Self.prefix).add(middleware: VersionManagementErrorMiddleware())
        group.getAndPost("", use: root)
        group.getAndPost("versions", use: versions)
        group.getAndPost("versionInfos", use: versions)
        group.getAndPost("create", use: create)
        group.getAndPost("delete", use: delete)
        group.getAndPost("purgeLock", use: purgeLock)
        group.getAndPost("versions/:version", use: info)
        group.getAndPost("versions/:version/delete", use: delete)
        group.getAndPost("versions/:version/alter", use: alter)
        group.getAndPost("versions/:version/startReading", use: startReading)
        group.getAndPost("versions/:version/stopReading", use: stopReading)
        group.getAndPost("versions/:version/startEditing", use: startEditing)
        group.getAndPost("versions/:version/stopEditing", use: stopEditing)
        group.getAndPost("versions/:version/reconcile", use: reconcile)
        group.getAndPost("versions/:version/post", use: post)
        group.getAndPost("versions/:version/differences", use: differences)
        group.getAndPost("versions/:version/conflicts", use: conflicts)
        group.getAndPost("versions/:version/inspectConflicts", use: inspectConflicts)
        group.getAndPost("versions/:version/restoreRows", use: restoreRows)
        group.getAndPost("versions/:version/deleteForwardEdits", use: deleteForwardEdits)
    }

    // MARK: Service level

    @Sendable func root(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        if HTMLNegotiation.wantsHTML(request, context.arguments) { return try await DirectoryPages(core: core).versions(request, context) }
        return try ArcGISResponse.json(try await core.versionManagementInfo(service: try context.serviceName(), as: context.caller), context: context)
    }

    @Sendable func versions(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        if HTMLNegotiation.wantsHTML(request, context.arguments) { return try await DirectoryPages(core: core).versions(request, context) }
        let a = context.arguments
        let answer = try await core.versionInfos(service: try context.serviceName(), ownerFilter: a.string("ownerFilter"),
                                                 includeHidden: try a.bool("includeHidden", default: false), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func create(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        guard let name = a.string("versionName") else { throw ServiceError.invalidParameter("versionName is required.") }
        let answer = try await core.createVersion(service: try context.serviceName(), versionName: name, description: a.string("description") ?? "",
                                                  accessPermission: a.string("accessPermission"), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    /// `delete` at the root names the version by `versionName`; under `versions/<guid>` by its path.
    /// `sessionId`, when sent, is the caller's own session, whose locks do not block the delete.
    @Sendable func delete(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        guard let version = (try? context.pathParameter("version")) ?? context.arguments.string("versionName") else {
            throw ServiceError.invalidParameter("versionName is required.")
        }
        let answer = try await core.deleteVersion(service: try context.serviceName(), version: version,
                                                  sessionId: context.arguments.string("sessionId"), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func purgeLock(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        throw ServiceError.notSupported("purgeLock is not supported: locks end with stopReading / stopEditing, or when the server restarts.")
    }

    // MARK: One version

    @Sendable func info(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        try ArcGISResponse.json(try await core.versionInfo(service: try context.serviceName(), version: try version(context), as: context.caller),
                                context: context)
    }

    @Sendable func alter(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        if let owner = a.string("ownerName") {
            throw ServiceError.notSupported("Changing a version's owner (ownerName '\(owner.prefix(40))') is not supported.")
        }
        let answer = try await core.alterVersion(service: try context.serviceName(), version: try version(context), versionName: a.string("versionName"),
                                                 description: a.string("description"), accessPermission: a.string("accessPermission"),
                                                 as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func startReading(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        try ArcGISResponse.json(try await core.startReading(service: try context.serviceName(), version: try version(context),
                                                            sessionId: try session(context), as: context.caller), context: context)
    }

    @Sendable func stopReading(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        try ArcGISResponse.json(try await core.stopReading(service: try context.serviceName(), version: try version(context),
                                                           sessionId: try session(context), as: context.caller), context: context)
    }

    @Sendable func startEditing(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        try ArcGISResponse.json(try await core.startEditing(service: try context.serviceName(), version: try version(context),
                                                            sessionId: try session(context), as: context.caller), context: context)
    }

    @Sendable func stopEditing(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let save = try context.arguments.bool("saveEdits", default: true)
        return try ArcGISResponse.json(try await core.stopEditing(service: try context.serviceName(), version: try version(context),
                                                                  sessionId: try session(context), saveEdits: save, as: context.caller), context: context)
    }

    @Sendable func reconcile(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        var detection = ConflictDetection.byObject
        if let text = a.string("conflictDetection") {
            guard let parsed = ConflictDetection(parameter: text) else {
                throw ServiceError.invalidParameter("conflictDetection must be byObject or byAttribute, not '\(text.prefix(40))'.")
            }
            detection = parsed
        }
        let answer = try await core.reconcile(service: try context.serviceName(), version: try version(context), sessionId: a.string("sessionId"),
                                              abortIfConflicts: try a.bool("abortIfConflicts", default: false), conflictDetection: detection,
                                              withPost: try a.bool("withPost", default: false), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func post(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        if let rows = try context.arguments.json("rows"), !(rows.array?.isEmpty ?? rows.isNull) {
            throw ServiceError.notSupported("Partial post (rows) is not supported: post the whole version.")
        }
        let answer = try await core.post(service: try context.serviceName(), version: try version(context),
                                         sessionId: context.arguments.string("sessionId"), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func differences(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        var resultType = DifferenceResultType.objectIds
        if let text = a.string("resultType") {
            guard let parsed = DifferenceResultType(rawValue: text) ?? (text.lowercased() == "features" ? .features : text.lowercased() == "objectids" ? .objectIds : nil) else {
                throw ServiceError.invalidParameter("resultType must be objectIds or features, not '\(text.prefix(40))'.")
            }
            resultType = parsed
        }
        var layers: [Int]?
        if let json = try a.json("layers") {
            guard let items = json.array else { throw ServiceError.invalidParameter("layers must be a JSON array of layer ids.") }
            layers = try items.map { item in
                guard let id = item.int else { throw ServiceError.invalidParameter("layers must be a JSON array of layer ids.") }
                return id
            }
        }
        let answer = try await core.differences(service: try context.serviceName(), version: try version(context), resultType: resultType,
                                                layers: layers, as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func conflicts(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        try ArcGISResponse.json(try await core.conflicts(service: try context.serviceName(), version: try version(context), as: context.caller),
                                context: context)
    }

    @Sendable func inspectConflicts(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        let selection = try a.string("conflicts").map(ConflictsResponse.parseSelection)
        let answer = try await core.inspectConflicts(service: try context.serviceName(), version: try version(context), objectIds: selection,
                                                     inspected: try a.bool("setInspected", default: true), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    /// `rows`: `[{"layerId": 0, "objectIds": [1, 2]}]`, restored layer by layer.
    @Sendable func restoreRows(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        guard let text = context.arguments.string("rows") else { throw ServiceError.invalidParameter("rows is required.") }
        let selection = try ConflictsResponse.parseSelection(text)
        var last = SuccessResponse.ok
        for (layer, ids) in selection.sorted(by: { $0.key < $1.key }) {
            last = try await core.restoreRows(service: try context.serviceName(), version: try version(context), layer: layer, objectIds: ids,
                                              sessionId: context.arguments.string("sessionId"), as: context.caller)
        }
        return try ArcGISResponse.json(last, context: context)
    }

    @Sendable func deleteForwardEdits(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        guard let moment = try context.arguments.int("moment") else { throw ServiceError.invalidParameter("moment is required (epoch milliseconds).") }
        let answer = try await core.deleteForwardEdits(service: try context.serviceName(), version: try version(context),
                                                       sessionId: try session(context), moment: Int64(moment), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    // MARK: Decoding

    /// The version GUID of the path (braces optional; the core accepts either form).
    private func version(_ context: MapRulesRequestContext) throws -> String { try context.pathParameter("version") }

    private func session(_ context: MapRulesRequestContext) throws -> String {
        guard let id = context.arguments.string("sessionId") else { throw ServiceError.invalidParameter("sessionId is required.") }
        return id
    }
}

/// Answers refusals of version management in its own style: `{"success": false, "error": {...}}`.
struct VersionManagementErrorMiddleware: RouterMiddleware {
    typealias Context = MapRulesRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            return ArcGISResponse.versionManagementError(error)
        }
    }
}
