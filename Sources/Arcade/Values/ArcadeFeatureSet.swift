/// A FeatureSet: a lazily evaluated query over a source the host provides (the runtime's service, version and
/// local edits). `Filter`, `OrderBy`, `Top` and `Intersects` make new FeatureSets with a narrower query; the
/// source is asked only when features are read (`First`, `Count`, `for`).
public final class ArcadeFeatureSet {
    public let source: ArcadeFeatureSource
    public let query: ArcadeFeatureQuery

    public init(source: ArcadeFeatureSource, query: ArcadeFeatureQuery = ArcadeFeatureQuery()) {
        self.source = source
        self.query = query
    }

    /// The same source with another query.
    public func with(_ change: (inout ArcadeFeatureQuery) -> Void) -> ArcadeFeatureSet {
        var query = self.query
        change(&query)
        return ArcadeFeatureSet(source: source, query: query)
    }
}

/// The query a FeatureSet stands for. `whereClauses` are ANDed; each is SQL-92 as `Filter` takes it, with `@name`
/// variables already replaced by literals (text quoted, dates as `timestamp 'YYYY-MM-DD HH:MM:SS'`).
public struct ArcadeFeatureQuery {
    public var whereClauses: [String] = []
    /// `OrderBy`'s argument, e.g. "DBH DESC, Address".
    public var orderBy: String?
    /// `Top`'s count; the smallest applies when nested.
    public var limit: Int?
    /// Features whose geometry intersects this one.
    public var intersecting: ArcadeGeometry?
    /// The fields asked for (nil: all); `FeatureSetByName`'s third argument.
    public var fields: [String]?
    public var includeGeometry: Bool = true
    public init() {}
}

/// Where FeatureSet data comes from. The runtime implements it over its own service; `lint` never has one.
public protocol ArcadeFeatureSource: AnyObject {
    /// The fields of the layer or table, for `Schema` and field-name checks.
    var schema: ArcadeLayerSchema? { get }
    /// The features answering `query`, in its order. Errors are reported as Arcade run errors.
    func features(matching query: ArcadeFeatureQuery) throws -> [ArcadeFeature]
    /// How many features answer `query` (a source may answer without reading them).
    func count(matching query: ArcadeFeatureQuery) throws -> Int
}

extension ArcadeFeatureSource {
    public func count(matching query: ArcadeFeatureQuery) throws -> Int { try features(matching: query).count }
}

/// What the expression's profile variables can reach beyond `$feature`: `$map`, `$layer`, `$datastore` and
/// related records. Given by the host (the runtime, `maprules arcade --service`); absent, FeatureSet functions
/// fail with a run error that says data access is not available here.
public protocol ArcadeDataAccess: AnyObject {
    /// `FeatureSetByName($map, title)`: the layer or table of the map with this title (case-sensitive, as Arcade);
    /// nil when there is none.
    func featureSource(titled title: String) throws -> ArcadeFeatureSource?
    /// `FeatureSetByName($datastore, name)` and `FeatureSetById($map, id)`: by the layer's id or name in its service.
    func featureSource(layerNamed name: String) throws -> ArcadeFeatureSource?
    /// `$layer`: the layer of the feature being evaluated.
    func currentLayer() throws -> ArcadeFeatureSource?
    /// `FeatureSetByRelationshipName(feature, name)`: the records related to `feature` through the relationship of
    /// this name; nil when the layer has no such relationship.
    func relatedFeatures(of feature: ArcadeFeature, relationshipName name: String) throws -> ArcadeFeatureSource?
}
