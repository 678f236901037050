import WebMap

/// What the field app does with one layer or table: the definitions at the top of docs/rules.md, computed once
/// here for the linter, `maprules inspect` and the editing runtime alike. A class: every rule passes layers
/// around, and copying one reference is much cheaper than copying the views it holds.
public final class LayerBehavior: Sendable {
    public let layer: MapLayer
    /// The feature table: the service's metadata with the map's overrides; nil when unresolved or when the
    /// layer is not a feature layer or table.
    public let resolved: ResolvedMetadata?
    public let popup: PopupInfo?

    public init(layer: MapLayer, resolved: ResolvedMetadata?) {
        self.layer = layer
        self.resolved = resolved
        self.popup = layer.popupInfo
        // Computed once: every rule asks for these.
        let table = resolved?.metadata
        self.table = table
        capabilities = table.map { EditCapabilities($0.capabilities) } ?? .none
        let facts = Self.facts(of: popup, in: table)
        fieldInfoFacts = facts
        displayFields = Self.displayFields(popup: popup, facts: facts, table: table)
        addFeature = Self.addFeature(layer: layer, table: table, capabilities: capabilities,
                                     isPopupEnabled: popup != nil && !layer.disablePopup)
        let caps = capabilities
        form = layer.isGroup ? nil : layer.formInfo.map {
            FormBehavior(form: $0, table: table, capabilities: caps, isServiceBacked: layer.isServiceBacked)
        }
    }

    /// The layer's form (`formInfo`), resolved against its table; nil when it has none.
    public let form: FormBehavior?

    /// True when the layer's form has at least one element: the form, not the pop-up, decides what a crew
    /// may edit (forms.md), and the pop-up editing rules do not apply.
    public var isFormEnabled: Bool { form?.isEnabled ?? false }

    /// The feature table's metadata (`resolved?.metadata`).
    public let table: LayerMetadata?

    /// Has a `popupInfo` and `disablePopup` is not true.
    public var isPopupEnabled: Bool { popup != nil && !layer.disablePopup }

    /// A feature layer or table with a feature-service URL (inline collections are read-only to the app).
    public var isServiceBacked: Bool { layer.isServiceBacked }

    /// A feature layer or table whose metadata should be found (service-backed or inline).
    public var needsMetadata: Bool { layer.isFeatureLayerKind && !layer.isGroup }

    /// Editing capabilities of the feature table (none when unknown).
    public let capabilities: EditCapabilities

    /// Visible `fieldInfos` naming a real field (or an `expression/...`), in order. Without metadata, every
    /// visible field name counts (nothing can be checked against the service).
    public let displayFields: [DisplayField]

    /// What the rules ask of each entry of `popup.fieldInfos`, in the same order, as plain values found once
    /// per entry: walking these retains nothing, where each entry read from the pop-up retains its list.
    public let fieldInfoFacts: [FieldInfoFacts]

    /// The service field a `fieldInfos` entry of this layer's pop-up names (compared case-insensitively, a
    /// qualified name by its last part); nil for `expression/...` and `relationships/...` entries, for a name
    /// the layer does not have, and when the metadata is unknown. Looked up once per entry, when the layer's
    /// behaviour is made: every pop-up rule asks.
    public func field(of info: PopupFieldInfo) -> FieldDefinition? {
        if let popup, info.isEntry(of: popup.fieldInfos), info.position < fieldInfoFacts.count {
            return field(at: info.position)
        }
        guard let table, let index = Self.fieldIndex(name: info.fieldName, isExpression: info.isExpression,
                                                     isRelationshipField: info.isRelationshipField, in: table) else { return nil }
        return table.fields[index]
    }

    /// The index in `table.fields` of the field an entry names: none for `expression/...` and
    /// `relationships/...` entries.
    private static func fieldIndex(name: String?, isExpression: Bool, isRelationshipField: Bool, in table: LayerMetadata) -> Int? {
        guard let name, !isExpression, !isRelationshipField else { return nil }
        return table.indexOfField(named: name)
    }

    /// The service field of the entry at `position` of `popup.fieldInfos` (see `field(of:)`).
    public func field(at position: Int) -> FieldDefinition? {
        let index = fieldInfoFacts[position].fieldIndex
        guard index >= 0, let table else { return nil }
        return table.fields[index]
    }

    private static func facts(of popup: PopupInfo?, in table: LayerMetadata?) -> [FieldInfoFacts] {
        guard let popup else { return [] }
        var facts: [FieldInfoFacts] = []
        facts.reserveCapacity(popup.fieldInfos.count)
        for info in popup.fieldInfos {
            let name = info.fieldName
            let isExpression = info.isExpression
            let isRelationshipField = info.isRelationshipField
            let fieldIndex = table.flatMap {
                Self.fieldIndex(name: name, isExpression: isExpression, isRelationshipField: isRelationshipField, in: $0)
            } ?? -1
            facts.append(FieldInfoFacts(fieldIndex: fieldIndex, hasFieldName: name != nil, isVisible: info.visible,
                                        isEditable: info.isEditable, isExpression: isExpression,
                                        isRelationshipField: isRelationshipField))
        }
        return facts
    }

    private static func displayFields(popup: PopupInfo?, facts: [FieldInfoFacts], table: LayerMetadata?) -> [DisplayField] {
        guard let popup else { return [] }
        var result: [DisplayField] = []
        result.reserveCapacity(facts.count)
        for (position, fact) in facts.enumerated() where fact.isVisible && fact.hasFieldName && !fact.isRelationshipField {
            let info = popup.fieldInfos[position]
            if fact.isExpression {
                result.append(DisplayField(fieldInfo: info, field: nil, expressionName: info.expressionName))
            } else if let table {
                if fact.fieldIndex >= 0 { result.append(DisplayField(fieldInfo: info, field: table.fields[fact.fieldIndex], expressionName: nil)) }
            } else {
                result.append(DisplayField(fieldInfo: info, field: nil, expressionName: nil))
            }
        }
        return result
    }

    /// Display fields with `isEditable: true` whose service field is editable and whose type is editable,
    /// only when the table can update (or can add, for a new record), and only on service-backed tables.
    public func editableDisplayFields(forNewRecord: Bool) -> [EditableField] {
        guard canEditFields(forNewRecord: forNewRecord) else { return [] }
        var result: [EditableField] = []
        result.reserveCapacity(displayFields.count)
        for display in displayFields {
            guard let field = display.field, isEditable(display) else { continue }
            result.append(EditableField(display: display, field: field, editor: EditorKind(field: field, fieldInfo: display.fieldInfo)))
        }
        return result
    }

    /// True when `field` is one of ``editableDisplayFields(forNewRecord:)``, without making the list (a rule asks
    /// this of the required fields of every layer).
    public func showsEditable(_ field: FieldDefinition, forNewRecord: Bool) -> Bool {
        canEditFields(forNewRecord: forNewRecord) && displayFields.contains { $0.field === field && isEditable($0) }
    }

    private func canEditFields(forNewRecord: Bool) -> Bool {
        isServiceBacked && (forNewRecord ? capabilities.canAdd : capabilities.canUpdate)
    }

    /// The pop-up lets the user edit the field shown: `isEditable`, editable in the service, and of a type
    /// the app has an editor for.
    private func isEditable(_ display: DisplayField) -> Bool {
        guard display.fieldInfo.isEditable, let field = display.field, field.editable else { return false }
        return EditorKind(fieldType: field).isEditable
    }

    /// Whether a user may add features to this layer from the map, and if not, every condition that fails.
    public let addFeature: AddFeatureEligibility

    private static func addFeature(layer: MapLayer, table: LayerMetadata?, capabilities caps: EditCapabilities,
                                   isPopupEnabled: Bool) -> AddFeatureEligibility {
        var failed: [AddFeatureCondition] = []
        if layer.isTable || !layer.isFeatureLayerKind || !layer.isServiceBacked { failed.append(.serviceBackedFeatureLayer) }
        if table == nil && layer.isServiceBacked {
            failed.append(.metadataAvailable)
        } else {
            if !caps.isEditable { failed.append(.editable) }
            if !caps.canAdd { failed.append(.canAdd) }
            if table?.geometryType != .point { failed.append(.pointGeometry) }
        }
        if !isPopupEnabled { failed.append(.popupEnabled) }
        return AddFeatureEligibility(failed: failed)
    }

    /// True when the pop-up shows attachments and the layer has them.
    public var showsAttachments: Bool { (popup?.showsAttachments ?? false) && (table?.hasAttachments ?? false) }

    /// True when a user can add or delete attachments: shown, service-backed, and the table can update.
    public var canEditAttachments: Bool { showsAttachments && isServiceBacked && capabilities.canUpdate }

    /// True when the app offers "Delete" for this layer's records.
    public var canDelete: Bool { isServiceBacked && isPopupEnabled && capabilities.canDelete }
}

/// A condition of add-feature eligibility (docs/rules.md, add-feature/).
public enum AddFeatureCondition: String, Sendable, Codable, CaseIterable {
    case serviceBackedFeatureLayer = "service-backed-feature-layer"
    case metadataAvailable = "metadata-available"
    case editable
    case canAdd = "can-add"
    case pointGeometry = "point-geometry"
    case popupEnabled = "popup-enabled"

    /// A phrase for messages: "it is not pop-up enabled".
    public var failureText: String {
        switch self {
        case .serviceBackedFeatureLayer: return "it is not a feature layer backed by a feature service"
        case .metadataAvailable: return "its service metadata was not found"
        case .editable: return "its capabilities allow no editing"
        case .canAdd: return "its capabilities do not include Create"
        case .pointGeometry: return "its geometry is not point"
        case .popupEnabled: return "it is not pop-up enabled"
        }
    }
}

public struct AddFeatureEligibility: Sendable, Codable {
    public var failed: [AddFeatureCondition]
    public var isEligible: Bool { failed.isEmpty }
}
