import Foundation

/// The array functions that call a function for each element: `Any`, `All`, `None`, `Filter`, `Map`, `Reduce`
/// and `Sort` (with a comparator). The function may be a user function or a built-in passed by name
/// (`Filter(a, IsEmpty)`); what it answers is read as `Boolean()` reads a value where a test is expected.
/// Each call counts a step against the expression's bound.
extension ArcadeFunctionLibrary {
    static let arrayCallbackFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Any", arity: 2) { call in
            let (values, test) = (try call.dataArray(0).values, try call.dataFunction(1, named: "testFunction"))
            for value in values where try call.dataInvoke(test, [value]).booleanValue { return .boolean(true) }
            return .boolean(false)
        },
        ArcadeFunctionDefinition("All", arity: 2) { call in
            let (values, test) = (try call.dataArray(0).values, try call.dataFunction(1, named: "testFunction"))
            for value in values where try !call.dataInvoke(test, [value]).booleanValue { return .boolean(false) }
            return .boolean(true)
        },
        ArcadeFunctionDefinition("None", arity: 2) { call in
            let (values, test) = (try call.dataArray(0).values, try call.dataFunction(1, named: "testFunction"))
            for value in values where try call.dataInvoke(test, [value]).booleanValue { return .boolean(false) }
            return .boolean(true)
        },
        ArcadeFunctionDefinition("Filter", arity: 2) { call in
            if case .featureSet(let set) = call[0] {
                guard case .text(let sql) = call[1] else {
                    throw call.failure("with a FeatureSet, the filter must be an SQL expression (Text), not \(call[1].typeName)")
                }
                let clause = try FilterVariables.substitute(sql, call: call)
                return .featureSet(set.with { $0.whereClauses.append(clause) })
            }
            let (values, test) = (try call.dataArray(0).values, try call.dataFunction(1, named: "filterFunction"))
            return .array(ArcadeArray(try values.filter { try call.dataInvoke(test, [$0]).booleanValue }))
        },
        ArcadeFunctionDefinition("Map", arity: 2) { call in
            let (values, mapping) = (try call.dataArray(0).values, try call.dataFunction(1, named: "mappingFunction"))
            return .array(ArcadeArray(try values.map { try call.dataInvoke(mapping, [$0]) }))
        },
        ArcadeFunctionDefinition("Reduce", arity: 2...3) { call in
            let (values, reducer) = (try call.dataArray(0).values, try call.dataFunction(1, named: "reducerFunction"))
            // Without initialValue the first element starts; an empty array then has nothing to reduce: null.
            var rest = values[...]
            guard var accumulated = call.count == 3 ? call[2] : rest.popFirst() else { return .null }
            for value in rest { accumulated = try call.dataInvoke(reducer, [accumulated, value]) }
            return accumulated
        },
        ArcadeFunctionDefinition("Sort", arity: 1...2) { call in
            let array = try call.dataArray(0)
            if call.count == 2, !call[1].isNull {
                let comparator = try call.dataFunction(1, named: "comparatorFunction")
                return .array(ArcadeArray(try ArraySort.stableSorted(array.values, call: call) { a, b in
                    try call.dataInvoke(comparator, [a, b]).numberValue
                }))
            }
            return .array(ArcadeArray(try ArraySort.sortedWithoutFunction(array.values, call: call)))
        },
    ]
}
