import Foundation
import Hummingbird
import Service
import WebMap
import FeatureServiceModel

/// `<service>/FeatureServer/createReplica`, `synchronizeReplica`, `unRegisterReplica`, `replicas` and
/// `replicas/<id>` (docs/service.md, "Replicas"), with ArcGIS's parameter names. Answers are synchronous
/// (`async=true` is refused) and JSON, with ArcGIS's `responseType` (`esriReplicaResponseTypeData`, `...Info`
/// for `registerAtGeneration`, `...Edits`, `...NoEdits`). With `transportType=esriTransportTypeUrl` the answer is kept and
/// `{"responseUrl"}` names it under `replicaFiles/<id>.json`, served to whoever may use the replica;
/// `dataFormat=sqlite` (with the url transport) answers a local geodatabase file, `replicaFiles/<id>.geodatabase`.
struct ReplicaRoutes {
    let core: ServiceCore
    let site: SiteInfo
    let files = ReplicaFiles()

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        let group = router.group(FeatureServerRoutes.prefix)
        group.getAndPost("createReplica", use: createReplica)
        group.getAndPost("synchronizeReplica", use: synchronizeReplica)
        group.getAndPost("unRegisterReplica", use: unRegisterReplica)
        group.getAndPost("replicas", use: replicas)
        group.getAndPost("replicas/:replica", use: replica)
        group.getAndPost("replicaFiles/:file", use: replicaFile)
    }

    @Sendable func createReplica(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        try Self.refuseAsync(a)
        let service = try context.serviceName()
        let replicaRequest = try ReplicaRequest(arguments: a)
        let package = try await core.createReplica(service: service, replicaRequest, as: context.caller)
        if replicaRequest.dataFormat == .sqlite && replicaRequest.registerAtGeneration == nil {
            return try await sqliteAnswer(package, service: service, request: request, context: context)
        }
        var document = package.json
        document.set("responseType", .string(replicaRequest.registerAtGeneration == nil ? "esriReplicaResponseTypeData" : "esriReplicaResponseTypeInfo"))
        return try await answer(document, replicaID: package.replicaID, service: service, request: request, context: context)
    }

    @Sendable func synchronizeReplica(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        try Self.refuseAsync(a)
        let service = try context.serviceName()
        let sync = try await core.synchronizeReplica(service: service, try SyncRequest(arguments: a), as: context.caller)
        var document = sync.json
        document.set("responseType", .string(sync.edits.isEmpty && sync.editResults.isEmpty ? "esriReplicaResponseTypeNoEdits" : "esriReplicaResponseTypeEdits"))
        return try await answer(document, replicaID: sync.replicaID, service: service, request: request, context: context)
    }

    @Sendable func unRegisterReplica(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        guard let id = context.arguments.string("replicaID") else { throw ServiceError.invalidParameter("replicaID is required.") }
        try await core.unRegisterReplica(service: try context.serviceName(), replicaID: id, as: context.caller)
        await files.remove(replicaID: id)
        return ArcGISResponse.document(.object([("success", .bool(true))]), context: context)
    }

    @Sendable func replicas(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let list = try await core.replicas(service: try context.serviceName(), as: context.caller)
        return ArcGISResponse.document(.array(list.map(\.json)), context: context)
    }

    @Sendable func replica(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let info = try await core.replica(service: try context.serviceName(), id: try context.pathParameter("replica"), as: context.caller)
        return ArcGISResponse.document(info.json, context: context)
    }

    /// A kept answer (`transportType=esriTransportTypeUrl`), to those who may use its replica.
    @Sendable func replicaFile(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let name = try context.pathParameter("file")
        let service = try context.serviceName()
        if name.hasSuffix(".geodatabase") {
            let id = String(name.dropLast(".geodatabase".count))
            _ = try await core.replica(service: service, id: id, as: context.caller)
            guard let data = await files.geodatabase(replicaID: id) else {
                throw ServiceError(code: 404, message: "Replica file not found.", details: ["No geodatabase of replica '\(id.prefix(60))' is kept."])
            }
            return ArcGISResponse.bytes(data, contentType: "application/vnd.sqlite3")
        }
        let id = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        _ = try await core.replica(service: service, id: id, as: context.caller)
        guard let document = await files.document(replicaID: id) else {
            throw ServiceError(code: 404, message: "Replica file not found.", details: ["No kept answer of replica '\(id.prefix(60))' (each is kept until the replica's next answer)."])
        }
        return ArcGISResponse.document(document, context: context)
    }

    // MARK: Helpers

    /// `dataFormat=sqlite`: the replica's data as a local geodatabase, the one-file SQLite format the runtime's
    /// `OfflineGeodatabase` opens (`maprules edit --service FILE.geodatabase`), kept for download under
    /// `replicaFiles/<id>.geodatabase` (`{"responseUrl"}`; a file cannot be embedded in JSON).
    private func sqliteAnswer(_ package: ReplicaPackage, service: String, request: Request, context: MapRulesRequestContext) async throws -> Response {
        guard context.arguments.string("transportType")?.lowercased() == "esritransporttypeurl" else {
            try? await core.unRegisterReplica(service: service, replicaID: package.replicaID, as: context.caller)
            throw ServiceError.invalidParameter("dataFormat=sqlite needs transportType=esriTransportTypeUrl (a file is downloaded, not embedded in JSON).")
        }
        let root = try core.serviceInfo(service: service, as: context.caller)
        let model = try core.service(service)
        let layers = try model.layers.map { (id: $0.id, metadata: try core.layerInfo(service: service, layer: $0.id, as: context.caller)) }
        let serviceURL = "\(site.baseURL(for: request))/rest/services/\(service)/FeatureServer"
        let user = context.caller.username
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-replica-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("replica.geodatabase").path
        try await ServiceCore.createOfflineGeodatabase(at: path, serviceName: model.name, root: root, layers: layers, package: package) { moment in
            OfflineReplicaState(serviceURL: serviceURL, serviceName: model.name, replicaID: package.replicaID, replicaName: package.replicaName,
                                syncModel: package.syncModel, syncDirection: package.syncDirection, gdbVersion: package.gdbVersion,
                                layers: package.layers.map(\.id), serverGen: package.serverGen, layerServerGens: package.layerServerGens,
                                syncedThrough: moment, createdDate: moment, user: user)
        }
        await files.keep(geodatabase: try Data(contentsOf: URL(fileURLWithPath: path)), replicaID: package.replicaID)
        let bare = package.replicaID.trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
        let url = "\(serviceURL)/replicaFiles/\(bare).geodatabase"
        return ArcGISResponse.document(.object([("responseUrl", .string(url)), ("replicaID", .string(package.replicaID)),
                                                ("replicaName", .string(package.replicaName)), ("serverGen", .int(Int(package.serverGen))),
                                                ("responseType", .string("esriReplicaResponseTypeData"))]), context: context)
    }

    /// The answer itself (`esriTransportTypeEmbedded`, the default) or `{"responseUrl"}` (`esriTransportTypeUrl`).
    private func answer(_ document: JSON, replicaID: String, service: String, request: Request, context: MapRulesRequestContext) async throws -> Response {
        switch context.arguments.string("transportType")?.lowercased() {
        case nil, "esritransporttypeembedded":
            return ArcGISResponse.document(document, context: context)
        case "esritransporttypeurl":
            await files.keep(document, replicaID: replicaID)
            let bare = replicaID.trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
            let url = "\(site.baseURL(for: request))/rest/services/\(service)/FeatureServer/replicaFiles/\(bare).json"
            return ArcGISResponse.document(.object([("responseUrl", .string(url))]), context: context)
        case let other?:
            throw ServiceError.invalidParameter("transportType must be esriTransportTypeEmbedded or esriTransportTypeUrl, not '\(other.prefix(40))'.")
        }
    }

    private static func refuseAsync(_ a: RequestArguments) throws {
        if try a.bool("async", default: false) {
            throw ServiceError.notSupported("async=true is not supported: replicas are created and synchronized synchronously; ask with async=false.")
        }
    }
}

/// The answers kept for `transportType=esriTransportTypeUrl`, by replica id (the newest one of each).
actor ReplicaFiles {
    private var documents: [String: JSON] = [:]

    private static func key(_ replicaID: String) -> String {
        GUIDText.normalize(replicaID) ?? replicaID
    }

    private var geodatabases: [String: Data] = [:]

    func keep(_ document: JSON, replicaID: String) { documents[Self.key(replicaID)] = document }
    func document(replicaID: String) -> JSON? { documents[Self.key(replicaID)] }
    func keep(geodatabase data: Data, replicaID: String) { geodatabases[Self.key(replicaID)] = data }
    func geodatabase(replicaID: String) -> Data? { geodatabases[Self.key(replicaID)] }
    func remove(replicaID: String) {
        documents[Self.key(replicaID)] = nil
        geodatabases[Self.key(replicaID)] = nil
    }
}

extension ReplicaRequest {
    /// createReplica's parameters: `replicaName`, `layers` ("0,1" or a JSON array), `layerQueries`,
    /// `geometry` + `geometryType` + `inSR`, `returnAttachments` (default false, as ArcGIS), `syncModel`,
    /// `syncDirection`, `dataFormat` (json), `gdbVersion`, `registerAtGeneration`.
    init(arguments a: RequestArguments) throws {
        self.init()
        replicaName = a.string("replicaName")
        if let text = a.string("layers") {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") {
                // A JSON array, read whole: `[0,` is malformed, not a list of layer 0.
                guard case .array(let items)? = try? JSON.parse(trimmed) else {
                    throw ServiceError.invalidParameter("layers must be layer ids as \"0,1\" or a JSON array [0,1]; '\(trimmed.prefix(40))' is not valid JSON.")
                }
                layers = try items.map { item in
                    guard let id = item.int ?? item["id"]?.int else { throw ServiceError.invalidParameter("layers must list layer ids; \(item.text.prefix(40)) is not one.") }
                    return id
                }
            } else {
                layers = try trimmed.split(separator: ",", omittingEmptySubsequences: false).map { item in
                    let id = item.trimmingCharacters(in: .whitespaces)
                    guard let value = Int(id) else { throw ServiceError.invalidParameter("layers must list layer ids; '\(id.prefix(40))' is not one.") }
                    return value
                }
            }
        }
        if let text = a.string("layerQueries") { layerQueries = try ReplicaLayerQuery.parseLayerQueries(text) }
        (geometry, inSpatialReference) = try a.geometryArgument()
        returnAttachments = try a.bool("returnAttachments", default: false)
        if let text = a.string("syncModel") { syncModel = try SyncModel(parameter: text) }
        if let text = a.string("syncDirection") { syncDirection = try SyncDirection(parameter: text) }
        if let text = a.string("dataFormat") {
            switch text.lowercased() {
            case "json": dataFormat = .json
            case "sqlite": dataFormat = .sqlite
            default: throw ServiceError.invalidParameter("dataFormat must be json or sqlite, not '\(text.prefix(40))'.")
            }
        }
        gdbVersion = a.string("gdbVersion")
        if let text = a.string("registerAtGeneration") {
            guard let gen = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                throw ServiceError.invalidParameter("registerAtGeneration must be a generation (epoch ms), not '\(text.prefix(40))'.")
            }
            registerAtGeneration = gen
        }
    }
}

extension SyncRequest {
    /// synchronizeReplica's parameters: `replicaID`, `replicaServerGen`, `syncLayers`, `syncDirection`,
    /// `edits`, `rollbackOnFailure` (default true), `closeReplica`.
    init(arguments a: RequestArguments) throws {
        guard let id = a.string("replicaID") else { throw ServiceError.invalidParameter("replicaID is required.") }
        self.init(replicaID: id)
        if let text = a.string("replicaServerGen") {
            // A number (some clients send 1.7e12), within Int64: Int64(1e300) would trap and stop the server.
            guard let gen = Double(text.trimmingCharacters(in: .whitespaces)), gen.isFinite, abs(gen) < 9.2e18 else {
                throw ServiceError.invalidParameter("replicaServerGen must be a generation (a whole number), not '\(text.prefix(40))'.")
            }
            replicaServerGen = Int64(gen)
        }
        if let text = a.string("syncLayers"), text.trimmingCharacters(in: .whitespaces) != "*" { syncLayers = try LayerServerGen.parseList(text) }
        if let text = a.string("syncDirection") { syncDirection = try SyncDirection(parameter: text) }
        if let text = a.string("edits") { edits = try ReplicaLayerEdits.parseList(text) }
        rollbackOnFailure = try a.bool("rollbackOnFailure", default: true)
        closeReplica = try a.bool("closeReplica", default: false)
    }
}
