import Foundation
import FeatureServiceModel
import WebMap

/// A feature (or a table's record) as the runtime hands it out: its table, object id, attributes and geometry.
///
/// Object ids (docs/runtime.md): nil = not in the table yet (made by `createFeature`), negative = a local add not
/// yet applied, positive = on the service.
public struct TableFeature: Sendable, Equatable {
    public let tableID: Int
    public var objectId: Int64?
    public var attributes: Attributes
    public var geometry: Geometry?
    /// The spatial reference of `geometry` (the table's, for features read from it).
    public var spatialReference: SpatialReference?

    public init(tableID: Int, objectId: Int64?, attributes: Attributes, geometry: Geometry? = nil, spatialReference: SpatialReference? = nil) {
        self.tableID = tableID
        self.objectId = objectId
        self.attributes = attributes
        self.geometry = geometry
        self.spatialReference = spatialReference
    }

    /// The value of a field (names compare case-insensitively).
    public subscript(field: String) -> AttributeValue? {
        get { attributes[field] }
        set { attributes[field] = newValue }
    }

    /// True for a feature added locally and not applied yet.
    public var isLocalAdd: Bool { (objectId ?? 0) < 0 }
    /// True for a feature made by `createFeature` and not added to its table.
    public var isNew: Bool { objectId == nil }
}

/// A feature's identity inside a geodatabase.
struct FeatureKey: Hashable, Sendable {
    var tableID: Int
    var objectId: Int64
}
