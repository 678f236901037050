import Arcade
import Rules
import WebMap

/// What `maprules arcade --map MAP --layer ID` knows of the map: each layer's fields, types and coded domains
/// as the map's services describe them. `$map` lists the map's layers and tables by title; their features are
/// the service's, which the lint-side command does not read (`--service` does).
final class ArcadeMapLayers: ArcadeDataAccess {
    let behavior: MapBehavior
    let current: LayerBehavior

    init(behavior: MapBehavior, current: LayerBehavior) {
        self.behavior = behavior
        self.current = current
    }

    /// The schema of a layer's resolved metadata (nil when its service could not be read).
    static func schema(of layer: LayerBehavior) -> ArcadeLayerSchema? {
        layer.table.map { ArcadeLayerSchema(metadata: $0) }
    }

    func featureSource(titled title: String) throws -> ArcadeFeatureSource? {
        behavior.layers.first { $0.layer.title == title }.map { SchemaOnlySource(layer: $0) }
    }

    func featureSource(layerNamed name: String) throws -> ArcadeFeatureSource? {
        behavior.layers.first { $0.table?.name == name || $0.layer.id == name }.map { SchemaOnlySource(layer: $0) }
    }

    func currentLayer() throws -> ArcadeFeatureSource? { SchemaOnlySource(layer: current) }

    func relatedFeatures(of feature: ArcadeFeature, relationshipName name: String) throws -> ArcadeFeatureSource? {
        guard current.table?.relationships.contains(where: { $0.name == name }) == true else { return nil }
        throw ArcadeMapLayersError(description: "the records related through '\(name)' are in the service: pass --service URL|DIR to read them")
    }
}

struct ArcadeMapLayersError: Error, CustomStringConvertible {
    let description: String
}

/// A layer of the map whose schema is known and whose features are not read here.
final class SchemaOnlySource: ArcadeFeatureSource {
    let layer: LayerBehavior
    let schema: ArcadeLayerSchema?

    init(layer: LayerBehavior) {
        self.layer = layer
        schema = ArcadeMapLayers.schema(of: layer)
    }

    func features(matching query: ArcadeFeatureQuery) throws -> [ArcadeFeature] {
        throw ArcadeMapLayersError(description: "the features of '\(layer.layer.title ?? "?")' are in its service: pass --service URL|DIR to read them")
    }
}
