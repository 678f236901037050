import WebMap

/// How the app treats a relationship, seen from one layer (rules.md, "relationship kinds").
public enum RelationshipKind: String, Sendable, Codable {
    /// One-to-many, this layer the destination: e.g. a tree's species.
    case manyToOne = "many-to-one"
    /// One-to-many, this layer the origin: e.g. a tree's inspections.
    case oneToMany = "one-to-many"
    /// One-to-one, many-to-many, or not described: ignored by the app.
    case ignored

    public init(_ relationship: Relationship) {
        switch (relationship.cardinality, relationship.role) {
        case (.oneToMany?, .destination?): self = .manyToOne
        case (.oneToMany?, .origin?): self = .oneToMany
        default: self = .ignored
        }
    }
}

/// A relationship of a layer, with the map layer or table it leads to.
public struct RelationshipUse: Sendable {
    public var relationship: Relationship
    public var kind: RelationshipKind
    /// Index into `MapBehavior.layers` of the related table, when the map has it.
    public var relatedIndex: Int?
    /// True when the related table is in the map and pop-up enabled, and the kind is one the app uses.
    public var isUsed: Bool
}

/// What the app does with a whole map: every layer's behavior, relationships, and the add-feature list.
public struct MapBehavior: Sendable {
    public let layers: [LayerBehavior]

    public init(document: WebMapDocument, resolve: (MapLayer) -> ResolvedMetadata?) {
        layers = document.layers.map { LayerBehavior(layer: $0, resolved: $0.isFeatureLayerKind && !$0.isGroup ? resolve($0) : nil) }
    }

    public init(layers: [LayerBehavior]) { self.layers = layers }

    /// Layers eligible for adding features, in operational-layer order (the order of the app's list).
    public var addFeatureLayers: [LayerBehavior] { layers.filter { !$0.layer.isTable && $0.addFeature.isEligible } }

    /// The map layer or table holding `relatedTableId` of the same service as `behavior`: a service-backed
    /// layer or table whose URL is that service's layer `relatedTableId`. When the map lists it more than
    /// once, the first pop-up enabled copy wins (the relationship is used when any copy can show it).
    public func relatedIndex(of relationship: Relationship, from behavior: LayerBehavior) -> Int? {
        guard let id = relationship.relatedTableId, let url = behavior.layer.url,
              let service = ServiceURL.layerComponents(url)?.service else { return nil }
        let matches = layers.indices.filter { index in
            let other = layers[index]
            guard other.isServiceBacked, let otherURL = other.layer.url,
                  let parts = ServiceURL.layerComponents(otherURL) else { return false }
            return parts.layerId == id && parts.service.caseInsensitiveCompare(service) == .orderedSame
        }
        return matches.first { layers[$0].isPopupEnabled } ?? matches.first
    }

    /// Every relationship of a service-backed layer, with how the app uses it.
    public func relationships(of behavior: LayerBehavior) -> [RelationshipUse] {
        guard behavior.isServiceBacked, let table = behavior.table else { return [] }
        return table.relationships.map { relationship in
            let kind = RelationshipKind(relationship)
            let index = relatedIndex(of: relationship, from: behavior)
            let used = kind != .ignored && index.map { layers[$0].isPopupEnabled } == true
            return RelationshipUse(relationship: relationship, kind: kind, relatedIndex: index, isUsed: used)
        }
    }

    /// Pop-up enabled layers (then tables) numbered in the order identify lists them: operational-layer order.
    public var identifyOrder: [Int] {
        layers.indices.filter { layers[$0].isPopupEnabled && layers[$0].needsMetadata }
    }
}
