import Foundation
import FeatureServiceModel
import WebMap

/// docs/runtime.md `copyFromNewestRelated {layer, relationship, fields, newestBy}`: after a one-to-many related record
/// of a `layer` feature is added, updated or deleted, each of `fields` of the feature takes the value of the
/// same-named field of its related record with the greatest `newestBy` (ties: highest object id; a local add
/// counts as newer than any applied record). The Trees sample:
/// `{layer: Trees, relationship: Inspections, fields: [Condition, DBH], newestBy: Collected_Date}`.
public struct CopyFromNewestRelated: EditBehaviour, Codable, Equatable {
    public var layer: String
    public var relationship: String
    public var fields: [String]
    public var newestBy: String

    public init(layer: String, relationship: String, fields: [String], newestBy: String) {
        self.layer = layer
        self.relationship = relationship
        self.fields = fields
        self.newestBy = newestBy
    }

    public var summary: String { "copyFromNewestRelated: \(layer).\(fields.joined(separator: ", ")) ← the newest \(relationship) record by \(newestBy)" }

    public func afterLocalEdit(_ event: LocalEditEvent, in geodatabase: ServiceGeodatabase) async throws {
        let parents = try await geodatabase.table(named: layer)
        guard let relation = parents.relationship(named: relationship), relation.relatedTableId == event.tableID else { return }
        let keys = try await geodatabase.keys(of: relation, table: parents.info)
        guard let key = (event.previous ?? event.feature)[keys.relatedKey] ?? event.feature[keys.relatedKey], !key.isNull else { return }
        var keyValues = [key]
        if let now = event.feature[keys.relatedKey], !now.isNull, !now.sameValue(as: key), event.kind != .delete { keyValues.append(now) }
        for value in keyValues {
            let owners = try await parents.queryFeatures(FeatureQuery(where: "\(keys.localKey) = \(ServiceGeodatabase.literal(value))"))
            for parent in owners {
                guard let parentId = parent.objectId else { continue }
                let children = try await parents.queryRelatedFeatures(for: parent, relationship: relation)
                guard let newest = children.max(by: isOlder) else { continue }
                try await geodatabase.behaviourUpdate(tableID: parents.id, objectId: parentId,
                                                      attributes: Attributes(fields.map { ($0, newest[$0] ?? .null) }))
            }
        }
    }

    /// Orders by `newestBy` (null oldest), then object id (local adds, negative, newest; among them the later one).
    private func isOlder(_ a: TableFeature, _ b: TableFeature) -> Bool {
        let x = WhereValueOrder(a[newestBy]), y = WhereValueOrder(b[newestBy])
        if x != y { return x < y }
        let p = a.objectId ?? 0, q = b.objectId ?? 0
        if (p < 0) != (q < 0) { return p > 0 }
        return p < 0 ? p > q : p < q
    }
}

/// The shipped behaviours, by the name edit scripts use.
public enum BehaviourConfiguration {
    /// The Trees sample's two behaviours (docs/runtime.md), as an example of registering them.
    public static let treesOfPortland: [any EditBehaviour] = [
        CopyFromContaining(layer: "Trees", field: "Neighborhood", from: "Neighborhoods", sourceField: "NAME"),
        CopyFromNewestRelated(layer: "Trees", relationship: "Inspections", fields: ["Condition", "DBH"], newestBy: "Collected_Date"),
    ]
}
