import WebMap

/// One relationship of a layer as the related/ rules see it: the layer that has it, how the app uses it
/// (from `MapBehavior.relationships(of:)`), and the words and place a diagnostic about it uses.
final class RelationshipFinding {
    // A class: the related/ rules each walk every finding of the map, and a struct copy would retain the
    // map's behaviour, the layer and the relationship's strings at every step.
    let map: MapBehavior
    let layer: LayerBehavior
    let use: RelationshipUse

    init(map: MapBehavior, layer: LayerBehavior, use: RelationshipUse) {
        self.map = map
        self.layer = layer
        self.use = use
    }

    /// The relationships the related/ rules look at: those of pop-up enabled, service-backed layers and
    /// tables whose metadata is known (`relationships(of:)` answers none for the others). A layer whose
    /// pop-up is never shown never shows its related records either, so its relationships cannot mislead
    /// anyone in the app.
    static func all(in context: MapContext) -> [RelationshipFinding] {
        context.shared([RelationshipFinding].self) {
            let map = context.behavior
            return map.layers.filter(\.isPopupEnabled).flatMap { layer in
                map.relationships(of: layer).map { RelationshipFinding(map: map, layer: layer, use: $0) }
            }
        }
    }

    /// True when the layer is part of a map (a standalone pop-up file has no map to find related tables in).
    var isInMap: Bool { !layer.layer.isStandalonePopup }

    var relationship: Relationship { use.relationship }

    /// The related table's behavior, when the map has it.
    var related: LayerBehavior? { use.relatedIndex.map { map.layers[$0] } }

    /// A composite relationship seen from its destination: a new record must be related to an existing one.
    var isCompositeManyToOne: Bool { use.kind == .manyToOne && relationship.composite }

    /// True when the map holds a service-backed layer whose URL still has an unresolved `{{ name }}`
    /// placeholder: any of those may be the related table, so "not in the map" cannot be told.
    var mapHasUnreadableURLs: Bool {
        map.layers.contains { other in
            other.isServiceBacked && (other.layer.url.map(TemplatePlaceholders.contains) ?? false)
        }
    }

    /// Where a finding about the relationship goes: the pop-up's `relatedRecordsInfo` when it has one,
    /// else the layer object.
    var pointer: JSONPointer {
        if let popup = layer.popup, popup.relatedRecordsInfo != nil { return popup.pointer / "relatedRecordsInfo" }
        return layer.layer.pointer
    }

    /// "Layer 'Trees' (id Trees_1234)" or "Table 'Inspections' (id Inspections_5678)".
    var subject: String { RelationshipFinding.describe(layer) }

    /// "one-to-many relationship 'Trees_Inspections' (id 1)".
    var relationshipName: String {
        let kind: String
        switch use.kind {
        case .manyToOne: kind = "many-to-one "
        case .oneToMany: kind = "one-to-many "
        case .ignored: kind = ""
        }
        return kind + RelationshipFinding.name(of: relationship)
    }

    /// "table 'Inspections' (id Inspections_5678)" when the map has the related table, else its place in
    /// the service: "layer or table 3 of the service (https://.../FeatureServer/3)".
    var relatedName: String {
        if let related { return RelationshipFinding.describe(related, capitalized: false) }
        guard let id = relationship.relatedTableId else { return "a related table the service metadata does not identify (no relatedTableId)" }
        if let url = relatedURL { return "layer or table \(id) of the same service (\(url))" }
        return "layer or table \(id) of the same service"
    }

    /// The related table's URL, from the layer's service and `relatedTableId`.
    var relatedURL: String? {
        guard let id = relationship.relatedTableId, let service = layer.layer.serviceLayer?.service else { return nil }
        return "\(service)/\(id)"
    }

    /// "relationship 'Trees_Inspections' (id 1)", or whichever of name and id the metadata gives.
    static func name(of relationship: Relationship) -> String {
        switch (relationship.name, relationship.id) {
        case let (name?, id?): return "relationship '\(name)' (id \(id))"
        case let (name?, nil): return "relationship '\(name)'"
        case let (nil, id?): return "relationship id \(id)"
        default: return "relationship #\(relationship.index + 1) of the service metadata"
        }
    }

    /// "Layer 'Trees' (id Trees_1234)" or "Table 'Inspections' (id Inspections_5678)"; lower case inside a
    /// sentence.
    static func describe(_ behavior: LayerBehavior, capitalized: Bool = true) -> String {
        let kind = behavior.layer.isTable ? "table " : "layer "
        return (capitalized ? kind.prefix(1).uppercased() + kind.dropFirst() : kind) + behavior.layer.displayName
    }

    /// Why a table in the map is not pop-up enabled, for messages.
    static func popupDisabledReason(_ behavior: LayerBehavior) -> String {
        behavior.popup == nil ? "it has no popupInfo" : "its disablePopup is true"
    }
}
