import Foundation
import Rules
import FeatureServiceModel
import WebMap

/// A layer or table of a `ServiceGeodatabase` (docs/runtime.md "Feature tables and features"): its metadata, what
/// a user may do with it, queries that show the local edits, and local adds, updates and deletes.
///
/// A light handle: the metadata is immutable and every edit goes through the geodatabase, which keeps the
/// local edits of all its tables (so that one apply sends them all).
public final class FeatureTable: Sendable {
    let info: TableInfo
    public let geodatabase: ServiceGeodatabase

    init(info: TableInfo, geodatabase: ServiceGeodatabase) {
        self.info = info
        self.geodatabase = geodatabase
    }

    // MARK: Metadata

    public var id: Int { info.id }
    public var name: String { info.name }
    public var isTable: Bool { info.isTable }
    /// The feature table's metadata (with the web map's `layerDefinition` overrides).
    public var metadata: LayerMetadata { info.metadata }
    public var fields: [FieldDefinition] { info.metadata.fields }
    public var geometryType: GeometryType? { info.isTable ? nil : info.metadata.geometryType }
    public var capabilities: EditCapabilities { info.capabilities }
    public var relationships: [Relationship] { info.metadata.relationships }
    public var hasAttachments: Bool { info.metadata.hasAttachments }
    public var objectIdField: String { info.objectIdField }
    public var globalIdField: String? { info.globalIdField }
    public var spatialReference: SpatialReference { info.spatialReference }
    /// The pop-up and the rule catalogue's facts about it (from the web map, or the default pop-up).
    public var popup: LayerBehavior { info.behavior }
    /// True when the layer or table has a form with elements: edits go through a `FormEditSession`.
    public var hasForm: Bool { info.behavior.form?.isEnabled == true }
    /// "layer 'Trees' (id 0)".
    public var title: String { info.title }

    /// True when the table's capabilities allow adding.
    public var canAdd: Bool { info.capabilities.canAdd }

    /// True when the feature may be updated: capabilities, the current version's policy, ownership.
    public func canUpdate(_ feature: TableFeature) async -> Bool { await permits(.update, feature) }
    /// True when the feature may be deleted: capabilities, the current version's policy, ownership, and the app's
    /// conditions (pop-up enabled, no parent in a pop-up edit session).
    public func canDelete(_ feature: TableFeature) async -> Bool { await permits(.delete, feature) }

    private func permits(_ capability: ServiceGeodatabase.Capability, _ feature: TableFeature) async -> Bool {
        do {
            try await geodatabase.requireEditableVersion("Editing", table: info)
            if capability == .delete { try await geodatabase.requireDeletable(feature, table: info, operation: "Deleting") }
            guard (feature.objectId ?? 0) > 0 else { return true }
            try await geodatabase.requireCapability(capability, table: info, operation: "Editing")
            try await geodatabase.requireOwnership(of: feature, table: info, update: capability == .update, operation: "Editing")
            return true
        } catch {
            return false
        }
    }

    // MARK: Features

    /// A new feature with the fields' default values and the given ones; not in the table until `add`.
    public func createFeature(attributes: Attributes = Attributes(), geometry: Geometry? = nil, spatialReference: SpatialReference? = nil) async -> TableFeature {
        await geodatabase.createFeature(in: info, attributes: attributes, geometry: geometry, spatialReference: spatialReference)
    }

    /// Adds the feature as a local edit; answers it with its temporary (negative) object id.
    @discardableResult
    public func add(_ feature: TableFeature) async throws -> TableFeature {
        var feature = feature
        if feature.tableID != id { feature = TableFeature(tableID: id, objectId: nil, attributes: feature.attributes, geometry: feature.geometry, spatialReference: feature.spatialReference) }
        return try await geodatabase.add(feature)
    }

    /// Records the feature's attributes and geometry as a local update.
    public func update(_ feature: TableFeature) async throws { try await geodatabase.update(feature) }

    /// Records a local delete. Refused as the app's Delete is: `runtime/not-popup-enabled` when the layer or table
    /// is not pop-up enabled, `runtime/parent-being-edited` while the record's parent (one-to-many) is in a pop-up
    /// edit session, and by the capabilities, the version policy and ownership-based access control.
    public func delete(_ feature: TableFeature) async throws {
        guard let objectId = feature.objectId else {
            throw RuntimeError(RuntimeError.Identifier.featureNotFound, "Deleting from \(title): the feature was never added.", layer: info.reference)
        }
        try await geodatabase.delete(objectId: objectId, tableID: id)
    }

    /// The feature with `objectId` as the current version and the local edits have it.
    public func feature(objectId: Int64) async throws -> TableFeature {
        try await geodatabase.existingFeature(objectId, table: info, operation: "Reading feature \(objectId)")
    }

    /// Features matching the query, all fields, local edits overlaid.
    public func queryFeatures(_ query: FeatureQuery = FeatureQuery()) async throws -> [TableFeature] {
        try await geodatabase.queryFeatures(query, tableID: id)
    }

    /// The number of features matching, local edits counted.
    public func count(_ query: FeatureQuery = FeatureQuery()) async throws -> Int {
        try await geodatabase.count(query, tableID: id)
    }

    /// The records related to `feature` through `relationship` (local edits overlaid).
    public func queryRelatedFeatures(for feature: TableFeature, relationship: Relationship) async throws -> [TableFeature] {
        try await geodatabase.relatedFeatures(of: feature, table: info, relationship: relationship)
    }

    /// The relationship with this name or id, as this table describes it.
    public func relationship(named name: String) -> Relationship? {
        info.metadata.relationships.first { $0.name?.caseInsensitiveCompare(name) == .orderedSame || $0.id.map(String.init) == name }
    }

    // MARK: Attachments

    /// The attachments of a feature: the service's, without those deleted locally, with those added locally.
    public func attachments(of feature: TableFeature) async throws -> [AttachmentInfo] {
        try await geodatabase.attachments(of: feature, table: info)
    }

    /// The bytes of an attachment (a local one's too).
    public func attachmentData(of feature: TableFeature, attachmentId: Int64) async throws -> Data {
        try await geodatabase.attachmentData(of: feature, attachmentId: attachmentId, table: info)
    }

    /// Stages an attachment add; answers its temporary (negative) id.
    @discardableResult
    public func addAttachment(to feature: TableFeature, name: String, contentType: String, data: Data) async throws -> Int64 {
        try await geodatabase.addAttachment(to: feature, name: name, contentType: contentType, data: data, table: info)
    }

    /// Stages an attachment delete.
    public func deleteAttachment(of feature: TableFeature, attachmentId: Int64) async throws {
        try await geodatabase.deleteAttachment(of: feature, attachmentId: attachmentId, table: info)
    }
}
