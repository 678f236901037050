import WebMap

/// `offline/relationship-key-not-global-id`: a relationship of a synced layer keyed on its object id field.
public enum OfflineRelationshipKeyNotGlobalIdRule: OfflineLayerRule {
    public static let description = RuleDescription(
        id: "offline/relationship-key-not-global-id",
        severity: .warning,
        summary: "A relationship of a synced layer is keyed on its object id field.",
        rationale: """
            Records added offline get temporary object ids; the service assigns new ones when they are \
            uploaded. A related record that points at its parent's object id then points at nothing (or at \
            another feature): inspections collected offline lose their tree. Global ids do not change on sync.
            """,
        fix: "Key the relationship class on the parent's GlobalID (and a GUID field in the related table).",
        triggeringExamples: [
            .document(OfflineExamples.map(), services: OfflineExamples.snapshot(OfflineExamples.trees(extra: relationship(key: "OBJECTID")))),
        ],
        nonTriggeringExamples: [
            .document(OfflineExamples.map(), services: OfflineExamples.snapshot(OfflineExamples.trees(extra: relationship(key: "GlobalID")))),
            .document(OfflineExamples.map(offline: nil), services: OfflineExamples.snapshot(OfflineExamples.trees(extra: relationship(key: "OBJECTID")))),
        ])

    static func relationship(key: String) -> String {
        #""relationships": [{"id": 0, "name": "Inspections", "relatedTableId": 1, "cardinality": "esriRelCardinalityOneToMany", "role": "esriRelRoleOrigin", "keyField": "\#(key)", "composite": false}]"#
    }

    public static func problems(of layer: OfflineLayer) -> [OfflineProblem] {
        guard layer.isToBeSynced else { return [] }
        let objectIdField = layer.table.objectIdField ?? layer.table.fields.first { $0.type == .oid }?.name
        guard let objectIdField else { return [] }
        return layer.table.relationships.compactMap { relationship in
            guard let key = relationship.keyField, key.equalsIgnoringCase(objectIdField) else { return nil }
            let name = relationship.name.map { "'\($0)'" } ?? "with id \(relationship.id.map(String.init) ?? "?")"
            return problem(
                "Relationship \(name) of the \(layer.kind) \(layer.displayName) is keyed on its object id field '\(key)': object "
                + "ids change when records added offline are uploaded, so related records lose their parent. Key it on the global id.",
                reason: "relationship \(name) is keyed on the object id")
        }
    }
}
