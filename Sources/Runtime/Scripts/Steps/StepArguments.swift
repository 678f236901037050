import Foundation
import FeatureServiceModel
import WebMap

// The argument types steps share, each read once from the script's value. A value the step cannot use is kept
// as written and fails the step when it runs, with the error a person can act on.

/// `layer`: a layer or table id, or its name.
enum LayerArgument: Sendable {
    case id(Int)
    case name(String)
    /// Neither (a reference brought an object, say): the value as text.
    case unusable(String)

    init(_ json: JSON?) {
        if let id = json?.int { self = .id(id) } else if let name = json?.string { self = .name(name) } else { self = .unusable(json?.text ?? "nothing") }
    }

    /// The layer's name, when the step names it rather than giving its id.
    var name: String? { if case .name(let name) = self { name } else { nil } }

    func table(in geodatabase: ServiceGeodatabase) async throws -> FeatureTable {
        switch self {
        case .id(let id): return try await geodatabase.table(layerID: id)
        case .name(let name): return try await geodatabase.table(named: name)
        case .unusable(let text):
            throw RuntimeError(RuntimeError.Identifier.scriptArgument, "layer must be a layer or table id (a whole number from 0) or its name, not \(text).")
        }
    }
}

/// An object id (`objectId`, `to`, `attachmentId`, an entry of `objectIds`): a whole number, or text holding one.
enum ObjectIdArgument: Sendable {
    case id(Int64)
    case unusable(String)

    init(_ json: JSON?) {
        if let n = json?.int {
            self = .id(Int64(n))
        } else if let text = json?.string, let n = Int64(text.trimmingCharacters(in: .whitespaces)) {
            self = .id(n)
        } else {
            self = .unusable(json?.text ?? "nothing")
        }
    }

    /// The id, or `runtime/feature-not-found` naming the table it was meant for.
    func value(of table: FeatureTable?) throws -> Int64 {
        switch self {
        case .id(let id): return id
        case .unusable(let text):
            throw RuntimeError(RuntimeError.Identifier.featureNotFound, "'\(text)' is not an object id\(table.map { " of \($0.title)" } ?? "").")
        }
    }
}

/// `layer` and `objectId`: the feature a step works on.
struct FeatureArgument: Sendable {
    let layer: LayerArgument
    let objectId: ObjectIdArgument

    init(_ arguments: JSON) {
        layer = LayerArgument(arguments["layer"])
        objectId = ObjectIdArgument(arguments["objectId"])
    }

    /// The table, and the feature as the current version and the local edits have it.
    func feature(in geodatabase: ServiceGeodatabase) async throws -> (table: FeatureTable, feature: TableFeature) {
        let table = try await layer.table(in: geodatabase)
        return (table, try await table.feature(objectId: try objectId.value(of: table)))
    }
}

/// A count, offset or limit: a whole number from 0 (or text holding one), absent when not given.
struct WholeNumberArgument: Sendable {
    private enum Value: Sendable { case absent, number(Int), unusable(String) }
    private let key: String
    private let value: Value

    init(_ arguments: JSON, _ key: String) {
        self.key = key
        guard let json = arguments[key], json != .null else { value = .absent; return }
        if let n = json.int, n >= 0 {
            value = .number(n)
        } else if let text = json.string, let n = Int(text.trimmingCharacters(in: .whitespaces)), n >= 0 {
            value = .number(n)
        } else {
            value = .unusable(json.text)
        }
    }

    /// The number, nil when absent; `script/argument` for a value that is not one (text, a fraction, 1e300).
    func number() throws -> Int? {
        switch value {
        case .absent: return nil
        case .number(let n): return n
        case .unusable(let text): throw RuntimeError(RuntimeError.Identifier.scriptArgument, "\(key) must be a whole number from 0, not \(text).")
        }
    }
}

/// A geometry in Esri JSON, with its spatial reference when it names one.
struct GeometryArgument: Sendable {
    private let parsed: Result<(Geometry, SpatialReference?), GeometryProblem>

    private struct GeometryProblem: Error { let text: String }

    init(_ json: JSON) {
        do {
            let geometry = try Geometry.parse(json)
            parsed = .success((geometry.geometry, geometry.spatialReference))
        } catch {
            parsed = .failure(GeometryProblem(text: "\(error)"))
        }
    }

    /// The geometry, or `runtime/invalid-geometry` naming the table it was meant for.
    func value(for table: FeatureTable) throws -> (Geometry, SpatialReference?) {
        switch parsed {
        case .success(let value): return value
        case .failure(let problem):
            throw RuntimeError(RuntimeError.Identifier.invalidGeometry, "\(table.title): the geometry cannot be read: \(problem.text).", layer: table.info.reference)
        }
    }
}

/// Attribute values by field name (`attributes`, a related record's `add`).
struct AttributesArgument: Sendable {
    private let read: Result<Attributes, RuntimeError>

    init(_ json: JSON?) {
        do { read = .success(try ScriptValues.attributes(json)) } catch let error as RuntimeError { read = .failure(error) } catch {
            read = .failure(RuntimeError(RuntimeError.Identifier.scriptArgument, "\(error)"))
        }
    }

    /// The values, or `script/argument` for an object or list where a value belongs.
    func values() throws -> Attributes { try read.get() }
}

/// What `query` and `expect` select: `layer`, `where`, `objectIds`, `geometry` + `spatialRelationship`, `orderBy`,
/// `offset`, `limit`.
struct QueryArguments: Sendable {
    let layer: LayerArgument
    let whereClause: String?
    let orderBy: String?
    let offset: WholeNumberArgument
    let limit: WholeNumberArgument
    let objectIds: [ObjectIdArgument]?
    let geometry: GeometryArgument?
    let spatialRelationship: SpatialRelation

    init(_ arguments: JSON) {
        layer = LayerArgument(arguments["layer"])
        whereClause = arguments["where"]?.string
        orderBy = arguments["orderBy"]?.string
        offset = WholeNumberArgument(arguments, "offset")
        limit = WholeNumberArgument(arguments, "limit")
        objectIds = arguments["objectIds"].map { ids in (ids.array ?? [ids]).map { ObjectIdArgument($0) } }
        geometry = arguments["geometry"].map { GeometryArgument($0) }
        spatialRelationship = arguments["spatialRelationship"]?.string.flatMap(SpatialRelation.init(parameter:)) ?? .intersects
    }

    /// The table and its features that the query selects, local edits overlaid.
    func features(in geodatabase: ServiceGeodatabase) async throws -> (table: FeatureTable, features: [TableFeature]) {
        let table = try await layer.table(in: geodatabase)
        return (table, try await table.queryFeatures(try query(of: table)))
    }

    /// The query of `table`; the first argument it cannot use fails it.
    private func query(of table: FeatureTable) throws -> FeatureQuery {
        var query = FeatureQuery(where: whereClause, orderBy: orderBy, offset: try offset.number(), limit: try limit.number())
        if let objectIds { query.objectIds = try objectIds.map { try $0.value(of: table) } }
        if let geometry {
            let (shape, reference) = try geometry.value(for: table)
            query.geometry = shape
            query.spatialReference = reference
            query.spatialRelationship = spatialRelationship
        }
        return query
    }
}
