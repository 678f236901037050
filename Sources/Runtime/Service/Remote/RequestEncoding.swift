import Foundation
import FeatureServiceModel
import WebMap

/// The typed requests of the service core written as the ArcGIS REST parameters that ArcGIS clients send
/// (and that `maprules serve` reads back: Server/Routes/QueryRoutes.swift and EditRoutes.swift).
enum RequestEncoding {
    /// `<layer>/query`: `where` (`1=1` when nothing else filters, as ArcGIS requires one of where,
    /// objectIds, geometry), `objectIds` comma list, `outFields` (`*` by default), geometry as Esri JSON with
    /// `geometryType`, `inSR`, `spatialRel`, paging, ordering, the `return...Only` switches and `gdbVersion`.
    static func query(_ p: QueryParameters) -> FormParameters {
        var form = FormParameters([("f", "json")])
        let hasOtherFilter = !(p.objectIds?.isEmpty ?? true) || p.geometry != nil
        if let clause = p.whereClause?.trimmingCharacters(in: .whitespacesAndNewlines), !clause.isEmpty {
            form["where"] = clause
        } else if !hasOtherFilter {
            form["where"] = "1=1"
        }
        if let ids = p.objectIds, !ids.isEmpty { form["objectIds"] = ids.map(String.init).joined(separator: ",") }
        if let geometry = p.geometry {
            form["geometry"] = geometry.json(spatialReference: p.inSR).text
            form["geometryType"] = geometry.type.rawValue
            if let inSR = p.inSR { form["inSR"] = String(inSR.wkid) }
            form["spatialRel"] = p.spatialRelation.rawValue
        }
        let fields = p.outFields?.filter { !$0.isEmpty } ?? []
        form["outFields"] = fields.isEmpty ? "*" : fields.joined(separator: ",")
        form["returnGeometry"] = p.returnGeometry ? "true" : "false"
        if let outSR = p.outSR { form["outSR"] = String(outSR.wkid) }
        if let order = p.orderByFields, !order.isEmpty { form["orderByFields"] = order }
        if let offset = p.resultOffset { form["resultOffset"] = String(offset) }
        if let count = p.resultRecordCount { form["resultRecordCount"] = String(count) }
        if p.returnCountOnly { form["returnCountOnly"] = "true" }
        if p.returnIdsOnly { form["returnIdsOnly"] = "true" }
        if p.returnExtentOnly { form["returnExtentOnly"] = "true" }
        if let statistics = p.outStatistics, !statistics.isEmpty {
            form["outStatistics"] = JSON.array(statistics.map { s in
                var members: [(String, JSON)] = [("statisticType", .string(s.statisticType.rawValue)), ("onStatisticField", .string(s.onStatisticField))]
                if let name = s.outStatisticFieldName { members.append(("outStatisticFieldName", .string(name))) }
                return .object(members)
            }).text
        }
        if let group = p.groupByFieldsForStatistics, !group.isEmpty { form["groupByFieldsForStatistics"] = group.joined(separator: ",") }
        if let version = p.gdbVersion, !version.isEmpty { form["gdbVersion"] = version }
        return form
    }

    /// Service-level `applyEdits`: `edits` (a JSON array of `{id, adds, updates, deletes, attachments}`),
    /// `useGlobalIds`, `rollbackOnFailure`, `gdbVersion`, `sessionID`, `returnEditMoment`.
    static func applyEdits(_ edits: [LayerEdits], options: EditOptions) -> FormParameters {
        var form = FormParameters([("f", "json"), ("edits", JSON.array(edits.map(layerEdits)).text)])
        form["useGlobalIds"] = options.useGlobalIds ? "true" : "false"
        form["rollbackOnFailure"] = options.rollbackOnFailure ? "true" : "false"
        if let version = options.gdbVersion, !version.isEmpty { form["gdbVersion"] = version }
        if let session = options.sessionID, !session.isEmpty { form["sessionID"] = session }
        if options.returnEditMoment { form["returnEditMoment"] = "true" }
        return form
    }

    /// One entry of `edits`; empty lists are left out, as ArcGIS clients write them.
    static func layerEdits(_ edits: LayerEdits) -> JSON {
        var members: [(String, JSON)] = [("id", .int(edits.id ?? 0))]
        if !edits.adds.isEmpty { members.append(("adds", .array(edits.adds.map(feature)))) }
        if !edits.updates.isEmpty { members.append(("updates", .array(edits.updates.map(feature)))) }
        let deletes = edits.deletes.map { JSON.int(Int($0)) } + edits.deleteGlobalIds.map(JSON.string)
        if !deletes.isEmpty { members.append(("deletes", .array(deletes))) }
        if let attachments = edits.attachments, !(attachments.adds.isEmpty && attachments.updates.isEmpty && attachments.deletes.isEmpty) {
            var parts: [(String, JSON)] = []
            if !attachments.adds.isEmpty { parts.append(("adds", .array(attachments.adds.map(attachment)))) }
            if !attachments.updates.isEmpty { parts.append(("updates", .array(attachments.updates.map(attachment)))) }
            if !attachments.deletes.isEmpty { parts.append(("deletes", .array(attachments.deletes.map(JSON.string)))) }
            members.append(("attachments", .object(parts)))
        }
        return .object(members)
    }

    /// `{"attributes": {...}, "geometry": {..., "spatialReference"}}`.
    static func feature(_ feature: EditFeature) -> JSON {
        var members: [(String, JSON)] = [("attributes", feature.attributes.json)]
        if let geometry = feature.geometry { members.append(("geometry", geometry.json(spatialReference: feature.spatialReference))) }
        return .object(members)
    }

    /// `{"globalId", "parentGlobalId", "name", "contentType", "data": base64, "keywords"}`.
    static func attachment(_ upload: AttachmentUpload) -> JSON {
        var members: [(String, JSON)] = []
        if let id = upload.globalId { members.append(("globalId", .string(id))) }
        if let parent = upload.parentGlobalId { members.append(("parentGlobalId", .string(parent))) }
        members.append(("name", .string(upload.name)))
        members.append(("contentType", .string(upload.contentType)))
        members.append(("data", .string(upload.data.base64EncodedString())))
        if let keywords = upload.keywords { members.append(("keywords", .string(keywords))) }
        return .object(members)
    }

    /// `create`: `versionName` (unqualified), `description`, `accessPermission` (public, protected, private).
    static func createVersion(name: String, access: String?, description: String) -> FormParameters {
        var form = FormParameters([("f", "json"), ("versionName", name), ("description", description)])
        if let access, !access.isEmpty { form["accessPermission"] = accessPermission(access) }
        return form
    }

    /// `public` / `protected` / `private` from either that or `esriVersionAccessPublic`...
    static func accessPermission(_ text: String) -> String {
        let lower = text.lowercased()
        return lower.hasPrefix("esriversionaccess") ? String(lower.dropFirst("esriversionaccess".count)) : lower
    }
}
