import Foundation
import FeatureServiceModel
import WebMap

// Editing features: addFeature, updateAttributes, moveFeature, deleteFeature. Each is a local edit until an
// applyEdits step, refused before anything is sent when a rule, a validation or a capability forbids it.

/// `addFeature: {layer, attributes, geometry}`: the add-feature rules, then a pop-up edit session of the new
/// feature (every value validated); saves its temporary `objectId`.
struct AddFeatureStep: ScriptOperation {
    static let name = "addFeature"
    let layer: LayerArgument
    let geometry: GeometryArgument?
    let attributes: AttributesArgument

    init(arguments: JSON) {
        layer = LayerArgument(arguments["layer"])
        geometry = arguments["geometry"].map { GeometryArgument($0) }
        attributes = AttributesArgument(arguments["attributes"])
    }

    func run(in context: StepContext) async throws -> StepResult {
        let geodatabase = context.geodatabase
        let table: FeatureTable
        do { table = try await layer.table(in: geodatabase) } catch {
            // A layer of the map that the service lacks (an inline feature collection) fails the add-feature conditions.
            if let name = layer.name { try await geodatabase.requireEligibleMapLayer(named: name) }
            throw error
        }
        var shape: Geometry?
        var reference: SpatialReference?
        if let geometry { (shape, reference) = try geometry.value(for: table) }
        let values = try attributes.values()
        let added: TableFeature
        if table.hasForm {
            // A form-enabled layer edits through its form (forms.md): calculated values, visibility, requiredness.
            let session = try await geodatabase.addFeatureThroughForm(to: table, at: shape, spatialReference: reference)
            added = try await session.finishing { session in
                for (field, value) in values { try await session.setValue(value, for: field) }
            }
        } else {
            let session = try await geodatabase.addFeature(to: table, at: shape, spatialReference: reference)
            added = try await session.finishing { session in
                for (field, value) in values { try await session.setValue(value, for: field) }
            }
        }
        return StepResult("added feature \(added.objectId ?? 0) to \(table.title)\(StepText.describe(values, in: added, showAll: true))",
                          value: .object([("objectId", .int(Int(added.objectId ?? 0)))]))
    }
}

/// `updateAttributes: {layer, objectId, attributes}`: through a pop-up edit session, as a user would.
struct UpdateAttributesStep: ScriptOperation {
    static let name = "updateAttributes"
    /// `layer` and `objectId`.
    let target: FeatureArgument
    let attributes: AttributesArgument

    init(arguments: JSON) {
        target = FeatureArgument(arguments)
        attributes = AttributesArgument(arguments["attributes"])
    }

    func run(in context: StepContext) async throws -> StepResult {
        let (table, feature) = try await target.feature(in: context.geodatabase)
        let values = try attributes.values()
        let saved: TableFeature
        if table.hasForm {
            try await context.geodatabase.requireEditableVersion("Editing feature \(feature.objectId ?? 0) of \(table.title)", table: table.info)
            saved = try await FormEditSession(feature: feature, table: table).finishing { session in
                for (name, value) in values { try await session.setValue(value, for: name) }
            }
        } else {
            let session = PopupEditSession(feature: feature, table: table)
            saved = try await session.finishing { session in
                try await session.startEditing()
                for (name, value) in values { try await session.setValue(value, for: name) }
            }
        }
        return StepResult("feature \(saved.objectId ?? 0) of \(table.title): \(StepText.describe(values, in: saved))")
    }
}

/// `moveFeature: {layer, objectId, geometry}`: a local update of the geometry (behaviours may follow it).
struct MoveFeatureStep: ScriptOperation {
    static let name = "moveFeature"
    /// `layer` and `objectId`.
    let target: FeatureArgument
    let geometry: GeometryArgument

    init(arguments: JSON) {
        target = FeatureArgument(arguments)
        geometry = GeometryArgument(arguments["geometry"] ?? .null)
    }

    func run(in context: StepContext) async throws -> StepResult {
        let table = try await target.layer.table(in: context.geodatabase)
        let id = try target.objectId.value(of: table)
        let (shape, reference) = try geometry.value(for: table)
        let feature = try await table.feature(objectId: id)
        try await table.update(TableFeature(tableID: table.id, objectId: feature.objectId, attributes: Attributes(), geometry: shape, spatialReference: reference))
        let moved = try await table.feature(objectId: id)
        return StepResult("moved feature \(moved.objectId ?? id) of \(table.title)\(StepText.behaviourNote(before: feature, after: moved))")
    }
}

/// `deleteFeature: {layer, objectId}`: a local delete, refused as the table refuses it (the pop-up and parent
/// conditions are the runtime's, `FeatureTable.delete`).
struct DeleteFeatureStep: ScriptOperation {
    static let name = "deleteFeature"
    /// `layer` and `objectId`.
    let target: FeatureArgument

    init(arguments: JSON) {
        target = FeatureArgument(arguments)
    }

    func run(in context: StepContext) async throws -> StepResult {
        let (table, feature) = try await target.feature(in: context.geodatabase)
        try await table.delete(feature)
        return StepResult("deleted feature \(feature.objectId ?? 0) of \(table.title) (locally)")
    }
}

/// An edit session a step runs to the end: a pop-up's or a form's.
protocol FinishableEditSession: Actor {
    func finish() async throws -> TableFeature
    func cancel() async
}

extension PopupEditSession: FinishableEditSession {}
extension FormEditSession: FinishableEditSession {}

extension FinishableEditSession {
    /// Runs `edit` on the session and finishes it, answering the saved feature; cancels it when anything fails.
    nonisolated func finishing(_ edit: (Self) async throws -> Void) async throws -> TableFeature {
        do {
            try await edit(self)
            return try await finish()
        } catch {
            await cancel()
            throw error
        }
    }
}
