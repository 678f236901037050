import Foundation
import Arcade

/// A FeatureSet source over features in an array, for the FeatureSet tests. Its where-clause reader knows only
/// what the tests write: `FIELD op literal` (op one of = <> < <= > >=, literal a number, 'text' or NULL),
/// `FIELD IN (literal, ...)`, joined with AND. `orderBy` is `FIELD [ASC|DESC], ...`. It keeps the queries it was
/// asked, so tests can see exactly what a function passed on.
final class DataMemorySource: ArcadeFeatureSource {
    let features: [ArcadeFeature]
    let schema: ArcadeLayerSchema?
    private(set) var queries: [ArcadeFeatureQuery] = []

    init(_ rows: [[(String, ArcadeValue)]], schema: ArcadeLayerSchema? = nil) {
        features = rows.map { ArcadeFeature(attributes: ArcadeDictionary($0), schema: schema) }
        self.schema = schema
    }

    func features(matching query: ArcadeFeatureQuery) throws -> [ArcadeFeature] {
        queries.append(query)
        var result = try features.filter { feature in try query.whereClauses.allSatisfy { try Self.matches($0, feature) } }
        if let order = query.orderBy {
            for term in order.split(separator: ",").reversed() {
                let words = term.split(separator: " ").map(String.init)
                let descending = words.count > 1 && words[1].uppercased() == "DESC"
                result = result.enumerated().sorted { a, b in
                    let x = a.element.attributes[words[0]] ?? .null, y = b.element.attributes[words[0]] ?? .null
                    let order = Self.compare(x, y)
                    return order == 0 ? a.offset < b.offset : (descending ? order > 0 : order < 0)
                }.map(\.element)
            }
        }
        if let limit = query.limit { result = Array(result.prefix(limit)) }
        return result
    }

    struct Unsupported: Error, CustomStringConvertible { let description: String }

    static func matches(_ clause: String, _ feature: ArcadeFeature) throws -> Bool {
        for part in clause.components(separatedBy: " AND ") {
            let words = part.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 2).map(String.init)
            guard words.count == 3 else { throw Unsupported(description: "the test source cannot read '\(part)'") }
            let value = feature.attributes[words[0]] ?? .null
            if words[1].uppercased() == "IN" {
                let items = words[2].trimmingCharacters(in: CharacterSet(charactersIn: "()")).components(separatedBy: ", ")
                guard try items.contains(where: { compare(value, try literal($0)) == 0 }) else { return false }
                continue
            }
            let given = try literal(words[2])
            if given.isNull || value.isNull { return false }
            let order = compare(value, given)
            let ok: Bool
            switch words[1] {
            case "=": ok = order == 0
            case "<>": ok = order != 0
            case "<": ok = order < 0
            case "<=": ok = order <= 0
            case ">": ok = order > 0
            case ">=": ok = order >= 0
            default: throw Unsupported(description: "the test source has no operator \(words[1])")
            }
            if !ok { return false }
        }
        return true
    }

    static func literal(_ text: String) throws -> ArcadeValue {
        if text.uppercased() == "NULL" { return .null }
        if text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 {
            return .text(String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'"))
        }
        guard let number = Double(text) else { throw Unsupported(description: "the test source cannot read the literal \(text)") }
        return .number(number)
    }

    static func compare(_ a: ArcadeValue, _ b: ArcadeValue) -> Int {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        default:
            let x = a.textValue, y = b.textValue
            return x < y ? -1 : (x > y ? 1 : 0)
        }
    }
}

/// Data access over named `DataMemorySource`s, for `FeatureSetByName`, `$layer` and related records.
final class DataMemoryAccess: ArcadeDataAccess {
    var byTitle: [String: DataMemorySource] = [:]
    var byLayerName: [String: DataMemorySource] = [:]
    var current: DataMemorySource?
    var related: [String: DataMemorySource] = [:]

    func featureSource(titled title: String) throws -> ArcadeFeatureSource? { byTitle[title] }
    func featureSource(layerNamed name: String) throws -> ArcadeFeatureSource? { byLayerName[name] }
    func currentLayer() throws -> ArcadeFeatureSource? { current }
    func relatedFeatures(of feature: ArcadeFeature, relationshipName name: String) throws -> ArcadeFeatureSource? { related[name] }
}

enum DataSamples {
    /// Counties with POPULATION, AREA and a Status, in no particular order.
    static func counties() -> DataMemorySource {
        DataMemorySource([
            [("NAME", .text("Ada")), ("POPULATION", .number(500_000)), ("AREA", .number(1000)), ("Status", .text("Open"))],
            [("NAME", .text("Bonner")), ("POPULATION", .number(40_000)), ("AREA", .number(2000)), ("Status", .text("Closed"))],
            [("NAME", .text("Canyon")), ("POPULATION", .number(230_000)), ("AREA", .number(500)), ("Status", .text("Open"))],
            [("NAME", .text("Custer")), ("POPULATION", .null), ("AREA", .number(5000)), ("Status", .text("O'Neil"))],
        ])
    }

    /// Election results related to a precinct: `Sum(results, 'democrat + republican + other')`.
    static func electionResults() -> DataMemorySource {
        DataMemorySource([
            [("democrat", .number(120)), ("republican", .number(80)), ("other", .number(5))],
            [("democrat", .number(60)), ("republican", .number(90)), ("other", .number(10))],
        ])
    }
}
