import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// The pages of the HTML services directory. The JSON routes hand a request over here when it asks for HTML
/// (`HTMLNegotiation`); each page asks the core the same questions as the JSON answer of its URL, as the
/// caller, and renders the answer. A refusal of the core (not found, token required, a bad where clause)
/// is an error page rather than an Esri error document.
struct DirectoryPages {
    typealias Page = HTMLPages
    let core: ServiceCore

    /// `/arcgis/rest/services`.
    func catalogue(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let chrome = Page.chrome(request, context, title: "Services", crumbs: [Page.Crumb(label: "Home")],
                                 jsonHref: Page.link(BrowserSession.home, [("f", "pjson")]))
        return try await page(chrome) {
            var summaries: [String: String] = [:]
            for name in core.serviceNames {
                let info = try? core.serviceInfo(service: name, as: context.caller)
                summaries[name] = Page.nonEmpty(info?["serviceDescription"]?.string ?? info?["description"]?.string)
            }
            return ("catalogue", Page.catalogue(core.catalogueInfo(), summaries: summaries, chrome: chrome))
        }
    }

    /// `<service>/FeatureServer`.
    func featureServer(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let name = try canonicalName(context)
        let chrome = Page.chrome(request, context, title: name, kind: "FeatureServer", crumbs: [Page.home, Page.Crumb(label: name)],
                                 jsonHref: Page.link(Page.servicePath(name, "FeatureServer"), [("f", "pjson")]))
        return try await page(chrome) {
            ("service", Page.service(name, try core.serviceInfo(service: name, as: context.caller), chrome: chrome))
        }
    }

    /// `<service>/FeatureServer/<id>`, with a drawing of (up to `drawingLimit`) features for a layer.
    func layer(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let name = try canonicalName(context)
        let id = try context.integer("layer")
        var chrome = Page.chrome(request, context, title: "Layer \(id)", crumbs: layerCrumbs(name, id, layerName: nil, query: false),
                                 jsonHref: Page.link(Page.servicePath(name, "FeatureServer", "\(id)"), [("f", "pjson")]))
        return try await page(chrome) {
            let info = try core.layerInfo(service: name, layer: id, as: context.caller)
            let layerName = info["name"]?.string ?? "\(id)"
            chrome.title = layerName
            chrome.kind = "\(info["geometryType"] == nil ? "Table" : "Layer") \(id)"
            chrome.crumbs = layerCrumbs(name, id, layerName: layerName, query: false)
            var drawing: FeatureDrawing?
            if info["geometryType"]?.string != nil {
                let answer = try await core.query(service: name, layer: id,
                                                  QueryParameters(where: "1=1", outFields: info["objectIdField"]?.string.map { [$0] },
                                                                  returnGeometry: true, resultRecordCount: Self.drawingLimit), as: context.caller)
                if let set = answer.featureSet {
                    let caption = "\(set.features.count) feature\(set.features.count == 1 ? "" : "s")"
                        + (set.exceededTransferLimit == true ? " (the first \(set.features.count))" : "") + " of the default version"
                    drawing = FeatureDrawing(features: set.features, caption: caption)
                }
            }
            return ("layer", Page.layer(service: name, id: id, info, tableNames: try layerNames(name, context), drawing: drawing, chrome: chrome))
        }
    }

    static let drawingLimit = 1000

    /// `<service>/FeatureServer/<id>/query`: the form; with a `where`, one page of features and the total.
    func query(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let name = try canonicalName(context)
        let id = try context.integer("layer")
        let path = Page.servicePath(name, "FeatureServer", "\(id)", "query")
        var chrome = Page.chrome(request, context, title: "Query", crumbs: layerCrumbs(name, id, layerName: nil, query: true), jsonHref: nil)
        return try await page(chrome) {
            let layerName = try layerNames(name, context)[id] ?? "\(id)"
            chrome.title = "Query: \(layerName)"
            chrome.crumbs = layerCrumbs(name, id, layerName: layerName, query: true)
            var versions: [String] = []
            if (try? core.service(name).isBranchVersioned) == true {
                versions = try await core.versionInfos(service: name, as: context.caller).versions.map(\.versionName)
            }
            let form = Page.queryForm(context.arguments, versions: versions)
            var result: Page.QueryPage.Result?
            var refusal: ServiceError?
            if context.arguments.string("where") != nil {
                do {
                    result = try await queryResult(name, id, form: form, path: path, context)
                } catch let error as ServiceError where error.code == 400 {
                    // A where clause or parameter the core refuses: the form stays, to be corrected.
                    refusal = error
                }
            }
            let page = Page.QueryPage(chrome: chrome, action: path, form: form, result: result, refusal: refusal.map(Page.QueryPage.Refusal.init))
            return ("query", page, refusal == nil ? .ok : .badRequest)
        }
    }

    /// One page of the query of the request's parameters (the JSON route's decoding), and the count of all
    /// that match. The page size is `defaultPageSize` unless `resultRecordCount` says.
    private func queryResult(_ name: String, _ id: Int, form: Page.QueryPage.Form, path: String, _ context: MapRulesRequestContext) async throws
        -> Page.QueryPage.Result? {
        var parameters = try QueryParameters(arguments: context.arguments)
        (parameters.returnCountOnly, parameters.returnIdsOnly, parameters.returnExtentOnly) = (false, false, false)
        let offset = max(0, parameters.resultOffset ?? 0), count = max(1, parameters.resultRecordCount ?? Page.defaultPageSize)
        (parameters.resultOffset, parameters.resultRecordCount) = (offset, count)
        let answer = try await core.query(service: name, layer: id, parameters, as: context.caller)
        guard let set = answer.featureSet else { return nil }
        var total: Int?
        if parameters.outStatistics == nil {
            var counting = parameters
            counting.returnCountOnly = true
            (counting.resultOffset, counting.resultRecordCount, counting.orderByFields) = (nil, nil, nil)
            total = try await core.query(service: name, layer: id, counting, as: context.caller).count
        }
        return Page.queryResult(set, total: total, offset: offset, count: count, form: form, path: path)
    }

    /// `<service>/VersionManagementServer` and its `versions` / `versionInfos`.
    func versions(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let name = try canonicalName(context)
        let chrome = Page.chrome(request, context, title: name, kind: "VersionManagementServer",
                                 crumbs: [Page.home, Page.Crumb(label: name, href: Page.servicePath(name, "FeatureServer")), Page.Crumb(label: "Versions")],
                                 jsonHref: Page.link(Page.servicePath(name, "VersionManagementServer", "versions"), [("f", "pjson")]))
        return try await page(chrome) {
            let info = try await core.versionManagementInfo(service: name, as: context.caller)
            let versions = try await core.versionInfos(service: name, ownerFilter: context.arguments.string("ownerFilter"), as: context.caller)
            return ("versions", Page.versions(service: name, info, versions, signedIn: !context.caller.isAnonymous, chrome: chrome))
        }
    }

    // MARK: Helpers

    /// Renders what `build` answers; a refusal of the core becomes the error page (HTTP 404 or 400 where the
    /// Esri code says so, else 200 as ArcGIS answers errors).
    private func page(_ chrome: Page.Chrome, _ build: () async throws -> (String, Any)) async throws -> Response {
        try await page(chrome) {
            let (template, model) = try await build()
            return (template, model, .ok)
        }
    }

    private func page(_ chrome: Page.Chrome, _ build: () async throws -> (String, Any, HTTPResponse.Status)) async throws -> Response {
        do {
            let (template, model, status) = try await build()
            return try Page.render(template, model, status: status)
        } catch let error as ServiceError {
            let status: HTTPResponse.Status = error.code == 404 ? .notFound : error.code == 400 ? .badRequest : .ok
            return try Page.render("error", Page.error(error, chrome: chrome), status: status)
        }
    }

    /// The service's name as the catalogue spells it (the path's spelling when there is no such service).
    private func canonicalName(_ context: MapRulesRequestContext) throws -> String {
        let name = try context.serviceName()
        return (try? core.service(name).name) ?? name
    }

    /// Layer and table names by id, from the service root the caller may read.
    private func layerNames(_ service: String, _ context: MapRulesRequestContext) throws -> [Int: String] {
        let info = try core.serviceInfo(service: service, as: context.caller)
        var names: [Int: String] = [:]
        for entry in (info["layers"]?.array ?? []) + (info["tables"]?.array ?? []) {
            if let id = entry["id"]?.int { names[id] = entry["name"]?.string ?? "\(id)" }
        }
        return names
    }

    private func layerCrumbs(_ service: String, _ id: Int, layerName: String?, query: Bool) -> [Page.Crumb] {
        let label = layerName.map { "\($0) (\(id))" } ?? "Layer \(id)"
        var crumbs = [Page.home, Page.Crumb(label: service, href: Page.servicePath(service, "FeatureServer")),
                      Page.Crumb(label: label, href: query ? Page.servicePath(service, "FeatureServer", "\(id)") : nil)]
        if query { crumbs.append(Page.Crumb(label: "Query")) }
        return crumbs
    }
}
