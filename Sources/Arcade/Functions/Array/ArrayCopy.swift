import Foundation

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
