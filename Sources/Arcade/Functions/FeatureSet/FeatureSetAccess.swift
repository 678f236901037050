import Foundation

/// What the FeatureSet functions share: the host's data access, reading features through the source with the
/// step bound counted, and the statistics over a field or SQL expression.
enum FeatureSetAccess {
    /// The host's data access, or the run error every FeatureSet function gives where there is none (`lint`,
    /// `maprules arcade` without `--service`, profiles without data access).
    static func dataAccess(_ call: ArcadeCall) throws -> ArcadeDataAccess {
        guard let access = call.context.dataAccess else {
            throw call.failure("FeatureSets are not available here: this expression is evaluated without access to "
                + "the map's data (give a service, e.g. `maprules arcade --service`)")
        }
        return access
    }

    /// The features of a FeatureSet, in its query's order, counting a step per feature.
    static func features(of set: ArcadeFeatureSet, query: ArcadeFeatureQuery? = nil, call: ArcadeCall) throws -> [ArcadeFeature] {
        let features = try sourceCall(call) { try set.source.features(matching: query ?? set.query) }
        try call.context.step(max(features.count, 1))
        return features
    }

    static func count(of set: ArcadeFeatureSet, call: ArcadeCall) throws -> Int {
        try call.context.step(1)
        return try sourceCall(call) { try set.source.count(matching: set.query) }
    }

    /// The first feature, or null when the FeatureSet is empty.
    static func first(of set: ArcadeFeatureSet, call: ArcadeCall) throws -> ArcadeValue {
        var query = set.query
        query.limit = min(query.limit ?? 1, 1)
        return try features(of: set, query: query, call: call).first.map { .feature($0) } ?? .null
    }

    /// Runs a source's method; its errors become run errors of the call (the source's message kept).
    static func sourceCall<T>(_ call: ArcadeCall, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ArcadeFunctionError {
            throw error
        } catch {
            throw call.failure("the data could not be read: \(error)")
        }
    }
}

/// The values a statistics function reads from a FeatureSet: `expression` (a field name or SQL-92 expression)
/// computed on each feature, nulls left out.
enum FeatureSetStatistics {
    static func values(of set: ArcadeFeatureSet, expression: String, call: ArcadeCall) throws -> [Double] {
        let sql: FeatureSQLExpression
        do { sql = try FeatureSQLExpression(expression) } catch let error as FeatureSQLExpression.SQLError {
            throw call.failure("'\(expression)' is not an SQL expression this can compute: \(error.message)")
        }
        var query = set.query
        query.fields = nil // the expression may read fields the FeatureSet was not asked to carry
        var values: [Double] = []
        for feature in try FeatureSetAccess.features(of: set, query: query, call: call) {
            do {
                let value = try sql.value(on: feature)
                if !value.isNull { values.append(value.numberValue) }
            } catch let error as FeatureSQLExpression.SQLError {
                throw call.failure(error.message)
            }
        }
        return values
    }
}
