import Foundation
import Rules
import FeatureServiceModel
import WebMap

/// Local edits: checked at once (version policy, capabilities, fields, values, geometry) and kept here until
/// applied. Nothing is sent to the service.
extension ServiceGeodatabase {
    /// A new feature of `table` with the fields' default values (and the first template's), not in the table.
    func createFeature(in table: TableInfo, attributes: Attributes, geometry: Geometry?, spatialReference: SpatialReference?) -> TableFeature {
        var values = Attributes()
        let template = table.json["templates"]?.array?.first?["prototype"]?["attributes"]
            ?? table.json["types"]?.array?.first?["templates"]?.array?.first?["prototype"]?["attributes"]
        for field in table.metadata.fields where field.type != .geometry {
            if let value = template?[field.name], !value.isNull {
                values[field.name] = AttributeValue(value)
            } else if let node = field.defaultValue {
                values[field.name] = AttributeValue(JSON(node))
            }
        }
        for (name, value) in attributes { values[table.field(name)?.name ?? name] = value }
        return TableFeature(tableID: table.id, objectId: nil, attributes: values, geometry: geometry, spatialReference: spatialReference ?? table.spatialReference)
    }

    /// Adds `feature` to its table as a local edit; answers it with its temporary (negative) object id.
    func add(_ feature: TableFeature) async throws -> TableFeature {
        let table = try await info(feature.tableID)
        let operation = "Adding a feature"
        try await requireEditableVersion(operation, table: table)
        guard table.capabilities.canAdd else {
            throw RuntimeError(RuntimeError.Identifier.cannotAdd, "\(operation) to \(table.title): its capabilities (\(table.metadata.capabilities.description)) do not allow adding.", layer: table.reference)
        }
        var added = feature
        added.geometry = try checkedGeometry(feature.geometry, spatialReference: feature.spatialReference, table: table, operation: operation, required: true)
        added.spatialReference = table.isTable ? nil : table.spatialReference
        added.attributes = try checkedAttributes(feature.attributes, over: nil, table: table, operation: operation, objectId: nil)
        let id = nextTemporaryId
        nextTemporaryId -= 1
        added.objectId = id
        added.attributes[table.objectIdField] = .int(id)
        if let global = table.globalIdField, (added.attributes[global]?.string).flatMap(GUIDText.normalize) == nil {
            added.attributes[global] = .string(GUIDText.make())
        }
        let before = editsToRestore
        edits[table.id, default: TableEdits()].add(added)
        try await runBehavioursOrRestore(LocalEditEvent(kind: .add, table: table.id, feature: added, previous: nil), before)
        return currentState(of: added)
    }

    /// Records `feature`'s attributes and geometry as a local update.
    func update(_ feature: TableFeature) async throws {
        let table = try await info(feature.tableID)
        let operation = "Updating feature \(feature.objectId.map(String.init) ?? "(not added)")"
        try await requireEditableVersion(operation, table: table)
        guard let givenId = feature.objectId else {
            throw RuntimeError(RuntimeError.Identifier.featureNotFound, "\(operation) of \(table.title): the feature was never added to the table; add it first.", layer: table.reference)
        }
        let current = try await existingFeature(givenId, table: table, operation: operation)
        let objectId = current.objectId ?? givenId
        if objectId > 0 { try requireCapability(.update, table: table, operation: operation) }
        if objectId > 0 { try await requireOwnership(of: current, table: table, update: true, operation: operation) }
        var updated = current
        updated.attributes = try checkedAttributes(feature.attributes, over: current.attributes, table: table, operation: operation, objectId: objectId)
        let moved = feature.geometry != nil && !sameGeometry(feature, current, table: table)
        if moved {
            updated.geometry = try checkedGeometry(feature.geometry, spatialReference: feature.spatialReference, table: table, operation: operation, required: true)
            if table.json["allowGeometryUpdates"]?.bool == false {
                throw RuntimeError(RuntimeError.Identifier.cannotUpdate, "\(operation) of \(table.title): the layer does not allow geometry updates (allowGeometryUpdates false).",
                                   layer: table.reference, objectId: objectId)
            }
        }
        let before = editsToRestore
        edits[table.id, default: TableEdits()].update(updated)
        try await runBehavioursOrRestore(LocalEditEvent(kind: .update, table: table.id, feature: updated, previous: current, geometryChanged: moved), before)
    }

    /// Records a local delete of the feature with `objectId`, refused as the app's Delete is (`requireDeletable`).
    func delete(objectId: Int64, tableID: Int) async throws {
        let table = try await info(tableID)
        let operation = "Deleting feature \(objectId)"
        try await requireEditableVersion(operation, table: table)
        let current = try await existingFeature(objectId, table: table, operation: operation)
        try await requireDeletable(current, table: table, operation: operation)
        let objectId = current.objectId ?? objectId
        if objectId > 0 { try requireCapability(.delete, table: table, operation: operation) }
        if objectId > 0 { try await requireOwnership(of: current, table: table, update: false, operation: operation) }
        let before = editsToRestore
        edits[table.id, default: TableEdits()].delete(current)
        try await runBehavioursOrRestore(LocalEditEvent(kind: .delete, table: table.id, feature: current, previous: current), before)
    }

    /// The local edits to put back if the behaviours fail after a user's edit; nil when no behaviour will run (none
    /// registered, or this is a behaviour's own edit), as then nothing can fail after the edit. Not keeping a copy
    /// then matters: while a copy is held, the edit's write copies its table's whole collections of local edits
    /// (copy on write), which made every edit O(n) in the edits pending, n edits O(n²).
    private var editsToRestore: [Int: TableEdits]? { behaviourDepth == 0 && !behaviours.isEmpty ? edits : nil }

    /// Runs the behaviours after a user's edit; when one fails, the edit and the behaviours' changes are undone.
    private func runBehavioursOrRestore(_ event: LocalEditEvent, _ before: [Int: TableEdits]?) async throws {
        do { try await runBehaviours(event) } catch {
            if behaviourDepth == 0, let before { edits = before }
            throw error
        }
    }

    // MARK: Checks

    enum Capability { case add, update, delete }

    func requireCapability(_ capability: Capability, table: TableInfo, operation: String) throws {
        let caps = table.capabilities
        let (allowed, identifier, verb): (Bool, String, String) = switch capability {
        case .add: (caps.canAdd, RuntimeError.Identifier.cannotAdd, "adding")
        case .update: (caps.canUpdate, RuntimeError.Identifier.cannotUpdate, "updating")
        case .delete: (caps.canDelete, RuntimeError.Identifier.cannotDelete, "deleting")
        }
        guard allowed else {
            throw RuntimeError(identifier, "\(operation) of \(table.title): its capabilities (\(table.metadata.capabilities.description)) do not allow \(verb).", layer: table.reference)
        }
    }

    /// runtime.md's conditions of the app's Delete, beyond capabilities: the layer or table is pop-up enabled
    /// (`runtime/not-popup-enabled`) and, for a one-to-many child record, its parent is not in a pop-up edit session
    /// (`runtime/parent-being-edited`). A behaviour's own edits skip them, as they skip the pop-up's other conditions.
    func requireDeletable(_ feature: TableFeature, table: TableInfo, operation: String) async throws {
        guard behaviourDepth == 0 else { return }
        guard table.behavior.isPopupEnabled else {
            throw RuntimeError(RuntimeError.Identifier.notPopupEnabled, "\(operation) of \(table.title): the \(table.kindWord) is not pop-up enabled.",
                               layer: table.reference, objectId: feature.objectId)
        }
        try await requireParentNotBeingEdited(feature, table: table, operation: operation)
    }

    /// Ownership-based access control: others' features only when the layer allows it.
    func requireOwnership(of feature: TableFeature, table: TableInfo, update: Bool, operation: String) async throws {
        guard let rules = table.ownership, !(update ? rules.allowOthersToUpdate : rules.allowOthersToDelete),
              let creatorField = table.metadata.editFieldsInfo?.creatorField,
              let creator = feature.attributes[creatorField]?.string, let user = await service.userName(),
              creator.caseInsensitiveCompare(user) != .orderedSame else { return }
        throw RuntimeError(update ? RuntimeError.Identifier.cannotUpdate : RuntimeError.Identifier.cannotDelete,
                           "\(operation) of \(table.title): the feature belongs to '\(creator)' and the layer lets only its creator \(update ? "update" : "delete") it.",
                           layer: table.reference, objectId: feature.objectId)
    }

    /// The feature as the current version and the local edits have it, or `runtime/feature-not-found`.
    func existingFeature(_ objectId: Int64, table: TableInfo, operation: String) async throws -> TableFeature {
        let objectId = resolvedObjectId(objectId, tableID: table.id)
        switch edits[table.id]?.state(of: objectId) {
        case .changed(let feature)?: return feature
        case .deleted?:
            throw RuntimeError(RuntimeError.Identifier.featureNotFound, "\(operation) of \(table.title): feature \(objectId) was deleted or discarded locally.",
                               layer: table.reference, objectId: objectId)
        case nil:
            if objectId <= 0 {
                throw RuntimeError(RuntimeError.Identifier.featureNotFound, "\(operation) of \(table.title): there is no local add with temporary id \(objectId).",
                                   layer: table.reference, objectId: objectId)
            }
        }
        let found = try await serviceFeatures(table: table, QueryParameters(objectIds: [objectId], outFields: ["*"], returnGeometry: true))
        guard let feature = found.first else {
            throw RuntimeError(RuntimeError.Identifier.featureNotFound, "\(operation) of \(table.title): feature \(objectId) does not exist in the version '\(currentVersion ?? "default")'.",
                               layer: table.reference, objectId: objectId)
        }
        return feature
    }

    /// A local feature as its table now has it (after behaviours changed it).
    func currentState(of feature: TableFeature) -> TableFeature {
        guard let id = feature.objectId, case .changed(let now)? = edits[feature.tableID]?.state(of: id) else { return feature }
        return now
    }

    /// The attributes to store: `input` over `base` (the defaults for an add), each value converted and checked.
    /// Unknown fields, read-only fields and invalid values are reported together.
    func checkedAttributes(_ input: Attributes, over base: Attributes?, table: TableInfo, operation: String, objectId: Int64?) throws -> Attributes {
        var result = base ?? Attributes()
        var problems: [RuntimeError] = []
        for (name, value) in input {
            guard let field = table.field(name) else {
                let known = table.metadata.fields.map(\.name)
                let hint = known.first { $0.caseInsensitiveCompare(name) == .orderedSame } ?? Suggestions.closest(to: name, in: known)
                problems.append(RuntimeError(RuntimeError.Identifier.unknownField,
                                             "\(operation) of \(table.title): the table has no field '\(name)'.\(hint.map { " Did you mean '\($0)'?" } ?? "")",
                                             layer: table.reference, objectId: objectId, field: name))
                continue
            }
            if table.metadata.isSystemMaintained(field) || field.type == .geometry { continue }
            let current = result[field.name] ?? .null
            if !field.editable {
                if value.sameValue(as: current) || (base == nil && value.isNull) { continue }
                problems.append(RuntimeError(RuntimeError.Identifier.fieldNotEditable,
                                             "\(operation) of \(table.title): field \(field.displayName) is read-only in the service.",
                                             layer: table.reference, objectId: objectId, field: field.name))
                continue
            }
            switch FieldValueValidator.convert(value, for: field, table: table) {
            case .success(let converted): result[field.name] = converted
            case .failure(var problem):
                problem.objectId = objectId
                problems.append(problem)
            }
        }
        if base == nil {
            for field in table.metadata.fields where !field.nullable && field.editable && !table.metadata.isSystemMaintained(field) && field.type != .geometry
                && (result[field.name] ?? .null).isNull && !problems.contains(where: { $0.field == field.name }) {
                problems.append(RuntimeError(FieldValueValidator.Code.nullNotAllowed.rawValue,
                                             "\(operation) of \(table.title): field \(field.displayName) needs a value (it is not nullable).",
                                             layer: table.reference, objectId: objectId, field: field.name))
            }
        }
        if !problems.isEmpty { throw RuntimeError.combining(problems, operation: "\(operation) of \(table.title)") }
        return result
    }

    /// The geometry in the table's spatial reference, or `runtime/invalid-geometry`.
    func checkedGeometry(_ geometry: Geometry?, spatialReference: SpatialReference?, table: TableInfo, operation: String, required: Bool) throws -> Geometry? {
        if table.isTable {
            guard geometry == nil else {
                throw RuntimeError(RuntimeError.Identifier.invalidGeometry, "\(operation) of \(table.title): a table's records have no geometry.", layer: table.reference)
            }
            return nil
        }
        guard let geometry else {
            if !required { return nil }
            throw RuntimeError(RuntimeError.Identifier.invalidGeometry, "\(operation) of \(table.title): a \(table.metadata.geometryType?.shortName ?? "") geometry is required.", layer: table.reference)
        }
        guard table.accepts(geometry) else {
            throw RuntimeError(RuntimeError.Identifier.invalidGeometry,
                               "\(operation) of \(table.title): a \(geometry.type.shortName) cannot be stored in a \(table.metadata.geometryType?.shortName ?? "geometry-less") layer.",
                               layer: table.reference)
        }
        guard geometry.vertices.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), !geometry.vertices.isEmpty else {
            throw RuntimeError(RuntimeError.Identifier.invalidGeometry, "\(operation) of \(table.title): the geometry has no or non-finite coordinates.", layer: table.reference)
        }
        let projected = try Self.project(geometry, from: spatialReference, to: table.spatialReference, table: table, operation: operation)
        guard projected.vertices.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw RuntimeError(RuntimeError.Identifier.invalidGeometry,
                               "\(operation) of \(table.title): the coordinates are too large for the layer's spatial reference \(table.spatialReference.wkid).",
                               layer: table.reference)
        }
        return projected
    }

    static func project(_ geometry: Geometry, from source: SpatialReference?, to target: SpatialReference, table: TableInfo, operation: String) throws -> Geometry {
        guard let source, source != target else { return geometry }
        guard let from = source.normalized, let to = target.normalized else {
            if source.wkid == target.wkid { return geometry }
            throw RuntimeError(RuntimeError.Identifier.invalidGeometry,
                               "\(operation) of \(table.title): spatial reference \(source.wkid) cannot be projected to the layer's \(target.wkid) (use 4326 or 3857).",
                               layer: table.reference)
        }
        return Projection.project(geometry, from: from, to: to)
    }

    /// True when `a`'s geometry, in the table's spatial reference, is `b`'s (stored features are in the table's).
    private func sameGeometry(_ a: TableFeature, _ b: TableFeature, table: TableInfo) -> Bool {
        guard let g = a.geometry else { return true }
        let projected = try? Self.project(g, from: a.spatialReference, to: table.spatialReference, table: table, operation: "Comparing geometries")
        return projected != nil && projected == b.geometry
    }
}
