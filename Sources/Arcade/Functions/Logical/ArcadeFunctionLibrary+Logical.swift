/// The logical functions of the reference (https://developers.arcgis.com/arcade/function-reference/logical_functions/):
/// Boolean, Decode, DefaultValue, IIf, IsEmpty, IsNan, TypeOf, When, Console. Decisions where the page is silent
/// are in docs/arcade.md ("Logical functions").
extension ArcadeFunctionLibrary {
    static let logicalFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Boolean", arity: 1) { call in .boolean(call[0].booleanValue) },
        ArcadeFunctionDefinition("Decode", arity: 2...Int.max) { call in
            // Decode(expression, compare1, return1, ..., default?): an even count of arguments ends with a default.
            let value = call[0]
            let pairs = (call.count - 1) / 2
            for pair in 0..<pairs {
                try call.context.step(1)
                // Compared as `==` compares: no casting between types.
                if ArcadeOperators.equals(value, call[1 + pair * 2]) { return call[2 + pair * 2] }
            }
            return call.count % 2 == 0 ? call[call.count - 1] : .null
        },
        ArcadeFunctionDefinition("DefaultValue", arity: 2...3) { call in
            if call.count == 2 { return ArcadeLogic.isEmpty(call[0]) ? call[1] : call[0] }
            return try ArcadeLogic.defaultValue(in: call[0], keys: call[1], default: call[2], call)
        },
        ArcadeFunctionDefinition("IIf", arity: 3) { call in
            guard case .boolean(let test) = call[0] else {
                throw call.failure("the condition must be a Boolean, not \(call[0].typeName)")
            }
            return test ? call[1] : call[2]
        },
        ArcadeFunctionDefinition("IsEmpty", arity: 1) { call in .boolean(ArcadeLogic.isEmpty(call[0])) },
        ArcadeFunctionDefinition("IsNan", arity: 1) { call in
            if case .number(let n) = call[0] { return .boolean(n.isNaN) }
            return .boolean(false)
        },
        ArcadeFunctionDefinition("TypeOf", arity: 1) { call in .text(call[0].typeName) },
        ArcadeFunctionDefinition("When", arity: 1...Int.max) { call in
            // When(condition1, result1, ..., default): pairs, then the default.
            guard call.count % 2 == 1 else {
                throw call.failure("needs pairs of a condition and a result, then a default value (an odd number of arguments), not \(call.count)")
            }
            for pair in 0..<(call.count - 1) / 2 {
                try call.context.step(1)
                guard case .boolean(let test) = call[pair * 2] else {
                    throw call.failure("condition \(pair + 1) must be a Boolean, not \(call[pair * 2].typeName)")
                }
                if test { return call[pair * 2 + 1] }
            }
            return call[call.count - 1]
        },
        ArcadeFunctionDefinition("Console", arity: 0...Int.max) { _ in .null },
    ]
}

/// What the logical functions share: what "empty" means and DefaultValue's key paths.
enum ArcadeLogic {
    /// `IsEmpty`: null and the empty text; an empty array or dictionary is not empty.
    static func isEmpty(_ value: ArcadeValue) -> Bool {
        switch value {
        case .null: return true
        case .text(let text): return text.isEmpty
        default: return false
        }
    }

    /// `DefaultValue(container, keys, default)`: the value at `keys` (a key or index, or an array of them, a path
    /// into nested dictionaries, features and arrays), or `default` when a step is missing or the value is empty.
    static func defaultValue(in container: ArcadeValue, keys: ArcadeValue, default fallback: ArcadeValue, _ call: ArcadeCall) throws -> ArcadeValue {
        let path: [ArcadeValue]
        if case .array(let list) = keys { path = list.values } else { path = [keys] }
        var current = container
        for key in path {
            try call.context.step(1)
            switch (current, key) {
            case (.dictionary(let dictionary), .text(let name)):
                guard let next = dictionary[name] else { return fallback }
                current = next
            case (.feature(let feature), .text(let name)):
                guard let next = feature.attributes[name] else { return fallback }
                current = next
            case (.array(let array), .number(let n)):
                guard n.isFinite, n == n.rounded() else { return fallback }
                let index = n < 0 ? Double(array.values.count) + n : n
                guard index >= 0, index < Double(array.values.count) else { return fallback }
                current = array.values[Int(index)]
            case (.dictionary, _), (.feature, _), (.array, _), (.null, _):
                return fallback
            default:
                throw call.failure("the container must be a Dictionary, a Feature or an Array, not \(current.typeName)")
            }
        }
        return isEmpty(current) ? fallback : current
    }
}
