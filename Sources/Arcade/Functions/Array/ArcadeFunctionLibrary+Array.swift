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
            if case .featureSet = call[0] {
                throw call.failure("Distinct on a FeatureSet (unique values as a new FeatureSet) is not supported here")
            }
            var unique: [ArcadeValue] = []
            var seen = Set<DataEquality.Key>()
            let values = ArcadeValue.dataSpread(call.arguments[...])
            try call.context.step(values.count)
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

/// `Includes(text, part)`: a search on the UTF-8 bytes (the same answer as on characters' code units, and fast on
/// 10 MB texts).
enum TextSearch {
    static func contains(_ text: String, _ part: String) -> Bool {
        if part.isEmpty { return true }
        var text = text, part = part
        text.makeContiguousUTF8()
        part.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { haystack in
            part.utf8.withContiguousStorageIfAvailable { needle in
                find(needle, in: haystack)
            } ?? false
        } ?? text.contains(part)
    }

    /// memchr for the first byte, memcmp for the rest.
    static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let h = haystack.baseAddress, let n = needle.baseAddress, needle.count <= haystack.count else { return false }
        var offset = 0
        let last = haystack.count - needle.count
        while offset <= last {
            guard let hit = memchr(h + offset, Int32(n.pointee), last - offset + 1) else { return false }
            let position = h.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(h + position, n, needle.count) == 0 { return true }
            offset = position + 1
        }
        return false
    }
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

/// Copies for `Array(inputArray, deep)` and `Dictionary(inputDictionary, deep)`: deep copies copy nested arrays
/// and dictionaries too, up to 256 levels (an array that holds itself is a run error, not an endless copy).
enum ArrayCopy {
    static func copy(_ array: ArcadeArray, deep: Bool, call: ArcadeCall) throws -> ArcadeArray {
        try call.context.step(array.values.count)
        guard deep else { return ArcadeArray(array.values) }
        return ArcadeArray(try array.values.map { try copyValue($0, depth: 1, call: call) })
    }

    static func copy(_ dictionary: ArcadeDictionary, deep: Bool, call: ArcadeCall) throws -> ArcadeDictionary {
        try call.context.step(dictionary.count)
        let pairs = try dictionary.pairs.map { ($0.key, deep ? try copyValue($0.value, depth: 1, call: call) : $0.value) }
        return ArcadeDictionary(pairs)
    }

    static func copyValue(_ value: ArcadeValue, depth: Int, call: ArcadeCall) throws -> ArcadeValue {
        guard depth <= 256 else { throw call.failure("the value is nested too deeply (or holds itself) to copy") }
        switch value {
        case .array(let array):
            try call.context.step(array.values.count)
            return .array(ArcadeArray(try array.values.map { try copyValue($0, depth: depth + 1, call: call) }))
        case .dictionary(let dictionary):
            try call.context.step(dictionary.count)
            return .dictionary(ArcadeDictionary(try dictionary.pairs.map { ($0.key, try copyValue($0.value, depth: depth + 1, call: call)) }))
        default: return value
        }
    }
}
