import Foundation

/// `Average`, `Mean`, `Max`, `Median`, `Min`, `Stdev`, `Sum` and `Variance`: over numbers given one by one or in arrays
/// (`Max(23,5,120)`, `Mean(0,10,5,[0,10])`), or over a FeatureSet and a field name or SQL-92 expression
/// (`Sum($layer, 'democrat + republican')`). Values are read through `Number()`; with a FeatureSet, null values are
/// left out, as SQL aggregates do. Stdev and Variance are the population statistics (the reference's examples:
/// `Stdev(23,56,89,12,45,78)` is 27.5). No values at all: `Sum` is 0, the others NaN over numbers and null over a
/// FeatureSet (SQL's answer for an empty set).
extension ArcadeFunctionLibrary {
    static let statisticsFunctions: [ArcadeFunctionDefinition] = [
        statistic("Average", Statistic.mean),
        statistic("Mean", Statistic.mean),
        statistic("Max", Statistic.max),
        statistic("Median", Statistic.median),
        statistic("Min", Statistic.min),
        statistic("Stdev") { Foundation.sqrt(Statistic.variance($0)) },
        statistic("Sum", Statistic.sum),
        statistic("Variance", Statistic.variance),
    ]

    static func statistic(_ name: String, _ compute: @escaping ([Double]) -> Double) -> ArcadeFunctionDefinition {
        ArcadeFunctionDefinition(name, arity: 1...Int.max) { call in
            if case .featureSet(let features) = call[0] {
                guard call.count == 2 else {
                    throw call.failure("with a FeatureSet, give one field name or SQL expression")
                }
                let values = try FeatureSetStatistics.values(of: features, expression: call.dataText(1), call: call)
                if values.isEmpty { return name == "Sum" ? .number(0) : .null }
                try call.context.step(values.count)
                return .number(compute(values))
            }
            let values = ArcadeValue.dataSpread(call.arguments[...]).map(\.numberValue)
            try call.context.step(values.count)
            if values.isEmpty { return .number(name == "Sum" ? 0 : .nan) }
            return .number(compute(values))
        }
    }
}

/// The statistics themselves, over a non-empty list.
enum Statistic {
    static func sum(_ values: [Double]) -> Double { values.reduce(0, +) }
    static func mean(_ values: [Double]) -> Double { sum(values) / Double(values.count) }
    static func max(_ values: [Double]) -> Double { values.contains { $0.isNaN } ? .nan : values.max()! }
    static func min(_ values: [Double]) -> Double { values.contains { $0.isNaN } ? .nan : values.min()! }
    /// The middle value in order; with an even count, the mean of the two middle values. NaN among them: NaN.
    static func median(_ values: [Double]) -> Double {
        if values.contains(where: { $0.isNaN }) { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Population variance: the mean of the squared deviations from the mean.
    static func variance(_ values: [Double]) -> Double {
        let average = mean(values)
        return values.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(values.count)
    }
}
