import Crypto
import Foundation
import Service
import WebMap
import FeatureServiceModel

/// The web maps the portal facade serves as items: every web map file (`*.json` with
/// `operationalLayers`, not a `*.services.json` snapshot) found at the top of the served sample folders.
///
/// Item ids are stable (derived from the service folder and file name), so a client can keep them.
/// When served, the URLs of layers that point at a service this server hosts are rewritten to this
/// server's base URL, whatever host the sample file names.
public struct PortalItems: Sendable {
    public struct Item: Sendable {
        public var id: String
        public var title: String
        /// The web map document as written in the sample.
        public var data: JSON
        public var created: Int64
    }

    public let items: [Item]

    public init(items: [Item]) { self.items = items }

    /// Reads the web maps of `folders` on disk (unreadable or non-map files are skipped).
    public static func load(folders: [String]) -> PortalItems { load(samples: folders.map(SampleFiles.folder)) }

    /// Reads the web maps of sample folders, on disk or built in (unreadable or non-map files are skipped).
    public static func load(samples: [SampleFiles]) -> PortalItems {
        var items: [Item] = []
        for files in samples {
            for name in files.topLevelFileNames() ?? [] where name.hasSuffix(".json") && !name.hasSuffix(".services.json") && name != "service.json" {
                guard let data = files.data(name), let text = String(data: data, encoding: .utf8), let json = try? JSON.parse(text),
                      json["operationalLayers"]?.array != nil else { continue }
                let title = (name as NSString).deletingPathExtension
                let created = files.modificationDate(of: name).map { Int64($0.timeIntervalSince1970 * 1000) } ?? 0
                items.append(Item(id: itemId(folder: files.name, file: name), title: title, data: json, created: created))
            }
        }
        return PortalItems(items: items)
    }

    /// 32 lower-case hex digits, as portal item ids are.
    static func itemId(folder: String, file: String) -> String {
        SHA256.hash(data: Data("maprules-item:\(folder)/\(file)".utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    public func item(_ id: String) -> Item? { items.first { $0.id.caseInsensitiveCompare(id) == .orderedSame } }

    /// The web map with the layer URLs of hosted services pointing at `baseURL` (`.../arcgis`).
    public static func rewrite(_ json: JSON, baseURL: String, services: [String]) -> JSON {
        switch json {
        case .object(let members):
            return .object(members.map { key, value in
                if key == "url", case .string(let url) = value { return (key, .string(rewrite(url: url, baseURL: baseURL, services: services))) }
                return (key, rewrite(value, baseURL: baseURL, services: services))
            })
        case .array(let elements):
            return .array(elements.map { rewrite($0, baseURL: baseURL, services: services) })
        default:
            return json
        }
    }

    /// `https://any.host/arcgis/rest/services/<Hosted>/FeatureServer/0` → `<baseURL>/rest/services/<Hosted>/FeatureServer/0`.
    static func rewrite(url: String, baseURL: String, services: [String]) -> String {
        guard let range = url.range(of: "/rest/services/", options: .caseInsensitive) else { return url }
        let rest = url[range.upperBound...]
        let name = rest.split(separator: "/").first.map(String.init) ?? ""
        guard services.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else { return url }
        return baseURL + "/rest/services/" + rest
    }
}
