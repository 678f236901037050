import Foundation

/// The Dictionary category and the Data functions that need no portal or service
/// (https://developers.arcgis.com/arcade/function-reference/dictionary_functions/,
/// https://developers.arcgis.com/arcade/function-reference/data_functions/): dictionaries, JSON, features and
/// what a feature's layer says about its fields (`Schema`, `Domain`, `DomainName`, `DomainCode` in
/// `FieldDescriptionFunctions.swift`). Keys are matched without regard to case, as `$feature` fields are.
extension ArcadeFunctionLibrary {
    static let dictionaryFunctions: [ArcadeFunctionDefinition] = dictionaryBuildingFunctions + dictionaryReadingFunctions
        + fieldDescriptionFunctions

    static let dictionaryBuildingFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("Dictionary", arity: 0...Int.max) { call in
            if call.count == 0 { return .dictionary(ArcadeDictionary()) }
            if case .dictionary(let source) = call[0], call.count <= 2 { // Dictionary(inputDictionary, deep?): a copy
                return .dictionary(try ArrayCopy.copy(source, deep: call[1].booleanValue, call: call))
            }
            if call.count == 1 {
                guard case .text(let json) = call[0] else {
                    throw call.failure("with one argument, give JSON text or a dictionary, not \(call[0].typeName)")
                }
                guard case .dictionary(let dictionary) = try readJSON(json, call: call) else {
                    throw call.failure("the JSON text is not an object ({...})")
                }
                return .dictionary(dictionary)
            }
            guard call.count % 2 == 0 else { throw call.failure("names and values must come in pairs; \(call.count) arguments were given") }
            try call.context.step(call.count / 2)
            return .dictionary(ArcadeDictionary(stride(from: 0, to: call.count, by: 2).map { (call.dataText($0), call[$0 + 1]) }))
        },
        ArcadeFunctionDefinition("FromJSON", arity: 1) { call in
            guard case .text(let json) = call[0] else { throw call.failure("jsonText must be Text, not \(call[0].typeName)") }
            return try readJSON(json, call: call)
        },
        ArcadeFunctionDefinition("Feature", arity: 1...Int.max) { call in .feature(try FeatureConstructor.feature(call)) },
        ArcadeFunctionDefinition("Expects", arity: 1...Int.max) { _ in .null },
    ]

    static let dictionaryReadingFunctions: [ArcadeFunctionDefinition] = [
        ArcadeFunctionDefinition("HasKey", arity: 2) { call in
            let key = call.dataText(1)
            switch call[0] {
            case .dictionary(let dictionary): return .boolean(dictionary.hasKey(key))
            case .feature(let feature): return .boolean(feature.attributes.hasKey(key) || feature.schema?.field(named: key) != nil)
            default: throw call.failure("dictionaryOrFeature must be a Dictionary or Feature, not \(call[0].typeName)")
            }
        },
        ArcadeFunctionDefinition("HasValue", arity: 2) { call in
            // A key, or a path of keys and array indexes (`HasValue(d, ['a', 0, 'b'])`): true when every step exists
            // and the value at the end is not null.
            let path: [ArcadeValue]
            if case .array(let steps) = call[1] { path = steps.values } else { path = [call[1]] }
            var current = call[0]
            for step in path {
                switch current {
                case .dictionary(let dictionary): current = dictionary[step.textValue] ?? .null
                case .feature(let feature): current = feature.attributes[step.textValue] ?? .null
                case .array(let array):
                    let index = step.numberValue
                    guard case .number = step, index.isFinite, index == index.rounded(), index >= 0, index < Double(array.values.count) else {
                        return .boolean(false)
                    }
                    current = array.values[Int(index)]
                default: return .boolean(false)
                }
            }
            return .boolean(!current.isNull)
        },
        ArcadeFunctionDefinition("Keys", arity: 1) { call in
            switch call[0] {
            case .dictionary(let dictionary): return .array(ArcadeArray(dictionary.keys.map { .text($0) }))
            case .feature(let feature): return .array(ArcadeArray(feature.attributes.keys.map { .text($0) }))
            default: throw call.failure("dictionary must be a Dictionary or Feature, not \(call[0].typeName)")
            }
        },
    ]

    static func readJSON(_ json: String, call: ArcadeCall) throws -> ArcadeValue {
        try call.context.step(max(json.utf8.count / 64, 1))
        do { return try DataJSONReader.read(json) } catch let error as DataJSONReader.Failure {
            throw call.failure("the text is not JSON: \(error.message)")
        }
    }
}

/// `Feature(...)`, every form the reference shows: `Feature(geometry, 'name', value, ...)`,
/// `Feature(geometry, attributes)`, `Feature(feature)` (a copy), `Feature({geometry, attributes})` and
/// `Feature(jsonText)` (single-quoted JSON accepted, as the reference's example writes it). The geometry may be null.
enum FeatureConstructor {
    static func feature(_ call: ArcadeCall) throws -> ArcadeFeature {
        if call.count == 1 {
            switch call[0] {
            case .feature(let feature):
                return ArcadeFeature(attributes: ArcadeDictionary(feature.attributes.pairs.map { ($0.key, $0.value) }),
                                     geometry: feature.geometry, schema: feature.schema)
            case .dictionary(let json): return try fromJSON(json, call: call)
            case .text(let text):
                let parsed: ArcadeValue
                do { parsed = try DataJSONReader.read(text, singleQuotes: true) } catch let error as DataJSONReader.Failure {
                    throw call.failure("the text is not feature JSON: \(error.message)")
                }
                guard case .dictionary(let json) = parsed else { throw call.failure("the feature JSON must be an object") }
                return try fromJSON(json, call: call)
            default: throw call.failure("a feature, dictionary or JSON text was expected, not \(call[0].typeName)")
            }
        }
        let geometry = try GeometryReader.geometry(from: call[0], call: call)
        if call.count == 2 {
            guard case .dictionary(let attributes) = call[1] else {
                throw call.failure("attributes must be a Dictionary, not \(call[1].typeName)")
            }
            return ArcadeFeature(attributes: ArcadeDictionary(attributes.pairs.map { ($0.key, $0.value) }), geometry: geometry)
        }
        guard call.count % 2 == 1 else { throw call.failure("attribute names and values must come in pairs after the geometry") }
        let pairs = stride(from: 1, to: call.count, by: 2).map { (call.dataText($0), call[$0 + 1]) }
        return ArcadeFeature(attributes: ArcadeDictionary(pairs), geometry: geometry)
    }

    static func fromJSON(_ json: ArcadeDictionary, call: ArcadeCall) throws -> ArcadeFeature {
        let geometry = try GeometryReader.geometry(from: json["geometry"] ?? .null, call: call)
        let attributes: ArcadeDictionary
        switch json["attributes"] ?? .null {
        case .null: attributes = ArcadeDictionary()
        case .dictionary(let given): attributes = ArcadeDictionary(given.pairs.map { ($0.key, $0.value) })
        default: throw call.failure("the feature's attributes must be a dictionary")
        }
        return ArcadeFeature(attributes: attributes, geometry: geometry)
    }
}
