import Foundation
import Hummingbird
import Service

/// `<layer>/applyEdits`, `<layer>/addFeatures`, `updateFeatures`, `deleteFeatures` and the
/// service-level `applyEdits`, with the decoding of their parameters.
struct EditRoutes {
    let core: ServiceCore

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        let group = router.group(FeatureServerRoutes.prefix)
        group.getAndPost("applyEdits", use: serviceApplyEdits)
        group.getAndPost(":layer/applyEdits", use: layerApplyEdits)
        group.getAndPost(":layer/addFeatures", use: addFeatures)
        group.getAndPost(":layer/updateFeatures", use: updateFeatures)
        group.getAndPost(":layer/deleteFeatures", use: deleteFeatures)
    }

    @Sendable func layerApplyEdits(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let options = try EditOptions(arguments: context.arguments)
        let layerId = try context.integer("layer")
        let edits = try LayerEdits(arguments: context.arguments, layer: layerId, useGlobalIds: options.useGlobalIds)
        let results = try await core.applyEdits(service: try context.serviceName(), layer: layerId, edits, options: options, as: context.caller)
        return try ArcGISResponse.json(LayerApplyEditsAnswer(results), context: context)
    }

    @Sendable func serviceApplyEdits(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let options = try EditOptions(arguments: context.arguments)
        guard let text = context.arguments.string("edits") else { throw ServiceError.invalidParameter("edits is required.") }
        let edits = try LayerEdits.parseServiceEdits(text, useGlobalIds: options.useGlobalIds)
        let results = try await core.applyEdits(service: try context.serviceName(), edits, options: options, as: context.caller)
        return try ArcGISResponse.json(results, context: context)
    }

    @Sendable func addFeatures(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let options = try EditOptions(arguments: context.arguments)
        guard let text = context.arguments.string("features") else { throw ServiceError.invalidParameter("features is required.") }
        let layerId = try context.integer("layer")
        let results = try await core.applyEdits(service: try context.serviceName(), layer: layerId,
                                                LayerEdits(id: layerId, adds: try EditFeature.parseList(text)), options: options, as: context.caller)
        return try ArcGISResponse.json(["addResults": results.addResults], context: context)
    }

    @Sendable func updateFeatures(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let options = try EditOptions(arguments: context.arguments)
        guard let text = context.arguments.string("features") else { throw ServiceError.invalidParameter("features is required.") }
        let layerId = try context.integer("layer")
        let results = try await core.applyEdits(service: try context.serviceName(), layer: layerId,
                                                LayerEdits(id: layerId, updates: try EditFeature.parseList(text)), options: options, as: context.caller)
        return try ArcGISResponse.json(["updateResults": results.updateResults], context: context)
    }

    /// `deleteFeatures` by `objectIds` and/or `where` (the where is resolved to ids by a query first).
    @Sendable func deleteFeatures(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let options = try EditOptions(arguments: context.arguments)
        let service = try context.serviceName()
        let layerId = try context.integer("layer")
        var ids = try context.arguments.integers("objectIds") ?? []
        if let clause = context.arguments.string("where") {
            let matches = try await core.query(service: service, layer: layerId,
                                               QueryParameters(where: clause, objectIds: ids.isEmpty ? nil : ids, returnIdsOnly: true,
                                                               gdbVersion: options.gdbVersion), as: context.caller)
            ids = matches.objectIds ?? []
        } else if ids.isEmpty {
            throw ServiceError.invalidParameter("deleteFeatures needs objectIds or where.")
        }
        let results = try await core.applyEdits(service: service, layer: layerId, LayerEdits(id: layerId, deletes: ids), options: options, as: context.caller)
        return try ArcGISResponse.json(["deleteResults": results.deleteResults], context: context)
    }
}

/// The layer-level applyEdits answer: the results without the layer id, as ArcGIS writes it.
struct LayerApplyEditsAnswer: Encodable {
    var results: LayerEditResults
    init(_ results: LayerEditResults) { self.results = results }

    enum CodingKeys: String, CodingKey { case addResults, updateResults, deleteResults, attachments, editMoment }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(results.addResults, forKey: .addResults)
        try container.encode(results.updateResults, forKey: .updateResults)
        try container.encode(results.deleteResults, forKey: .deleteResults)
        try container.encodeIfPresent(results.attachments, forKey: .attachments)
        try container.encodeIfPresent(results.editMoment, forKey: .editMoment)
    }
}

extension EditOptions {
    /// `rollbackOnFailure` (default true), `useGlobalIds`, `gdbVersion`, `sessionID`, `returnEditMoment`.
    init(arguments a: RequestArguments) throws {
        self.init(rollbackOnFailure: try a.bool("rollbackOnFailure", default: true),
                  useGlobalIds: try a.bool("useGlobalIds", default: false),
                  gdbVersion: a.string("gdbVersion"),
                  sessionID: a.string("sessionID"),
                  returnEditMoment: try a.bool("returnEditMoment", default: false))
    }
}

extension LayerEdits {
    /// The `adds`, `updates`, `deletes` (a comma list or a JSON array) and `attachments` parameters of
    /// a layer's applyEdits.
    init(arguments a: RequestArguments, layer: Int, useGlobalIds: Bool) throws {
        var members: [(String, JSON)] = [("id", .int(layer))]
        for name in ["adds", "updates", "attachments"] {
            if let value = try a.json(name) { members.append((name, value)) }
        }
        try self.init(json: .object(members), useGlobalIds: useGlobalIds)
        if let text = a.string("deletes") {
            (deletes, deleteGlobalIds) = try LayerEdits.parseDeletes(text, useGlobalIds: useGlobalIds)
        }
    }
}
