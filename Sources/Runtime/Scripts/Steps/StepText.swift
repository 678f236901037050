import Foundation
import FeatureServiceModel
import WebMap

/// How steps describe what they did: the text line's words and the JSON of saved results.
enum StepText {
    /// "1 feature", "3 features".
    static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// "private" for "esriVersionAccessPrivate".
    static func accessWord(_ access: String) -> String {
        access.replacingOccurrences(of: "esriVersionAccess", with: "").lowercased()
    }

    /// A feature as a query step saves it: attributes by field name, and `geometry`.
    static func featureJSON(_ feature: TableFeature) -> JSON {
        var members = feature.attributes.json.objectMembers ?? []
        members.append(("geometry", feature.geometry.map { $0.json(spatialReference: feature.spatialReference) } ?? .null))
        return .object(members)
    }

    /// " (object ids 1, 2, 3)", the first eight.
    static func idList(_ features: [TableFeature]) -> String {
        guard !features.isEmpty else { return "" }
        let ids = features.prefix(8).map { String($0.objectId ?? 0) }.joined(separator: ", ")
        return " (object ids \(ids)\(features.count > 8 ? ", …" : ""))"
    }

    /// "Notes = 'x', DBH = 3.5": the given fields as the feature now has them (in parentheses with `showAll`).
    static func describe(_ values: Attributes, in feature: TableFeature, showAll: Bool = false) -> String {
        let given = values.map { "\($0.name) = \(ScriptValues.show(feature[$0.name] ?? .null))" }
        return given.isEmpty ? "" : (showAll ? " (" + given.joined(separator: ", ") + ")" : given.joined(separator: ", "))
    }

    /// "; behaviours set Condition = Good, DBH = 12.5" when values changed beyond the step's own.
    static func behaviourNote(before: TableFeature, after: TableFeature) -> String {
        let changed = after.attributes.filter { entry in !(before[entry.name] ?? .null).sameValue(as: entry.value) }
        guard !changed.isEmpty else { return "" }
        return "; behaviours set " + changed.map { "\($0.name) = \(ScriptValues.show($0.value))" }.joined(separator: ", ")
    }

    /// "applied: Trees 1 add (-1 → 25), 2 updates; Inspections 1 add (-2 → 40)".
    static func describe(_ results: [TableEditResults]) -> String {
        guard !results.isEmpty else { return "nothing to apply" }
        func idPairs(_ items: [FeatureEditResult]) -> String {
            " (" + items.map { "\($0.localObjectId ?? 0) → \($0.objectId ?? 0)" }.joined(separator: ", ") + ")"
        }
        return "applied: " + results.map { r in
            var parts: [String] = []
            if !r.adds.isEmpty { parts.append(counted(r.adds.count, "add") + idPairs(r.adds)) }
            if !r.updates.isEmpty { parts.append(counted(r.updates.count, "update")) }
            if !r.deletes.isEmpty { parts.append(counted(r.deletes.count, "delete")) }
            if !r.attachmentAdds.isEmpty { parts.append(counted(r.attachmentAdds.count, "attachment add") + idPairs(r.attachmentAdds)) }
            if !r.attachmentDeletes.isEmpty { parts.append(counted(r.attachmentDeletes.count, "attachment delete")) }
            return "\(r.tableName) " + parts.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    /// One table's apply results as an applyEdits step saves them.
    static func resultsJSON(_ r: TableEditResults) -> JSON {
        func list(_ items: [FeatureEditResult]) -> JSON {
            .array(items.map { item in
                .object([("localObjectId", item.localObjectId.map { .int(Int($0)) } ?? .null), ("objectId", item.objectId.map { .int(Int($0)) } ?? .null),
                         ("globalId", item.globalId.map(JSON.string) ?? .null), ("success", .bool(item.success))])
            })
        }
        return .object([("id", .int(r.tableID)), ("name", .string(r.tableName)), ("adds", list(r.adds)), ("updates", list(r.updates)),
                        ("deletes", list(r.deletes)), ("attachmentAdds", list(r.attachmentAdds)), ("attachmentDeletes", list(r.attachmentDeletes))])
    }

    /// The content type of an attachment file, by its extension.
    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "pdf": return "application/pdf"
        case "txt": return "text/plain"
        case "json": return "application/json"
        default: return "application/octet-stream"
        }
    }
}
