import Foundation
import Rules
import WebMap

/// What a field app will do with a map, layer by layer (`maprules inspect`): built from the shared
/// definitions in `MapBehavior`, never recomputed here.
public struct InspectReport: Codable, Sendable {
    public struct AddFeature: Codable, Sendable {
        public var eligible: Bool
        public var failed: [String]
    }

    public struct EditableField: Codable, Sendable {
        public var name: String
        public var alias: String?
        public var editor: String
    }

    public struct RelationshipSection: Codable, Sendable {
        public var kind: String
        public var name: String?
        public var table: String?
        public var tableId: Int?
        public var canAdd: Bool
    }

    public struct Attachments: Codable, Sendable {
        public var show: Bool
        public var edit: Bool
    }

    /// What happens to the layer when the map is taken offline (`OfflinePlan`).
    public struct Offline: Codable, Sendable {
        /// `downloads`, `stays-online`, `cannot` or `unknown`.
        public var status: String
        /// Why it cannot, in a few words each.
        public var reasons: [String]
        /// "downloads", "stays online", "cannot (its capabilities lack Sync)".
        public var text: String
    }

    public struct Layer: Codable, Sendable {
        public var id: String?
        public var title: String?
        public var kind: String
        public var geometry: String?
        public var metadataSource: MetadataSource?
        public var popupEnabled: Bool
        /// 1-based position in the identify list, when pop-up enabled.
        public var identifyOrder: Int?
        public var addFeature: AddFeature
        public var displayFields: [String]
        public var editableFields: [EditableField]
        public var relationships: [RelationshipSection]
        public var attachments: Attachments
        public var canDelete: Bool
        /// Nil for group layers (their layers say it).
        public var offline: Offline?
        /// The pop-up's Arcade expressions: parse result and type.
        public var expressions: [PopupExpression]
        /// The layer's form and its state for a new feature; nil without a `formInfo`.
        public var form: Form?
    }

    public struct LayerRef: Codable, Sendable {
        public var id: String?
        public var title: String?
    }

    public var path: String
    public var title: String?
    public var layers: [Layer]
    public var addFeatureLayers: [LayerRef]

    public init(path: String, document: WebMapDocument, behavior: MapBehavior) {
        self.path = path
        title = document.title
        let identify = behavior.identifyOrder
        let offline = OfflinePlan(document: document, behavior: behavior, offlineRequested: false)
        var offlineByPointer: [JSONPointer: Offline] = [:]
        for entry in offline.entries where !entry.isBasemap {
            offlineByPointer[entry.behavior.layer.pointer] = Offline(status: entry.status.name, reasons: entry.status.reasons, text: entry.status.text)
        }
        layers = behavior.layers.enumerated().map { index, layer in
            let kind: String
            if layer.layer.isGroup { kind = "group" } else if layer.layer.isTable { kind = "table" } else if layer.layer.hasFeatureCollection {
                kind = "feature collection"
            } else if layer.layer.isFeatureLayerKind { kind = "feature layer" } else { kind = layer.layer.layerType ?? "unknown" }
            let relationships = behavior.relationships(of: layer).filter(\.isUsed).map { use -> RelationshipSection in
                let related = use.relatedIndex.map { behavior.layers[$0] }
                return RelationshipSection(kind: use.kind.rawValue, name: use.relationship.name, table: related?.layer.title,
                                           tableId: use.relationship.relatedTableId,
                                           canAdd: use.kind == .oneToMany && (related?.capabilities.canAdd ?? false))
            }
            let editable = layer.editableDisplayFields(forNewRecord: false)
            return Layer(
                id: layer.layer.id, title: layer.layer.title, kind: kind, geometry: layer.table?.geometryType?.shortName,
                metadataSource: layer.resolved?.source, popupEnabled: layer.isPopupEnabled,
                identifyOrder: identify.firstIndex(of: index).map { $0 + 1 },
                addFeature: AddFeature(eligible: layer.addFeature.isEligible, failed: layer.addFeature.failed.map(\.rawValue)),
                displayFields: layer.displayFields.compactMap { $0.fieldInfo.fieldName },
                editableFields: editable.map { EditableField(name: $0.field.name, alias: $0.field.alias, editor: $0.editor.rawValue) },
                relationships: relationships,
                attachments: Attachments(show: layer.showsAttachments, edit: layer.canEditAttachments),
                canDelete: layer.canDelete, offline: offlineByPointer[layer.layer.pointer],
                expressions: Self.expressions(of: layer), form: Self.form(of: layer))
        }
        addFeatureLayers = behavior.addFeatureLayers.map { LayerRef(id: $0.layer.id, title: $0.layer.title) }
    }

    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    public func text() -> String {
        var out = "\(path)\(title.map { " — \($0)" } ?? "")\n"
        out += "Add-feature layers: " + (addFeatureLayers.isEmpty ? "none (the add button is disabled)" :
            addFeatureLayers.map { "\($0.title ?? "?") (id \($0.id ?? "?"))" }.joined(separator: ", ")) + "\n"
        for layer in layers {
            out += "\n\(layer.title ?? "(untitled)")  [\(layer.kind)\(layer.geometry.map { ", \($0)" } ?? "")\(layer.id.map { ", id \($0)" } ?? "")]\n"
            if let offline = layer.offline { out += "  offline: \(offline.text)\n" }
            if layer.kind != "feature layer" && layer.kind != "table" && layer.kind != "feature collection" {
                out += "  not identifiable or editable in the app\n"
                continue
            }
            out += "  metadata: \(layer.metadataSource?.rawValue ?? "not found")\n"
            out += "  pop-up: \(layer.popupEnabled ? "enabled" : "disabled")\(layer.identifyOrder.map { ", identify order \($0)" } ?? "")\n"
            if layer.kind != "table" {
                let reasons = layer.addFeature.failed.map { AddFeatureCondition(rawValue: $0)?.failureText ?? $0 }
                out += "  add features: " + (layer.addFeature.eligible ? "yes" : "no: " + reasons.joined(separator: "; ")) + "\n"
            }
            if !layer.displayFields.isEmpty { out += "  display fields: \(layer.displayFields.joined(separator: ", "))\n" }
            if !layer.editableFields.isEmpty {
                out += "  editable fields: " + layer.editableFields.map { "\($0.name) (\($0.editor))" }.joined(separator: ", ") + "\n"
            }
            for r in layer.relationships {
                out += "  \(r.kind): \(r.table ?? "table \(r.tableId.map(String.init) ?? "?")")\(r.kind == "one-to-many" ? (r.canAdd ? " (can add)" : " (cannot add)") : "")\n"
            }
            out += "  attachments: \(layer.attachments.show ? (layer.attachments.edit ? "shown, editable" : "shown, read-only") : "not shown")\n"
            out += "  delete: \(layer.canDelete ? "allowed" : "not allowed")\n"
            if let form = layer.form { out += Self.formText(form) }
            for e in layer.expressions {
                out += "  expression/\(e.name): " + (e.error.map { "does not parse: \($0.message) (line \($0.line), column \($0.column))" } ?? "parses")
                    + (e.type.map { ", \($0) (\(e.typeSource ?? ""))" } ?? "") + "\n"
            }
        }
        return out
    }
}
