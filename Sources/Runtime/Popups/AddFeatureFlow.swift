import Foundation
import Rules
import FeatureServiceModel
import WebMap

/// docs/runtime.md "Adding features": the add-feature rules of docs/rules.md (`LayerBehavior.addFeature`, the linter's
/// own), then a pop-up edit session for the new feature.
extension ServiceGeodatabase {
    /// The layers a user can add features to, in the order the app lists them (operational-layer order).
    public func eligibleLayers() async throws -> [FeatureTable] {
        let popups = try await loaded().popups
        return popups.map.addFeatureLayers.compactMap { behavior in
            popups.tables.values.first { $0.behavior === behavior }.map { FeatureTable(info: $0, geodatabase: self) }
        }
    }

    /// Starts adding a feature at `geometry` to `table`: refuses a layer that is not eligible with the first
    /// failed condition (`runtime/not-service-backed`, `runtime/not-a-layer`, `runtime/cannot-add`,
    /// `add-feature/not-point`, `add-feature/popup-disabled`), its message listing every one. Answers the
    /// started pop-up edit session of the new feature; `finish()` adds it.
    public func addFeature(to table: FeatureTable, at geometry: Geometry?, spatialReference: SpatialReference? = nil,
                           attributes: Attributes = Attributes()) async throws -> PopupEditSession {
        let feature = try await newFeature(in: table, at: geometry, spatialReference: spatialReference, attributes: attributes)
        let session = PopupEditSession(feature: feature, table: table)
        try await session.startEditing()
        return session
    }

    /// The same add-feature flow for a form-enabled layer: the new feature in a form edit session (forms.md),
    /// which starts from the layer's template defaults and calculates what the form calculates.
    public func addFeatureThroughForm(to table: FeatureTable, at geometry: Geometry?, spatialReference: SpatialReference? = nil,
                                      attributes: Attributes = Attributes()) async throws -> FormEditSession {
        let feature = try await newFeature(in: table, at: geometry, spatialReference: spatialReference, attributes: attributes)
        return try FormEditSession(feature: feature, table: table)
    }

    /// The add-feature rules (editable version, eligibility, a point), then a new feature not yet added.
    private func newFeature(in table: FeatureTable, at geometry: Geometry?, spatialReference: SpatialReference?,
                            attributes: Attributes) async throws -> TableFeature {
        try await requireEditableVersion("Adding a feature", table: table.info)
        try Self.requireEligible(table.info.behavior, name: table.info.title, reference: table.info.reference)
        if let geometry {
            _ = try checkedGeometry(geometry, spatialReference: spatialReference, table: table.info, operation: "Adding a feature", required: true)
        } else {
            throw RuntimeError(RuntimeError.Identifier.invalidGeometry, "Adding a feature to \(table.title): a point is required.", layer: table.info.reference)
        }
        return await table.createFeature(attributes: attributes, geometry: geometry, spatialReference: spatialReference)
    }

    /// The map layer or table whose title or id is `name` that is not one of the service's (an inline feature
    /// collection, another service's layer): adding to it is refused with the add-feature conditions.
    public func requireEligibleMapLayer(named name: String) async throws {
        guard map != nil else { return }
        let popups = try await loaded().popups
        guard let behavior = popups.map.layers.first(where: { $0.layer.title?.caseInsensitiveCompare(name) == .orderedSame || $0.layer.id == name }) else { return }
        try Self.requireEligible(behavior, name: behavior.layer.displayName, reference: nil)
    }

    static func requireEligible(_ behavior: LayerBehavior, name: String, reference: LayerReference?) throws {
        let eligibility = behavior.addFeature
        guard !eligibility.isEligible else { return }
        let sentence = eligibility.failed.map(\.failureText).joined(separator: "; ")
        let identifier: String
        let failed = Set(eligibility.failed)
        if failed.contains(.serviceBackedFeatureLayer) && !behavior.layer.isServiceBacked || failed.contains(.metadataAvailable) {
            identifier = RuntimeError.Identifier.notServiceBacked
        } else if failed.contains(.serviceBackedFeatureLayer) {
            identifier = RuntimeError.Identifier.notALayer
        } else if failed.contains(.editable) || failed.contains(.canAdd) {
            identifier = RuntimeError.Identifier.cannotAdd
        } else if failed.contains(.pointGeometry) {
            identifier = notPoint
        } else {
            identifier = popupDisabled
        }
        let problems = eligibility.failed.map { RuntimeError(conditionIdentifier($0, behavior), "Adding a feature to \(name): \($0.failureText).", layer: reference) }
        throw RuntimeError(identifier, "Adding a feature to \(name) is refused: \(sentence).", layer: reference, problems: problems.count > 1 ? problems : [])
    }

    /// The add-feature rules' IDs, which refusals carry (runtime.md "Errors": a rule ID where a rule forbids it).
    private static let notPoint = NotPointRule.description.id
    private static let popupDisabled = AddFeaturePopupDisabledRule.description.id

    private static func conditionIdentifier(_ condition: AddFeatureCondition, _ behavior: LayerBehavior) -> String {
        switch condition {
        case .serviceBackedFeatureLayer: return behavior.layer.isServiceBacked ? RuntimeError.Identifier.notALayer : RuntimeError.Identifier.notServiceBacked
        case .metadataAvailable: return RuntimeError.Identifier.notServiceBacked
        case .editable, .canAdd: return RuntimeError.Identifier.cannotAdd
        case .pointGeometry: return notPoint
        case .popupEnabled: return popupDisabled
        }
    }

    // MARK: One-to-many related records

    /// Adds a record related to `parent` through a one-to-many relationship the app uses: refused while the
    /// parent is in a pop-up edit session; the record's values go through a pop-up edit session of the related
    /// table; its key field is set from the parent. Answers the new record (temporary id).
    public func addRelatedRecord(to parent: TableFeature, relationship nameOrId: String, attributes: Attributes) async throws -> TableFeature {
        let table = try await info(parent.tableID)
        let operation = "Adding a related record to feature \(parent.objectId ?? 0) of \(table.title)"
        guard table.behavior.isPopupEnabled else {
            throw RuntimeError(RuntimeError.Identifier.notPopupEnabled, "\(operation): the \(table.kindWord) is not pop-up enabled.", layer: table.reference)
        }
        let section = try await relatedSection(nameOrId, of: table)
        guard section.kind == .oneToMany else {
            throw RuntimeError(RuntimeError.Identifier.relationshipNotFound, "\(operation): '\(nameOrId)' is a many-to-one relationship; relate with `to`.", layer: table.reference)
        }
        let current = try await existingFeature(parent.objectId ?? 0, table: table, operation: operation)
        if featuresBeingEdited.contains(FeatureKey(tableID: table.id, objectId: current.objectId ?? 0)) {
            throw RuntimeError(RuntimeError.Identifier.parentBeingEdited, "\(operation): the feature is being edited in a pop-up; finish or cancel that first.",
                               layer: table.reference, objectId: current.objectId)
        }
        let keys = try await keys(of: section.relationship, table: table)
        let related = FeatureTable(info: keys.related, geodatabase: self)
        guard keys.related.capabilities.canAdd else {
            throw RuntimeError(RuntimeError.Identifier.cannotAdd, "\(operation): \(keys.related.title) cannot add records (capabilities \(keys.related.metadata.capabilities.description)).",
                               layer: keys.related.reference)
        }
        let record = await related.createFeature(attributes: Attributes([(keys.relatedKey, current[keys.localKey] ?? .null)]))
        let session = PopupEditSession(feature: record, table: related)
        try await session.startEditing()
        for (name, value) in attributes { try await session.setValue(value, for: name) }
        return try await session.finish()
    }

    /// Deletes or updates of one-to-many child records check their parent is not being edited.
    func requireParentNotBeingEdited(_ feature: TableFeature, table: TableInfo, operation: String) async throws {
        if let parent = await parentBeingEdited(of: feature, table: table) {
            throw RuntimeError(RuntimeError.Identifier.parentBeingEdited, "\(operation): its parent, feature \(parent.objectId) of \(parent.title), is being edited in a pop-up.",
                               layer: table.reference, objectId: feature.objectId)
        }
    }
}
