/// Reading and writing parts of values: `d.key`, `d["key"]`, `a[0]`, `$feature.Field`, `text[0]`, geometry
/// members (`point.x`, `polygon.rings`).
enum ArcadeAccess {
    static func get(_ object: ArcadeValue, _ key: ArcadeValue, _ range: ArcadeSourceRange) throws -> ArcadeValue {
        switch object {
        case .dictionary(let dictionary):
            let name = try keyText(key, object, range)
            guard let value = dictionary[name] else {
                throw ArcadeError(ArcadeError.runtimeError, "the dictionary has no key '\(name.prefix(100))'", at: range)
            }
            return value
        case .feature(let feature):
            return try field(feature, try keyText(key, object, range), range)
        case .array(let array):
            let index = try position(key, count: array.values.count, object, range)
            return array.values[index]
        case .text(let text):
            // One code unit, found through the string's UTF-16 breadcrumbs (no copy of the text per index).
            let units = text.utf16
            let index = try position(key, count: units.count, object, range)
            return .text(UTF16Text.string(CollectionOfOne(units[units.index(units.startIndex, offsetBy: index)])))
        case .geometry(let geometry):
            return try member(geometry, try keyText(key, object, range), range)
        case .null:
            throw ArcadeError(ArcadeError.runtimeError, "cannot read '\(key.textValue.prefix(100))' of null", at: range)
        default:
            throw ArcadeError(ArcadeError.runtimeError, "\(ArcadeAccess.article(object.typeName)) \(object.typeName) has no members or indexes ('\(key.textValue.prefix(100))')", at: range)
        }
    }

    static func set(_ object: ArcadeValue, _ key: ArcadeValue, _ value: ArcadeValue, _ run: ArcadeRun, _ range: ArcadeSourceRange) throws {
        if case .feature(let feature) = object, feature === run.context.feature || feature === run.context.originalFeature {
            throw ArcadeError(ArcadeError.runtimeError, "$feature and $originalFeature cannot be changed by an expression; copy the values you need into a variable or a Dictionary", at: range)
        }
        switch object {
        case .dictionary(let dictionary):
            dictionary[try keyText(key, object, range)] = value
        case .array(let array):
            // One past the end appends, as in JavaScript; further is an error.
            let count = array.values.count
            if case .number(let n) = key, n == Double(count) {
                array.values.append(value)
                return
            }
            array.values[try position(key, count: count, object, range)] = value
        case .feature(let feature):
            let name = try keyText(key, object, range)
            if feature.attributes.hasKey(name) || feature.schema?.field(named: name) != nil || feature.schema == nil {
                feature.attributes[feature.attributes.storedKey(name) ?? feature.schema?.field(named: name)?.name ?? name] = value
            } else {
                throw ArcadeError(ArcadeError.runtimeError, "the feature has no field '\(name.prefix(100))'", at: range)
            }
        default:
            throw ArcadeError(ArcadeError.runtimeError, "cannot assign a member or index of \(ArcadeAccess.article(object.typeName)) \(object.typeName)", at: range)
        }
    }

    /// "a" or "an" before a type name.
    static func article(_ typeName: String) -> String {
        "AEIOU".contains(typeName.prefix(1)) ? "an" : "a"
    }

    static func keyText(_ key: ArcadeValue, _ object: ArcadeValue, _ range: ArcadeSourceRange) throws -> String {
        if case .text(let text) = key { return text }
        if case .number = key { return key.textValue }
        throw ArcadeError(ArcadeError.runtimeError, "\(ArcadeAccess.article(object.typeName)) \(object.typeName) is indexed by Text, not \(key.typeName)", at: range)
    }

    /// An index into `count` elements: a whole number, negative counting from the end.
    static func position(_ key: ArcadeValue, count: Int, _ object: ArcadeValue, _ range: ArcadeSourceRange) throws -> Int {
        guard case .number(let n) = key else {
            throw ArcadeError(ArcadeError.runtimeError, "\(ArcadeAccess.article(object.typeName)) \(object.typeName) is indexed by a Number, not \(key.typeName)", at: range)
        }
        guard n.isFinite, n == n.rounded(), abs(n) <= 1e15 else {
            throw ArcadeError(ArcadeError.runtimeError, "the index \(ArcadeValue.formatNumber(n)) is not a whole number", at: range)
        }
        let index = n < 0 ? count + Int(n) : Int(n)
        guard index >= 0 && index < count else {
            throw ArcadeError(ArcadeError.runtimeError,
                              "index \(ArcadeValue.formatNumber(n)) is out of range: the \(object.typeName) has \(count) element\(count == 1 ? "" : "s")",
                              at: range)
        }
        return index
    }

    /// A field of a feature: its value, null when the layer has the field but the feature no value, an error when
    /// the layer (or, without a schema, the feature) has no such field.
    @inline(__always)
    static func field(_ feature: ArcadeFeature, _ name: String, _ range: ArcadeSourceRange) throws -> ArcadeValue {
        if let value = feature.attributes[name] { return value }
        return try missingField(feature, name, range)
    }

    /// A field read by a compiled `$feature.Name`: the name is already lower-cased.
    @inline(__always)
    static func field(_ feature: ArcadeFeature, folded: String, _ name: String, _ range: ArcadeSourceRange) throws -> ArcadeValue {
        if let value = feature.attributes.value(forFoldedKey: folded) { return value }
        return try missingField(feature, name, range)
    }

    static func missingField(_ feature: ArcadeFeature, _ name: String, _ range: ArcadeSourceRange) throws -> ArcadeValue {
        if let schema = feature.schema, schema.field(named: name) != nil { return .null }
        throw ArcadeError(ArcadeError.runtimeError, "the feature has no field '\(name.prefix(100))'", at: range)
    }

    static func member(_ geometry: ArcadeGeometry, _ name: String, _ range: ArcadeSourceRange) throws -> ArcadeValue {
        func spatialReference(_ wkid: Int?) -> ArcadeValue {
            .dictionary(ArcadeDictionary([("wkid", wkid.map { .number(Double($0)) } ?? .null)]))
        }
        func point(_ p: ArcadePoint) -> ArcadeValue {
            var values: [ArcadeValue] = [.number(p.x), .number(p.y)]
            if let z = p.z { values.append(.number(z)) }
            if let m = p.m { values.append(.number(m)) }
            return .array(ArcadeArray(values))
        }
        func paths(_ paths: [[ArcadePoint]]) -> ArcadeValue {
            .array(ArcadeArray(paths.map { .array(ArcadeArray($0.map(point))) }))
        }
        let key = name.lowercased()
        if key == "type" { return .text(geometry.typeName) }
        if key == "spatialreference" { return spatialReference(geometry.wkid) }
        switch (geometry, key) {
        case (.point(let p), "x"): return .number(p.x)
        case (.point(let p), "y"): return .number(p.y)
        case (.point(let p), "z"): return p.z.map { .number($0) } ?? .null
        case (.point(let p), "m"): return p.m.map { .number($0) } ?? .null
        case (.point(let p), "hasz"): return .boolean(p.z != nil)
        case (.point(let p), "hasm"): return .boolean(p.m != nil)
        case (.multipoint(let points, _), "points"): return .array(ArcadeArray(points.map(point)))
        case (.polyline(let lines, _), "paths"): return paths(lines)
        case (.polygon(let rings, _), "rings"): return paths(rings)
        case (.extent(let xmin, _, _, _, _), "xmin"): return .number(xmin)
        case (.extent(_, let ymin, _, _, _), "ymin"): return .number(ymin)
        case (.extent(_, _, let xmax, _, _), "xmax"): return .number(xmax)
        case (.extent(_, _, _, let ymax, _), "ymax"): return .number(ymax)
        default:
            throw ArcadeError(ArcadeError.runtimeError, "\(ArcadeAccess.article(geometry.typeName)) \(geometry.typeName) has no member '\(name.prefix(100))'", at: range)
        }
    }
}

/// `object.name` and `object[index]`.
final class MemberNode: ExpressionNode {
    let object: ExpressionNode
    let key: ExpressionNode
    init(_ object: ExpressionNode, _ key: ExpressionNode, range: ArcadeSourceRange) {
        self.object = object
        self.key = key
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        let value = try object.evaluate(run)
        return try ArcadeAccess.get(value, try key.evaluate(run), range)
    }
}

/// `$feature.Name`, `$feature["Name"]`, `$originalFeature.Name`: the field name is known when compiling.
final class FeatureFieldNode: ExpressionNode {
    let original: Bool
    let name: String
    let folded: String
    init(original: Bool, name: String, range: ArcadeSourceRange) {
        self.original = original
        self.name = name
        self.folded = name.lowercased()
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        if !original, let feature = run.feature { return try ArcadeAccess.field(feature, folded: folded, name, range) }
        let feature = try ProfileVariableNode.feature(original: original, run, range)
        if original && run.context.originalFeature == nil { return .null }   // inserted: nothing was loaded
        return try ArcadeAccess.field(feature, folded: folded, name, range)
    }
}
