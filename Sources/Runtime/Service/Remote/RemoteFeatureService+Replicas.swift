import Foundation
import FeatureServiceModel
import WebMap

/// The replica operations over HTTP, with ArcGIS's parameter names (createReplica, synchronizeReplica,
/// unRegisterReplica, replicas); answers are read by the service's own JSON readers of those shapes.
extension RemoteFeatureService {
    public func createReplica(_ request: ReplicaRequest) async throws -> ReplicaPackage {
        try await document("createReplica", url: "\(url)/createReplica", ReplicaRequestEncoding.createReplica(request), kind: .write) { answer in
            do { return try ReplicaPackage(json: answer) } catch { throw AnswerDecoding.malformed("a createReplica answer (\(error))", answer) }
        }
    }

    public func synchronizeReplica(_ request: SyncRequest) async throws -> SyncAnswer {
        // A sync that uploads is not repeated by the transport (a lost answer is retried by the caller, with care).
        try await document("synchronizeReplica", url: "\(url)/synchronizeReplica", ReplicaRequestEncoding.synchronizeReplica(request), kind: .write) { answer in
            do { return try SyncAnswer(json: answer) } catch { throw AnswerDecoding.malformed("a synchronizeReplica answer (\(error))", answer) }
        }
    }

    public func unRegisterReplica(id: String) async throws {
        _ = try await document("unRegisterReplica", url: "\(url)/unRegisterReplica", FormParameters([("f", "json"), ("replicaID", id)]), kind: .write)
    }

    public func replicas() async throws -> [ReplicaInfo] {
        try await document("replicas", url: "\(url)/replicas", FormParameters([("f", "json")]), kind: .read) { answer in
            guard let items = answer.array ?? answer["replicas"]?.array else { throw AnswerDecoding.malformed("a replicas list", answer) }
            return try items.map { item in
                do { return try ReplicaInfo(json: item) } catch { throw AnswerDecoding.malformed("a replica (\(error))", item) }
            }
        }
    }
}

/// The form parameters of the replica operations.
enum ReplicaRequestEncoding {
    static func createReplica(_ request: ReplicaRequest) -> FormParameters {
        var form = FormParameters([("f", "json"), ("dataFormat", request.dataFormat.rawValue), ("transportType", "esriTransportTypeEmbedded"),
                                   ("async", "false"), ("syncModel", request.syncModel.rawValue), ("syncDirection", request.syncDirection.rawValue),
                                   ("returnAttachments", request.returnAttachments ? "true" : "false")])
        form["replicaName"] = request.replicaName
        if !request.layers.isEmpty { form["layers"] = request.layers.map(String.init).joined(separator: ",") }
        if !request.layerQueries.isEmpty {
            form["layerQueries"] = JSON.object(request.layerQueries.sorted { $0.key < $1.key }.map { (String($0.key), $0.value.json) }).text
        }
        if let geometry = request.geometry {
            form["geometry"] = geometry.json(spatialReference: request.inSpatialReference).text
            form["geometryType"] = geometry.type.rawValue
            form["inSR"] = request.inSpatialReference.map { String($0.wkid) }
        }
        if let version = request.gdbVersion, !version.isEmpty { form["gdbVersion"] = version }
        if let generation = request.registerAtGeneration { form["registerAtGeneration"] = String(generation) }
        return form
    }

    static func synchronizeReplica(_ request: SyncRequest) -> FormParameters {
        var form = FormParameters([("f", "json"), ("replicaID", request.replicaID), ("syncDirection", request.syncDirection.rawValue),
                                   ("rollbackOnFailure", request.rollbackOnFailure ? "true" : "false"), ("transportType", "esriTransportTypeEmbedded"),
                                   ("async", "false"), ("dataFormat", "json"), ("closeReplica", request.closeReplica ? "true" : "false")])
        form["replicaServerGen"] = request.replicaServerGen.map(String.init)
        if let layers = request.syncLayers { form["syncLayers"] = JSON.array(layers.map(\.json)).text }
        if !request.edits.isEmpty { form["edits"] = JSON.array(request.edits.map(\.json)).text }
        return form
    }
}
