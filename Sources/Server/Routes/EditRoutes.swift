import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

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
        let answer = LayerApplyEditsAnswer(results)
        if let document = answer.document { return ArcGISResponse.document(document, context: context) }
        return try ArcGISResponse.json(answer, context: context)
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

    /// The document `OrderedJSONEncoder` makes of this answer, built directly (a batch of adds answers
    /// hundreds of results, and encoding them through `Codable` was a tenth of the request); nil when the
    /// answer has attachment results, which go through the encoder.
    var document: JSON? {
        guard results.attachments == nil else { return nil }
        func list(_ results: [EditResult]) -> JSON { .array(results.map(Self.document)) }
        var members: [(String, JSON)] = [("addResults", list(results.addResults)), ("updateResults", list(results.updateResults)),
                                         ("deleteResults", list(results.deleteResults))]
        if let moment = results.editMoment { members.append(("editMoment", .int(Int(moment)))) }
        return .object(members)
    }

    static func document(_ result: EditResult) -> JSON {
        var members: [(String, JSON)] = []
        members.reserveCapacity(4)
        if let objectId = result.objectId { members.append(("objectId", .int(Int(objectId)))) }
        if let globalId = result.globalId { members.append(("globalId", .string(globalId))) }
        members.append(("success", .bool(result.success)))
        if let error = result.error {
            members.append(("error", .object([("code", .int(error.code)), ("description", .string(error.description))])))
        }
        return .object(members)
    }

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
