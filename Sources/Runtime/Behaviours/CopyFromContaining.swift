import Foundation
import FeatureServiceModel
import WebMap

/// docs/runtime.md `copyFromContaining {layer, field, from, sourceField}`: when a feature of `layer` is added or
/// moved, `field` takes `sourceField` of the `from` polygon feature that contains its point (null when none
/// does). The Trees sample: `{layer: Trees, field: Neighborhood, from: Neighborhoods, sourceField: NAME}`.
public struct CopyFromContaining: EditBehaviour, Codable, Equatable {
    public var layer: String
    public var field: String
    public var from: String
    public var sourceField: String

    public init(layer: String, field: String, from: String, sourceField: String) {
        self.layer = layer
        self.field = field
        self.from = from
        self.sourceField = sourceField
    }

    public var summary: String { "copyFromContaining: \(layer).\(field) ← \(sourceField) of the containing \(from) feature" }

    public func afterLocalEdit(_ event: LocalEditEvent, in geodatabase: ServiceGeodatabase) async throws {
        let target = try await geodatabase.table(named: layer)
        guard event.tableID == target.id, event.kind != .delete, event.geometryChanged,
              case .point? = event.feature.geometry, let objectId = event.feature.objectId else { return }
        let source = try await geodatabase.table(named: from)
        let containing = try await source.queryFeatures(FeatureQuery(geometry: event.feature.geometry, spatialReference: event.feature.spatialReference,
                                                                      spatialRelationship: .intersects, limit: 1))
        let value = containing.first?[sourceField] ?? .null
        try await geodatabase.behaviourUpdate(tableID: target.id, objectId: objectId, attributes: Attributes([(field, value)]))
    }
}
