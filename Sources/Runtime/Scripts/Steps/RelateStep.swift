import Foundation
import FeatureServiceModel
import WebMap

/// `relate: {layer, objectId, relationship, to | add}`: many-to-one, the feature points to the related record
/// `to` (through a pop-up edit session); one-to-many, `add` adds a related record with these attributes and
/// saves its temporary `objectId`.
struct RelateStep: ScriptOperation {
    static let name = "relate"
    /// `layer` and `objectId`.
    let target: FeatureArgument
    /// The relationship's name or id.
    let relationship: String
    /// One-to-many: the new related record's attributes.
    let add: AttributesArgument?
    /// Many-to-one: the related record to point to.
    let relatedRecord: ObjectIdArgument

    init(arguments: JSON) {
        target = FeatureArgument(arguments)
        relationship = arguments["relationship"].map { $0.string ?? $0.int.map(String.init) ?? $0.text } ?? ""
        add = arguments["add"].map { AttributesArgument($0) }
        relatedRecord = ObjectIdArgument(arguments["to"])
    }

    func run(in context: StepContext) async throws -> StepResult {
        let geodatabase = context.geodatabase
        let (table, feature) = try await target.feature(in: geodatabase)
        if let add {
            let record = try await geodatabase.addRelatedRecord(to: feature, relationship: relationship, attributes: try add.values())
            let parent = try await table.feature(objectId: feature.objectId ?? 0)
            return StepResult("added related record \(record.objectId ?? 0) through '\(relationship)'\(StepText.behaviourNote(before: feature, after: parent))",
                              value: .object([("objectId", .int(Int(record.objectId ?? 0)))]))
        }
        let section = try await geodatabase.relatedSection(relationship, of: table.info)
        let related = try await geodatabase.table(layerID: section.relatedTableID)
        let record = try await related.feature(objectId: try relatedRecord.value(of: related))
        let relationship = self.relationship
        _ = try await PopupEditSession(feature: feature, table: table).finishing { session in
            try await session.startEditing()
            try await session.setRelated(record, relationship: relationship)
        }
        return StepResult("feature \(feature.objectId ?? 0) now points to \(related.title) record \(record.objectId ?? 0) through '\(relationship)'")
    }
}
