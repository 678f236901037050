import Foundation

/// A value of the Arcade language (arcade.md, "Values and types").
///
/// Arrays, dictionaries and features are reference types, as in Arcade: `Push(a, 1)` changes the array that
/// every variable holding it sees. Everything else is a value.
public enum ArcadeValue {
    case null
    case boolean(Bool)
    /// Every number is a 64-bit float.
    case number(Double)
    case text(String)
    case date(ArcadeDate)
    case array(ArcadeArray)
    case dictionary(ArcadeDictionary)
    case feature(ArcadeFeature)
    case featureSet(ArcadeFeatureSet)
    case geometry(ArcadeGeometry)
    case function(ArcadeFunctionValue)
    /// `$map` or `$datastore`: what `FeatureSetByName` and `FeatureSetById` take as their first argument.
    case featureSetCollection(FeatureSetCollection)

    /// The name `TypeOf` answers: "Number", "Text", "Boolean", "Date", "Array", "Dictionary", "Feature",
    /// "FeatureSet", "Point", "Polyline", "Polygon", "Extent", "Multipoint", "Function", "Null".
    public var typeName: String {
        switch self {
        case .null: return "Null"
        case .boolean: return "Boolean"
        case .number: return "Number"
        case .text: return "Text"
        case .date: return "Date"
        case .array: return "Array"
        case .dictionary: return "Dictionary"
        case .feature: return "Feature"
        case .featureSet: return "FeatureSet"
        case .geometry(let geometry): return geometry.typeName
        case .function: return "Function"
        case .featureSetCollection: return "FeatureSetCollection"
        }
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }
}

/// An Arcade array: shared and mutable (functions such as `Push`, `Insert`, `Erase` change it in place).
public final class ArcadeArray {
    public var values: [ArcadeValue]
    public init(_ values: [ArcadeValue] = []) { self.values = values }
}

/// An Arcade dictionary: shared and mutable, keys in insertion order (`Keys` and `for-in` list them that way).
/// Keys are looked up without regard to case, as `$feature` field names are; the key keeps the spelling it was
/// first written with.
public final class ArcadeDictionary {
    public private(set) var keys: [String] = []
    private var entries: [String: (key: String, value: ArcadeValue)] = [:]

    public init(_ pairs: [(String, ArcadeValue)] = []) {
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { keys.count }

    public func hasKey(_ key: String) -> Bool { entries[key.lowercased()] != nil }

    /// The value for a key already lower-cased (compiled `$feature.Name` reads): no lower-casing per read.
    func value(forFoldedKey folded: String) -> ArcadeValue? { entries[folded]?.value }

    /// The key as stored (its first spelling), when present.
    public func storedKey(_ key: String) -> String? { entries[key.lowercased()]?.key }

    public subscript(key: String) -> ArcadeValue? {
        get { entries[key.lowercased()]?.value }
        set {
            let folded = key.lowercased()
            if let newValue {
                if let existing = entries[folded] {
                    entries[folded] = (existing.key, newValue)
                } else {
                    entries[folded] = (key, newValue)
                    keys.append(key)
                }
            } else if entries.removeValue(forKey: folded) != nil {
                keys.removeAll { $0.lowercased() == folded }
            }
        }
    }

    /// Key and value pairs in key order.
    public var pairs: [(key: String, value: ArcadeValue)] { keys.map { ($0, entries[$0.lowercased()]!.value) } }
}

/// A date: an instant (milliseconds since 1970-01-01T00:00:00Z) and the time zone its parts (`Year`, `Hour`,
/// `Text(d, 'HH:mm')`) are read in. Arcade's default zone is the profile's; MapRules' is UTC unless the layer or
/// the expression says otherwise (arcade.md).
public struct ArcadeDate {
    public var epochMilliseconds: Double
    public var timeZone: TimeZone

    public init(epochMilliseconds: Double, timeZone: TimeZone = ArcadeDate.utc) {
        self.epochMilliseconds = epochMilliseconds
        self.timeZone = timeZone
    }

    public static let utc = TimeZone(identifier: "UTC")!

    public var foundationDate: Date { Date(timeIntervalSince1970: epochMilliseconds / 1000) }
}

/// A feature: attributes (field names looked up without regard to case) and an optional geometry. `schema`
/// names the fields of the layer the feature belongs to, with their types and domains, when known: then reading
/// a field the layer does not have is a run error instead of null.
public final class ArcadeFeature {
    public let attributes: ArcadeDictionary
    public var geometry: ArcadeGeometry?
    public let schema: ArcadeLayerSchema?

    public init(attributes: ArcadeDictionary, geometry: ArcadeGeometry? = nil, schema: ArcadeLayerSchema? = nil) {
        self.attributes = attributes
        self.geometry = geometry
        self.schema = schema
    }
}

/// What a layer or table tells an expression about its fields.
public struct ArcadeLayerSchema {
    public struct Field {
        public let name: String
        /// Esri's field type name, e.g. "esriFieldTypeString", "esriFieldTypeDate".
        public let type: String
        public let alias: String?
        /// Coded values (code, name) of the field's coded-value domain, if it has one.
        public let codedValues: [(code: ArcadeValue, name: String)]?
        public init(name: String, type: String, alias: String? = nil, codedValues: [(code: ArcadeValue, name: String)]? = nil) {
            self.name = name
            self.type = type
            self.alias = alias
            self.codedValues = codedValues
        }
    }
    public let fields: [Field]
    public let objectIdField: String?
    public let globalIdField: String?
    public let typeIdField: String?
    public let geometryType: String?
    public init(fields: [Field], objectIdField: String? = nil, globalIdField: String? = nil, typeIdField: String? = nil,
                geometryType: String? = nil) {
        self.fields = fields
        self.objectIdField = objectIdField
        self.globalIdField = globalIdField
        self.typeIdField = typeIdField
        self.geometryType = geometryType
    }

    public func field(named name: String) -> Field? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }
}

/// A function as a value: a user function of the expression, or a built-in passed by name (`Filter(a, IsEmpty)`).
/// The evaluator creates these; functions of the library call them through `ArcadeCall.invoke`.
public final class ArcadeFunctionValue {
    public let name: String
    /// Opaque to the library: the evaluator's closure or declaration.
    public let implementation: AnyObject
    public init(name: String, implementation: AnyObject) {
        self.name = name
        self.implementation = implementation
    }
}
