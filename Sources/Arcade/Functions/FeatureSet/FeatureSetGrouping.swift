import Foundation

/// `Distinct(features, fields)` and `GroupBy(features, groupByFields, statistics)`: MapRules reads the FeatureSet's
/// features from its source and computes the answer itself, as a new FeatureSet held in memory
/// (`JSONFeatureSource`), so it can be filtered, ordered and counted further. Columns are given as a field name, an
/// array of names, a `{name, expression}` dictionary or an array of them (an SQL-92 expression read as the
/// statistics' expressions are). Groups come in the order their first feature was read. A statistic is
/// `{name, expression, statistic}` with SUM, COUNT (features whose expression is not null), MIN, MAX, AVG, STDEV,
/// VAR; STDEV and VAR are the population statistics, as Arcade's `Stdev` and `Variance`.
enum FeatureSetGrouping {
    struct Column { let name: String; let expression: FeatureSQLExpression }
    struct Aggregate { let column: Column; let kind: String }

    static func distinct(_ set: ArcadeFeatureSet, _ spec: ArcadeValue, call: ArcadeCall) throws -> ArcadeFeatureSet {
        try group(set, columns(spec, call: call), statistics: [], call: call)
    }

    static func groupBy(_ set: ArcadeFeatureSet, _ spec: ArcadeValue, _ statisticsSpec: ArcadeValue, call: ArcadeCall) throws -> ArcadeFeatureSet {
        let entries: [ArcadeValue]
        if case .array(let list) = statisticsSpec { entries = list.values } else { entries = [statisticsSpec] }
        let statistics = try entries.map { entry -> Aggregate in
            guard case .dictionary(let d) = entry, let name = d["name"]?.textValue, let expression = d["expression"]?.textValue,
                  let kind = d["statistic"]?.textValue.uppercased() else {
                throw call.failure("each statistic must be {name, expression, statistic}")
            }
            guard ["SUM", "COUNT", "MIN", "MAX", "AVG", "STDEV", "VAR"].contains(kind) else {
                throw call.failure("'\(kind)' is not a statistic (SUM, COUNT, MIN, MAX, AVG, STDEV, VAR)")
            }
            return Aggregate(column: try column(name, expression, call: call), kind: kind)
        }
        return try group(set, columns(spec, call: call), statistics: statistics, call: call)
    }

    static func columns(_ spec: ArcadeValue, call: ArcadeCall) throws -> [Column] {
        let entries: [ArcadeValue]
        if case .array(let list) = spec { entries = list.values } else { entries = [spec] }
        guard !entries.isEmpty else { throw call.failure("give at least one field or expression") }
        return try entries.map { entry in
            switch entry {
            case .text(let name): return try column(name, name, call: call)
            case .dictionary(let d):
                guard let name = d["name"]?.textValue, let expression = d["expression"]?.textValue else {
                    throw call.failure("a column must be {name, expression}")
                }
                return try column(name, expression, call: call)
            default: throw call.failure("a column must be a field name or {name, expression}, not \(entry.typeName)")
            }
        }
    }

    static func column(_ name: String, _ expression: String, call: ArcadeCall) throws -> Column {
        do { return Column(name: name, expression: try FeatureSQLExpression(expression)) } catch let error as FeatureSQLExpression.SQLError {
            throw call.failure("'\(expression)' is not an SQL expression this can compute: \(error.message)")
        }
    }

    static func group(_ set: ArcadeFeatureSet, _ columns: [Column], statistics: [Aggregate], call: ArcadeCall) throws -> ArcadeFeatureSet {
        var query = set.query
        query.fields = nil
        var order: [[DataEquality.Key]] = []
        var groups: [[DataEquality.Key]: (values: [ArcadeValue], samples: [[Double]])] = [:]
        for feature in try FeatureSetAccess.features(of: set, query: query, call: call) {
            let values = try columns.map { try evaluate($0.expression, feature, call) }
            let key = values.map(DataEquality.key)
            if groups[key] == nil { order.append(key); groups[key] = (values, Array(repeating: [], count: statistics.count)) }
            for (index, statistic) in statistics.enumerated() {
                let value = try evaluate(statistic.column.expression, feature, call)
                if !value.isNull { groups[key]!.samples[index].append(value.numberValue) }
            }
        }
        let features = order.map { key -> ArcadeFeature in
            let group = groups[key]!
            var pairs = zip(columns, group.values).map { ($0.name, $1) }
            for (statistic, samples) in zip(statistics, group.samples) { pairs.append((statistic.column.name, summary(statistic.kind, samples))) }
            return ArcadeFeature(attributes: ArcadeDictionary(pairs))
        }
        let fields = (columns.map(\.name) + statistics.map(\.column.name)).map { name -> ArcadeLayerSchema.Field in
            let sample = features.lazy.compactMap { $0.attributes[name] }.first { !$0.isNull }
            let type = set.source.schema?.field(named: name)?.type ?? {
                switch sample {
                case .number?: return "esriFieldTypeDouble"
                case .date?: return "esriFieldTypeDate"
                default: return "esriFieldTypeString"
                }
            }()
            return ArcadeLayerSchema.Field(name: name, type: type, alias: name)
        }
        let schema = ArcadeLayerSchema(fields: fields, geometryType: "esriGeometryNull")
        return ArcadeFeatureSet(source: JSONFeatureSource(schema: schema, features: features.map {
            ArcadeFeature(attributes: $0.attributes, schema: schema)
        }))
    }

    static func evaluate(_ expression: FeatureSQLExpression, _ feature: ArcadeFeature, _ call: ArcadeCall) throws -> ArcadeValue {
        do { return try expression.value(on: feature) } catch let error as FeatureSQLExpression.SQLError {
            throw call.failure(error.message)
        }
    }

    static func summary(_ kind: String, _ samples: [Double]) -> ArcadeValue {
        if kind == "COUNT" { return .number(Double(samples.count)) }
        guard !samples.isEmpty else { return .null }
        switch kind {
        case "SUM": return .number(Statistic.sum(samples))
        case "MIN": return .number(Statistic.min(samples))
        case "MAX": return .number(Statistic.max(samples))
        case "AVG": return .number(Statistic.mean(samples))
        case "STDEV": return .number(Foundation.sqrt(Statistic.variance(samples)))
        default: return .number(Statistic.variance(samples))
        }
    }
}
