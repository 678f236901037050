import Foundation
import Service
import FeatureServiceModel
import WebMap

/// The catalogue (`/arcgis/rest/services`) and a FeatureServer's page.
extension HTMLPages {
    struct CataloguePage {
        struct Resource {
            var type: String
            var link: String
        }

        struct Service {
            var name: String
            var href: String
            var resources: [Resource]
            var summary: String?
        }

        var chrome: Chrome
        var services: [Service]
        var hasServices: Bool
        var version = SiteInfo.serverFullVersion
    }

    /// From `catalogueInfo()`; `summaries` are the service descriptions the caller may read.
    static func catalogue(_ info: JSON, summaries: [String: String], chrome: Chrome) -> CataloguePage {
        var services: [CataloguePage.Service] = []
        for entry in info["services"]?.array ?? [] {
            guard let name = entry["name"]?.string, let type = entry["type"]?.string else { continue }
            let resource = CataloguePage.Resource(type: type, link: servicePath(name, type))
            if let index = services.firstIndex(where: { $0.name == name }) {
                services[index].resources.append(resource)
            } else {
                services.append(.init(name: name, href: servicePath(name, "FeatureServer"), resources: [resource], summary: summaries[name]))
            }
        }
        return CataloguePage(chrome: chrome, services: services, hasServices: !services.isEmpty)
    }

    struct ServicePage {
        struct Layer {
            var id: Int
            var name: String
            var href: String
            var queryHref: String
            var geometry: String
        }

        var chrome: Chrome
        var serviceDescription: String?
        var facts: [Fact]
        var capabilities: [String]
        var versionManagementHref: String?
        var layers: [Layer]
        var hasLayers: Bool
        var tables: [Layer]
        var hasTables: Bool
        var version = SiteInfo.serverFullVersion
    }

    /// From `serviceInfo(service:as:)`.
    static func service(_ name: String, _ info: JSON, chrome: Chrome) -> ServicePage {
        func entries(_ key: String) -> [ServicePage.Layer] {
            (info[key]?.array ?? []).compactMap { entry in
                guard let id = entry["id"]?.int else { return nil }
                return .init(id: id, name: entry["name"]?.string ?? "\(id)", href: servicePath(name, "FeatureServer", "\(id)"),
                             queryHref: servicePath(name, "FeatureServer", "\(id)", "query"), geometry: shortType(entry["geometryType"]?.string))
            }
        }
        var facts: [Fact] = []
        if let sr = spatialReference(info["spatialReference"]) { facts.append(Fact(term: "Spatial reference", detail: sr)) }
        if let max = info["maxRecordCount"]?.int { facts.append(Fact(term: "Max record count", detail: "\(max)")) }
        facts.append(Fact(term: "Branch versioned", detail: yesNo(info["hasVersionedData"]?.bool ?? false)))
        facts.append(Fact(term: "Sync enabled", detail: yesNo(info["syncEnabled"]?.bool ?? false)))
        if let units = nonEmpty(info["units"]?.string) { facts.append(Fact(term: "Units", detail: units)) }
        if let copyright = nonEmpty(info["copyrightText"]?.string) { facts.append(Fact(term: "Copyright", detail: copyright)) }
        let layers = entries("layers"), tables = entries("tables")
        return ServicePage(chrome: chrome, serviceDescription: nonEmpty(info["serviceDescription"]?.string ?? info["description"]?.string),
                           facts: facts, capabilities: list(info["capabilities"]?.string),
                           versionManagementHref: info["hasVersionedData"]?.bool == true ? servicePath(name, "VersionManagementServer") : nil,
                           layers: layers, hasLayers: !layers.isEmpty, tables: tables, hasTables: !tables.isEmpty)
    }
}
