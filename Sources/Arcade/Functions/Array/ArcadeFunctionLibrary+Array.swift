import Foundation

/// The Array category (https://developers.arcgis.com/arcade/function-reference/array_functions/): building,
/// reading and changing arrays. Arrays are shared: `Push`, `Insert`, `Erase`, `Pop`, `Resize` and `Reverse` change
/// the array every variable holding it sees. `Count`, `First`, `Top`, `Distinct` and `Filter` (in
/// `ArrayCallbackFunctions.swift`) also take FeatureSets; `Count`, `Includes` and `Reverse` also take text.
extension ArcadeFunctionLibrary {
    static let arrayFunctions: [ArcadeFunctionDefinition] = arrayBuildingFunctions + arrayReadingFunctions
        + arrayChangingFunctions + arrayCallbackFunctions

    static let arrayBuildingFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Array", arity: 1...2) { call in
            if case .array(let source) = call[0] { // Array(inputArray, deep?): a copy
                return .array(try ArrayCopy.copy(source, deep: call[1].booleanValue, call: call))
            }
            let length = try call.dataInteger(0, named: "value")
            guard length >= 0 else { throw call.failure("the length must not be negative, not \(length)") }
            try call.context.step(length)
            return .array(ArcadeArray(Swift.Array(repeating: call[1], count: length)))
        },
        ArcadeFunctionDefinition("Splice", arity: 0...Int.max) { call in
            let values = ArcadeValue.dataSpread(call.arguments[...])
            try call.context.step(values.count)
            return .array(ArcadeArray(values))
        },
        ArcadeFunctionDefinition("Slice", arity: 1...3) { call in
            let array = try call.dataArray(0)
            let count = array.values.count
            // Bounds past the array are clamped, as JavaScript's slice (any finite number is taken).
            let start = ArrayIndex.clamped(try call.dataClampedInteger(1, named: "startIndex", default: 0), count: count)
            let end = ArrayIndex.clamped(try call.dataClampedInteger(2, named: "endIndex", default: count), count: count)
            try call.context.step(max(end - start, 0))
            return .array(ArcadeArray(start < end ? Swift.Array(array.values[start..<end]) : []))
        },
        ArcadeFunctionDefinition("Top", arity: 2) { call in
            let number = try call.dataClampedInteger(1, named: "numItems")
            guard number >= 0 else { throw call.failure("numItems must not be negative, not \(number)") }
            if case .featureSet(let set) = call[0] {
                return .featureSet(set.with { $0.limit = min($0.limit ?? number, number) })
            }
            let array = try call.dataArray(0)
            let end = min(number, array.values.count)
            try call.context.step(end)
            return .array(ArcadeArray(Swift.Array(array.values[0..<end])))
        },
        ArcadeFunctionDefinition("Distinct", arity: 1...Int.max) { call in
            if case .featureSet(let set) = call[0] {
                guard call.count == 2 else { throw call.failure("with a FeatureSet, give the fields: Distinct(features, fields)") }
                return .featureSet(try FeatureSetGrouping.distinct(set, call[1], call: call))
            }
            var unique: [ArcadeValue] = []
            var seen = Set<DataEquality.Key>()
            // The budget first: an array too long to go through is refused before it is copied.
            try call.context.step(call.arguments.reduce(0) { count, argument in
                if case .array(let array) = argument { return count + array.values.count }
                return count + 1
            })
            let values = ArcadeValue.dataSpread(call.arguments[...])
            for value in values where seen.insert(DataEquality.key(value)).inserted { unique.append(value) }
            return .array(ArcadeArray(unique))
        },
    ]

    static let arrayReadingFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Count", arity: 1) { call in
            switch call[0] {
            case .array(let array): return .number(Double(array.values.count))
            case .text(let text): return .number(Double(text.utf16.count)) // UTF-16 code units, as the text functions
            case .dictionary(let dictionary): return .number(Double(dictionary.count))
            case .featureSet(let set): return .number(Double(try FeatureSetAccess.count(of: set, call: call)))
            default: throw call.failure("value must be an Array, Text, Dictionary or FeatureSet, not \(call[0].typeName)")
            }
        },
        ArcadeFunctionDefinition("First", arity: 1) { call in
            if case .featureSet(let set) = call[0] { return try FeatureSetAccess.first(of: set, call: call) }
            return try call.dataArray(0).values.first ?? .null
        },
        ArcadeFunctionDefinition("Front", arity: 1) { call in
            guard let value = try call.dataArray(0).values.first else { throw call.failure("the array is empty") }
            return value
        },
        ArcadeFunctionDefinition("Back", arity: 1) { call in
            guard let value = try call.dataArray(0).values.last else { throw call.failure("the array is empty") }
            return value
        },
        ArcadeFunctionDefinition("IndexOf", arity: 2) { call in
            let values = try call.dataArray(0).values
            try call.context.step(values.count)
            return .number(Double(values.firstIndex { DataEquality.equal($0, call[1]) } ?? -1))
        },
        ArcadeFunctionDefinition("Includes", arity: 2) { call in
            if case .text(let text) = call[0] { return .boolean(TextSearch.contains(text, call[1].textValue)) }
            let values = try call.dataArray(0).values
            try call.context.step(values.count)
            return .boolean(values.contains { DataEquality.equal($0, call[1]) })
        },
    ]

    static let arrayChangingFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Push", arity: 2) { call in
            let array = try call.dataArray(0)
            guard array.values.count < DataLimits.maximumArrayLength else {
                throw call.failure("the array already has \(array.values.count) elements, the most allowed here")
            }
            array.values.append(call[1])
            return .number(Double(array.values.count))
        },
        ArcadeFunctionDefinition("Pop", arity: 1) { call in
            let array = try call.dataArray(0)
            guard let value = array.values.popLast() else { throw call.failure("the array is empty") }
            return value
        },
        ArcadeFunctionDefinition("Insert", arity: 3) { call in
            let array = try call.dataArray(0)
            let count = array.values.count
            let index = try ArrayIndex.resolve(try call.dataInteger(1, named: "index"), count: count, allowEnd: true, call: call)
            guard count < DataLimits.maximumArrayLength else { throw call.failure("the array is too long to grow") }
            try call.context.step(count - index + 1)
            array.values.insert(call[2], at: index)
            return .null
        },
        ArcadeFunctionDefinition("Erase", arity: 2) { call in
            let array = try call.dataArray(0)
            let count = array.values.count
            let index = try ArrayIndex.resolve(try call.dataInteger(1, named: "index"), count: count, allowEnd: false, call: call)
            try call.context.step(count - index)
            array.values.remove(at: index)
            return .null
        },
        ArcadeFunctionDefinition("Resize", arity: 2...3) { call in
            let array = try call.dataArray(0)
            let size = try call.dataInteger(1, named: "newSize")
            guard size >= 0 else { throw call.failure("newSize must not be negative, not \(size)") }
            let count = array.values.count
            if size < count {
                array.values.removeLast(count - size)
            } else if size > count {
                try call.context.step(size - count)
                array.values.append(contentsOf: repeatElement(call[2], count: size - count))
            }
            return .null
        },
        ArcadeFunctionDefinition("Reverse", arity: 1) { call in
            if case .text(let text) = call[0] { return .text(String(text.reversed())) }
            let array = try call.dataArray(0)
            try call.context.step(array.values.count)
            array.values.reverse()
            return .array(array)
        },
    ]
}

/// Index arguments: a negative index counts from the end (`Erase(a, -1)` removes the last element).
enum ArrayIndex {
    static func resolve(_ index: Int, count: Int, allowEnd: Bool, call: ArcadeCall) throws -> Int {
        let resolved = index < 0 ? index + count : index
        let upper = allowEnd ? count : count - 1
        guard resolved >= 0, resolved <= upper else {
            throw call.failure("index \(index) is out of range for an array of \(count) element\(count == 1 ? "" : "s")")
        }
        return resolved
    }

    /// For `Slice`: negative counts from the end, then kept within 0...count (as JavaScript's slice).
    static func clamped(_ index: Int, count: Int) -> Int {
        let resolved = index < 0 ? index + count : index
        return min(max(resolved, 0), count)
    }
}
