import WebMap

/// How the app treats a relationship, seen from one layer (docs/rules.md, "relationship kinds").
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
        self.init(layers: document.layers.map { LayerBehavior(layer: $0, resolved: $0.isFeatureLayerKind && !$0.isGroup ? resolve($0) : nil) })
    }

    /// The same behaviour, the layers of a large map resolved on every core (``ChunkedWork``): `resolve` is
    /// then called from several threads at once, so it must be safe to (read-only snapshots are).
    init(document: WebMapDocument, minimumConcurrentCount: Int, resolvingConcurrently resolve: (MapLayer) -> ResolvedMetadata?) {
        self.init(layers: ChunkedWork.map(document.layers, minimumCount: minimumConcurrentCount) {
            LayerBehavior(layer: $0, resolved: $0.isFeatureLayerKind && !$0.isGroup ? resolve($0) : nil)
        })
    }

    public init(layers: [LayerBehavior]) {
        self.layers = layers
        // Each layer's service URL and id, parsed once per map: relationship look-ups compare them often.
        locations = layers.map { behavior in
            guard behavior.isServiceBacked, let parts = behavior.layer.serviceLayer else { return nil }
            return LayerLocation(service: parts.service.lowercased(), layerId: parts.layerId)
        }
        var uses: [[RelationshipUse]] = []
        uses.reserveCapacity(layers.count)
        for index in layers.indices { uses.append(Self.relationshipUses(at: index, layers: layers, locations: locations)) }
        relationshipUses = uses
    }

    private struct LayerLocation: Sendable {
        var service: String
        var layerId: Int
    }

    /// Per layer, its service (lower case) and layer id when it is service-backed with a layer URL.
    private let locations: [LayerLocation?]
    /// Per layer, its relationships as the app uses them.
    private let relationshipUses: [[RelationshipUse]]

    private static func relatedIndex(of relationship: Relationship, at index: Int, layers: [LayerBehavior],
                                     locations: [LayerLocation?]) -> Int? {
        guard let id = relationship.relatedTableId, let origin = locations[index] else { return nil }
        var first: Int?
        for candidate in layers.indices {
            guard let location = locations[candidate], location.layerId == id, location.service == origin.service else { continue }
            if layers[candidate].isPopupEnabled { return candidate }
            if first == nil { first = candidate }
        }
        return first
    }

    private static func relationshipUses(at index: Int, layers: [LayerBehavior], locations: [LayerLocation?]) -> [RelationshipUse] {
        let behavior = layers[index]
        guard behavior.isServiceBacked, let table = behavior.table else { return [] }
        return table.relationships.map { relationship in
            let kind = RelationshipKind(relationship)
            let related = relatedIndex(of: relationship, at: index, layers: layers, locations: locations)
            let used = kind != .ignored && related.map { layers[$0].isPopupEnabled } == true
            return RelationshipUse(relationship: relationship, kind: kind, relatedIndex: related, isUsed: used)
        }
    }

    /// The index of `behavior` in `layers`.
    private func index(of behavior: LayerBehavior) -> Int? {
        let order = behavior.layer.order
        if layers.indices.contains(order), layers[order] === behavior || layers[order].layer.pointer == behavior.layer.pointer { return order }
        return layers.firstIndex { $0.layer.pointer == behavior.layer.pointer }
    }

    /// Layers eligible for adding features, in operational-layer order (the order of the app's list).
    public var addFeatureLayers: [LayerBehavior] { layers.filter { !$0.layer.isTable && $0.addFeature.isEligible } }

    /// The map layer or table holding `relatedTableId` of the same service as `behavior`: a service-backed
    /// layer or table whose URL is that service's layer `relatedTableId`. When the map lists it more than
    /// once, the first pop-up enabled copy wins (the relationship is used when any copy can show it).
    public func relatedIndex(of relationship: Relationship, from behavior: LayerBehavior) -> Int? {
        guard let index = index(of: behavior) else { return nil }
        return Self.relatedIndex(of: relationship, at: index, layers: layers, locations: locations)
    }

    /// Every relationship of a service-backed layer, with how the app uses it (computed once per map).
    public func relationships(of behavior: LayerBehavior) -> [RelationshipUse] {
        guard let index = index(of: behavior) else { return [] }
        return relationshipUses[index]
    }

    /// Pop-up enabled layers (then tables) numbered in the order identify lists them: operational-layer order.
    public var identifyOrder: [Int] {
        layers.indices.filter { layers[$0].isPopupEnabled && layers[$0].needsMetadata }
    }
}
