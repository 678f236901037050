import Foundation
import Rules
import FeatureServiceModel
import WebMap

/// The pop-ups of a service's layers and tables, from a web map or, without one, the defaults of docs/runtime.md
/// ("Pop-ups without a map"). Either way the facts come from the rule catalogue's own definitions
/// (`MapBehavior`, `LayerBehavior`): pop-up enabled, display and editable fields, editor kinds, relationship
/// kinds, add-feature eligibility. The runtime never derives them a second time.
struct PopupDefinitions: Sendable {
    /// The map's behaviour (for a default map: one layer or table per service layer, in service order).
    let map: MapBehavior
    /// True when the pop-ups come from a web map the caller gave.
    let fromWebMap: Bool
    /// The facts of each service layer or table, by id.
    let tables: [Int: TableInfo]

    /// Pop-ups from `document`: each service layer takes the first pop-up enabled map layer or table whose URL
    /// names it (a service layer the map does not show has no pop-up).
    init(description: ServiceDescription, map document: WebMapDocument) throws {
        let metadata = try Self.parseMetadata(description)
        let serviceName = description.name.lowercased()
        func belongs(_ layer: MapLayer) -> Int? {
            guard layer.isServiceBacked, let parts = layer.serviceLayer,
                  Self.serviceName(of: parts.service)?.lowercased() == serviceName, metadata[parts.layerId] != nil else { return nil }
            return parts.layerId
        }
        let behavior = MapBehavior(document: document) { layer in
            belongs(layer).flatMap { id in
                metadata[id].map { ResolvedMetadata(metadata: $0.applying(overrides: layer.layerDefinition), source: .live) }
            }
        }
        var chosen: [Int: LayerBehavior] = [:]
        for layerBehavior in behavior.layers {
            guard let id = belongs(layerBehavior.layer) else { continue }
            if chosen[id] == nil || (!chosen[id]!.isPopupEnabled && layerBehavior.isPopupEnabled) { chosen[id] = layerBehavior }
        }
        // Service layers the map does not show: no pop-up (nothing can be identified or edited through one).
        let unshown = try Self.defaultDocument(description, metadata: metadata, popups: false)
        let unshownBehavior = MapBehavior(document: unshown.document) { layer in layer.serviceLayer.flatMap { metadata[$0.layerId] }.map { ResolvedMetadata(metadata: $0, source: .live) } }
        let unshownByID = Self.byServiceLayerID(unshownBehavior)
        var tables: [Int: TableInfo] = [:]
        for entry in description.layers {
            guard let table = metadata[entry.id], let layerBehavior = chosen[entry.id] ?? unshownByID[entry.id] else { continue }
            tables[entry.id] = TableInfo(id: entry.id, json: entry.metadata, metadata: layerBehavior.table ?? table, behavior: layerBehavior)
        }
        self.map = behavior
        self.fromWebMap = true
        self.tables = tables
    }

    /// The default pop-ups: pop-up enabled, every field visible in service order, editable where the service
    /// marks the field editable and its type is editable.
    init(description: ServiceDescription) throws {
        let metadata = try Self.parseMetadata(description)
        let made = try Self.defaultDocument(description, metadata: metadata, popups: true)
        let behavior = MapBehavior(document: made.document) { layer in
            layer.serviceLayer.flatMap { metadata[$0.layerId] }.map { ResolvedMetadata(metadata: $0, source: .live) }
        }
        let byID = Self.byServiceLayerID(behavior)
        var tables: [Int: TableInfo] = [:]
        for entry in description.layers {
            guard let table = metadata[entry.id], let layerBehavior = byID[entry.id] else { continue }
            tables[entry.id] = TableInfo(id: entry.id, json: entry.metadata, metadata: table, behavior: layerBehavior)
        }
        self.map = behavior
        self.fromWebMap = false
        self.tables = tables
    }

    /// The relationships of a table as the app uses them (kind, related table, used or not).
    func relationships(of table: TableInfo) -> [RelationshipUse] { map.relationships(of: table.behavior) }

    /// The service id of the map layer at `index` of `map.layers`, when it is one of this service's.
    func tableID(ofMapIndex index: Int) -> Int? {
        let behavior = map.layers[index]
        return tables.values.first { $0.behavior === behavior }?.id
    }

    // MARK: Building

    /// The layers of a made-up default map by the service layer id their URL names.
    private static func byServiceLayerID(_ behavior: MapBehavior) -> [Int: LayerBehavior] {
        var result: [Int: LayerBehavior] = [:]
        for layer in behavior.layers { if let id = layer.layer.serviceLayer?.layerId { result[id] = layer } }
        return result
    }

    private static func parseMetadata(_ description: ServiceDescription) throws -> [Int: LayerMetadata] {
        var result: [Int: LayerMetadata] = [:]
        for entry in description.layers {
            do {
                result[entry.id] = LayerMetadata(try JSONParser.parse(entry.metadata.text).root)
            } catch {
                throw RuntimeError(RuntimeError.Identifier.serviceError, "The metadata of layer \(entry.id) of '\(description.name)' cannot be read: \(error)")
            }
        }
        return result
    }

    /// "TreesOfPortland" of ".../services/TreesOfPortland/FeatureServer" (a folder before it is kept out).
    static func serviceName(of serviceURL: String) -> String? {
        let parts = serviceURL.split(separator: "/")
        guard let index = parts.lastIndex(where: { $0.caseInsensitiveCompare("FeatureServer") == .orderedSame || $0.caseInsensitiveCompare("MapServer") == .orderedSame }),
              index > 0 else { return nil }
        return String(parts[index - 1])
    }

    /// A web map with one layer (or table) per service layer, in service order; with `popups`, each with the
    /// default pop-up of docs/runtime.md, else with none.
    private static func defaultDocument(_ description: ServiceDescription, metadata: [Int: LayerMetadata], popups: Bool) throws -> (document: WebMapDocument, text: String) {
        let base = "https://in-process.maprules/arcgis/rest/services/\(description.name)/FeatureServer"
        var layers: [JSON] = []
        var tables: [JSON] = []
        for entry in description.layers {
            guard let table = metadata[entry.id] else { continue }
            var members: [(String, JSON)] = [
                ("id", .string("\(description.name)-\(entry.id)")),
                ("title", .string(table.name ?? "Layer \(entry.id)")),
                ("url", .string("\(base)/\(entry.id)")),
            ]
            if !table.isTable { members.append(("layerType", .string("ArcGISFeatureLayer"))) }
            if popups {
                let fieldInfos: [JSON] = table.fields.map { field in
                    let editable = field.editable && EditorKind(field: field, fieldInfo: nil).isEditable && !table.isSystemMaintained(field)
                    return .object([("fieldName", .string(field.name)), ("label", .string(field.alias ?? field.name)),
                                    ("visible", .bool(true)), ("isEditable", .bool(editable))])
                }
                let title = table.displayField.map { "{\($0)}" } ?? (table.name ?? "")
                members.append(("popupInfo", .object([("title", .string(title)), ("fieldInfos", .array(fieldInfos)),
                                                      ("showAttachments", .bool(table.hasAttachments))])))
            }
            if table.isTable { tables.append(.object(members)) } else { layers.append(.object(members)) }
        }
        let text = JSON.object([("operationalLayers", .array(layers)), ("tables", .array(tables)), ("version", .string("2.31"))]).text
        guard let parsed = try? JSONParser.parse(text), let document = WebMapDocument(root: parsed.root, source: SourceText(bytes: Array(text.utf8))) else {
            throw RuntimeError(RuntimeError.Identifier.serviceError, "The default pop-ups of '\(description.name)' could not be made.")
        }
        return (document, text)
    }
}
