import Foundation
import FeatureServiceModel
import WebMap

extension ServiceCore {
    /// `/arcgis/rest/services`: the folders and services of the catalogue.
    public func catalogueInfo() -> JSON {
        .object([
            ("currentVersion", .double(11.1)),
            ("folders", .array([])),
            ("services", .array(serviceNames.flatMap { name -> [JSON] in
                var entries: [JSON] = [.object([("name", .string(name)), ("type", .string("FeatureServer"))])]
                if (try? service(name).isBranchVersioned) == true {
                    entries.append(.object([("name", .string(name)), ("type", .string("VersionManagementServer"))]))
                }
                return entries
            })),
        ])
    }

    /// `<service>/FeatureServer`: the root metadata as stored, with what the core actually does filled in
    /// honestly (`hasVersionedData`, `maxRecordCount`, `supportsApplyEditsWithGlobalIds`; when some layer's
    /// capabilities include Sync, `syncEnabled`, `syncCapabilities` and "Sync" among the root's capabilities:
    /// replicas, docs/service.md. Without one, `syncEnabled` is false and no `syncCapabilities` are claimed).
    public func serviceInfo(service name: String, as caller: Caller) throws -> JSON {
        let service = try self.service(name)
        try AccessPolicy(core: self, service: service, caller: caller).requireQuery()
        var root = service.root
        root.set("hasVersionedData", .bool(service.isBranchVersioned))
        root.set("maxRecordCount", .int(service.maxRecordCount))
        root.set("supportsApplyEditsWithGlobalIds", .bool(true))
        // The formats the query routes answer, whatever the stored metadata claims (samples list PBF, which is
        // not served: f=pbf is a 400).
        root.set("supportedQueryFormats", ServiceCore.supportedQueryFormats)
        // createReplica takes only layers that list Sync (and have a global id).
        let syncs = service.layers.contains { $0.metadata.capabilities.contains("Sync") && $0.globalIdField != nil }
        root.set("syncEnabled", .bool(syncs))
        if syncs {
            root.set("syncCapabilities", ServiceCore.syncCapabilities)
        } else if case .object(let members) = root {
            root = .object(members.filter { $0.0 != "syncCapabilities" })
        }
        if syncs, let capabilities = root["capabilities"]?.string,
           !capabilities.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare("Sync") == .orderedSame }) {
            root.set("capabilities", .string(capabilities.isEmpty ? "Sync" : capabilities + ",Sync"))
        }
        if root["currentVersion"] == nil { root.set("currentVersion", .double(11.1)) }
        if root["layers"] == nil {
            root.set("layers", .array(service.layers.filter { !$0.isTable }.map { .object([("id", .int($0.id)), ("name", .string($0.metadata.name ?? ""))]) }))
        }
        if root["tables"] == nil {
            root.set("tables", .array(service.layers.filter { $0.isTable }.map { .object([("id", .int($0.id)), ("name", .string($0.metadata.name ?? ""))]) }))
        }
        return root
    }

    /// `<service>/FeatureServer/<id>`: the layer or table metadata as stored (capabilities, `editable`,
    /// `nullable` untouched), with the query abilities the core has and `isDataBranchVersioned`.
    public func layerInfo(service name: String, layer id: Int, as caller: Caller) throws -> JSON {
        let service = try self.service(name)
        try AccessPolicy(core: self, service: service, caller: caller).requireQuery()
        let layer = try service.layer(id)
        var json = layer.json
        var advanced = json["advancedQueryCapabilities"] ?? .object([])
        for key in ["supportsPagination", "supportsOrderBy", "supportsStatistics", "supportsReturningQueryExtent", "supportsQueryAttachments",
                    "supportsQueryRelatedPagination", "supportsQueryWithResultType"] {
            advanced.set(key, .bool(true))
        }
        advanced.set("supportsDistinct", .bool(false))
        json.set("advancedQueryCapabilities", advanced)
        json.set("supportedQueryFormats", ServiceCore.supportedQueryFormats)
        json.set("isDataVersioned", .bool(service.isBranchVersioned))
        json.set("isDataBranchVersioned", .bool(service.isBranchVersioned))
        json.set("maxRecordCount", .int(layer.maxRecordCount))
        json.set("supportsApplyEditsWithGlobalIds", .bool(true))
        json.set("supportsRollbackOnFailureParameter", .bool(true))
        if json["currentVersion"] == nil { json.set("currentVersion", .double(11.1)) }
        return json
    }

    /// What `supportedQueryFormats` says on the root and on every layer: the `f` values a query answers in
    /// (`pjson` being JSON indented). No `PBF`: Esri's protocol buffer format is not served.
    static let supportedQueryFormats: JSON = .string("JSON, geoJSON")

    /// `<service>/FeatureServer/layers`: every layer and table.
    public func allLayersInfo(service name: String, as caller: Caller) throws -> JSON {
        let service = try self.service(name)
        let layers = try service.layers.filter { !$0.isTable }.map { try layerInfo(service: name, layer: $0.id, as: caller) }
        let tables = try service.layers.filter { $0.isTable }.map { try layerInfo(service: name, layer: $0.id, as: caller) }
        return .object([("layers", .array(layers)), ("tables", .array(tables))])
    }
}
