import Foundation
import Rules
import FeatureServiceModel
import WebMap

/// What the runtime knows of one layer or table of the service after loading: its metadata (with the web map's
/// `layerDefinition` overrides, when a map names it) and the pop-up the app would show for it.
struct TableInfo: Sendable {
    let id: Int
    let name: String
    /// The metadata the service answered.
    let json: JSON
    /// The feature table: metadata with the map's overrides (docs/rules.md "feature table").
    let metadata: LayerMetadata
    /// The pop-up and the facts the rules compute for it (from the web map, or the default pop-up).
    let behavior: LayerBehavior
    let capabilities: EditCapabilities
    let objectIdField: String
    let globalIdField: String?
    let spatialReference: SpatialReference

    init(id: Int, json: JSON, metadata: LayerMetadata, behavior: LayerBehavior) {
        self.id = id
        self.json = json
        self.metadata = metadata
        self.behavior = behavior
        name = metadata.name ?? "layer \(id)"
        capabilities = EditCapabilities(metadata.capabilities)
        objectIdField = metadata.objectIdField ?? metadata.fields.first { $0.type == .oid }?.name ?? "OBJECTID"
        globalIdField = metadata.globalIdField ?? metadata.fields.first { $0.type == .globalID }?.name
        spatialReference = json["spatialReference"].flatMap(SpatialReference.init(json:))
            ?? json["extent"]?["spatialReference"].flatMap(SpatialReference.init(json:))
            ?? (metadata.isTable ? .wgs84 : .webMercator)
    }

    var isTable: Bool { metadata.isTable }
    var reference: LayerReference { LayerReference(title: name, id: id) }
    var kindWord: String { isTable ? "table" : "layer" }
    /// "layer 'Trees' (id 0)".
    var title: String { "\(kindWord) '\(name)' (id \(id))" }

    func field(_ name: String) -> FieldDefinition? { metadata.field(named: name) }

    /// The object id of a feature's attributes.
    func objectId(of attributes: Attributes) -> Int64? {
        switch attributes[objectIdField] {
        case .int(let i)?: return i
        case .double(let d)?: return Int64(exactly: d)
        default: return nil
        }
    }

    /// The ownership-based access control of the layer, when it has one.
    var ownership: (allowOthersToUpdate: Bool, allowOthersToDelete: Bool)? {
        guard let node = json["ownershipBasedAccessControlForFeatures"], node.objectMembers != nil else { return nil }
        return (node["allowOthersToUpdate"]?.bool ?? false, node["allowOthersToDelete"]?.bool ?? false)
    }

    /// True when `geometryType` accepts `geometry` (tables accept none).
    func accepts(_ geometry: Geometry) -> Bool {
        guard let type = metadata.geometryType, !isTable else { return false }
        return geometry.type == type || (type == .polygon && geometry.type == .envelope)
    }
}
