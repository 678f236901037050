import Foundation
import Service
import FeatureServiceModel
import WebMap

extension HTMLPages {
    /// A layer's or table's page: facts, fields (with domains), relationships, templates and a drawing.
    struct LayerPage {
        struct Field {
            var name: String
            var type: String
            var alias: String
            var length: String
            var nullable: String
            var editable: String
            var domain: Domain?
        }

        struct Domain {
            var domainName: String
            var domainKind: String
            var codedValues: [CodedValue]
            var hasCodedValues: Bool
            var range: String?
        }

        struct CodedValue {
            var code: String
            var label: String
        }

        struct Relationship {
            var id: String
            var name: String
            var relatedHref: String
            var relatedLabel: String
            var cardinality: String
            var role: String
            var keyField: String
        }

        struct Template {
            struct Attribute {
                var field: String
                var value: String
            }

            var name: String
            var description: String
            var attributes: [Attribute]
        }

        var chrome: Chrome
        var layerDescription: String?
        var facts: [Fact]
        var capabilities: [String]
        var queryHref: String
        var drawing: FeatureDrawing?
        var fields: [Field]
        var relationships: [Relationship]
        var hasRelationships: Bool
        var templates: [Template]
        var hasTemplates: Bool
        var version = SiteInfo.serverFullVersion
    }

    /// From `layerInfo(service:layer:as:)`, with the drawing of a query's features (nil for a table).
    static func layer(service: String, id: Int, _ info: JSON, tableNames: [Int: String], drawing: FeatureDrawing?, chrome: Chrome) -> LayerPage {
        var facts: [Fact] = [Fact(term: "Type", detail: info["type"]?.string ?? "")]
        if let geometry = info["geometryType"]?.string { facts.append(Fact(term: "Geometry type", detail: shortType(geometry))) }
        for (term, key) in [("Object id field", "objectIdField"), ("Global id field", "globalIdField"), ("Display field", "displayField")] {
            if let value = nonEmpty(info[key]?.string) { facts.append(Fact(term: term, detail: value)) }
        }
        if let sr = spatialReference(info["extent"]?["spatialReference"] ?? info["spatialReference"]) {
            facts.append(Fact(term: "Spatial reference", detail: sr))
        }
        if let max = info["maxRecordCount"]?.int { facts.append(Fact(term: "Max record count", detail: "\(max)")) }
        facts.append(Fact(term: "Attachments", detail: yesNo(info["hasAttachments"]?.bool ?? false)))
        facts.append(Fact(term: "Branch versioned", detail: yesNo(info["isDataBranchVersioned"]?.bool ?? false)))

        let fields = (info["fields"]?.array ?? []).map { field in
            LayerPage.Field(name: field["name"]?.string ?? "", type: shortType(field["type"]?.string), alias: field["alias"]?.string ?? "",
                            length: field["length"]?.int.map { String($0) } ?? "", nullable: yesNo(field["nullable"]?.bool),
                            editable: yesNo(field["editable"]?.bool), domain: domain(field["domain"]))
        }
        let relationships = (info["relationships"]?.array ?? []).map { relationship in
            let related = relationship["relatedTableId"]?.int
            return LayerPage.Relationship(
                id: relationship["id"]?.int.map { String($0) } ?? "", name: relationship["name"]?.string ?? "",
                relatedHref: related.map { servicePath(service, "FeatureServer", "\($0)") } ?? "",
                relatedLabel: related.map { relatedId in tableNames[relatedId].map { "\($0) (\(relatedId))" } ?? "\(relatedId)" } ?? "",
                cardinality: (relationship["cardinality"]?.string ?? "").replacingOccurrences(of: "esriRelCardinality", with: ""),
                role: (relationship["role"]?.string ?? "").replacingOccurrences(of: "esriRelRole", with: ""),
                keyField: relationship["keyField"]?.string ?? "")
        }
        // Templates of the layer and of its types (subtypes), in that order.
        let templateJSON = (info["templates"]?.array ?? []) + (info["types"]?.array ?? []).flatMap { $0["templates"]?.array ?? [] }
        let templates = templateJSON.map { template in
            LayerPage.Template(name: template["name"]?.string ?? "", description: template["description"]?.string ?? "",
                               attributes: (template["prototype"]?["attributes"]?.objectMembers ?? []).map { .init(field: $0.0, value: text($0.1)) })
        }
        return LayerPage(chrome: chrome, layerDescription: nonEmpty(info["description"]?.string), facts: facts,
                         capabilities: list(info["capabilities"]?.string), queryHref: servicePath(service, "FeatureServer", "\(id)", "query"),
                         drawing: drawing, fields: fields, relationships: relationships, hasRelationships: !relationships.isEmpty,
                         templates: templates, hasTemplates: !templates.isEmpty)
    }

    /// A field's domain: coded values listed, a range as `min – max`.
    static func domain(_ json: JSON?) -> LayerPage.Domain? {
        guard let json, !json.isNull, json.objectMembers != nil else { return nil }
        let kind = json["type"]?.string ?? ""
        let codedValues = (json["codedValues"]?.array ?? []).map { LayerPage.CodedValue(code: text($0["code"] ?? .null), label: $0["name"]?.string ?? "") }
        var range: String?
        if let bounds = json["range"]?.array, bounds.count == 2 { range = "\(text(bounds[0])) – \(text(bounds[1]))" }
        return LayerPage.Domain(domainName: json["name"]?.string ?? "", domainKind: kind == "codedValue" ? "coded values" : kind,
                                codedValues: codedValues, hasCodedValues: !codedValues.isEmpty, range: range)
    }
}
