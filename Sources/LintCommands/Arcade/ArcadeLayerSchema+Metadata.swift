import Arcade
import WebMap

extension ArcadeLayerSchema {
    /// What an expression evaluated on a feature of this layer or table knows of its fields: names, Esri types,
    /// aliases and coded-value domains, as the service's metadata (with the map's overrides) gives them.
    public init(metadata: LayerMetadata) {
        let fields = metadata.fields.map { field -> ArcadeLayerSchema.Field in
            var coded: [(code: ArcadeValue, name: String)]?
            if case .codedValue(_, let values) = field.domain {
                coded = values.map { (ArcadeValue(json: $0.code), $0.name) }
            }
            return ArcadeLayerSchema.Field(name: field.name, type: field.type.rawValue, alias: field.alias, codedValues: coded)
        }
        self.init(fields: fields, objectIdField: metadata.objectIdField, globalIdField: metadata.globalIdField,
                  geometryType: metadata.geometryType?.rawValue)
    }
}

extension ArcadeValue {
    /// A JSON value as Arcade sees it; with `fieldType` "esriFieldTypeDate", a number is a date in epoch
    /// milliseconds (as the REST API writes dates).
    public init(json node: JSONNode, fieldType: String? = nil) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .boolean(b)
        case .number(let n):
            self = fieldType == "esriFieldTypeDate" ? .date(ArcadeDate(epochMilliseconds: n.double)) : .number(n.double)
        case .string(let s): self = .text(s)
        case .array(let elements): self = .array(ArcadeArray(elements.map { ArcadeValue(json: $0) }))
        case .object(let object):
            self = .dictionary(ArcadeDictionary(object.uniqueMembers.map { ($0.key, ArcadeValue(json: $0.value)) }))
        }
    }
}
