import Hummingbird
import Service

/// The server's responder: the router, with one shortcut in front of it for `<layer>/query`, the request that clients
/// paging through a layer make most.
///
/// Hummingbird's case-insensitive router compares each path component with its routes' constants character by
/// character, lower-casing each `Character` into a `String` (4 % of the server's CPU for a GeoJSON page of 20). A path
/// of exactly the form `/arcgis/rest/services/<service>/FeatureServer/<digits>/query`, ASCII throughout and its
/// constants in any case, can only resolve to the query route: no constant route sits beside `:service`, and a
/// component of digits matches none of the constants beside `:layer` (`layers`, `applyEdits`, `replicas`...). Such a
/// request goes straight to that route's own responder (the same middleware chain and handler the router holds),
/// with the path parameters the router would have set; any other request, a query path in any other form (a doubled
/// or trailing slash, a non-ASCII byte, a layer that is not digits) included, goes to the router as before.
public struct QueryRouteShortcut: HTTPResponder {
    public typealias Context = MapRulesRequestContext
    let router: RouterResponder<Context>
    /// The query route's middleware chain and handler, built as the router builds each route's.
    let query: any HTTPResponder<Context>

    /// The router's endpoint path of the query route, which the router records in the context (for metrics).
    static let endpointPath: String = {
        let path: RouterPath = "arcgis/rest/services/:service/FeatureServer/:layer/query"
        return path.lowercased().description
    }()

    init(router: Router<Context>, query handler: @escaping Handler) {
        self.router = router.buildResponder()
        self.query = router.middlewares.constructResponder(finalResponder: CallbackResponder(callback: handler))
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .post, let (service, layer) = Self.queryPath(request.uri.path) else {
            return try await router.respond(to: request, context: context)
        }
        do {
            var context = context
            // Both at once (two settings grew two arrays twice: 0.7 % of a page's CPU).
            context.coreContext.parameters = Parameters([(key: "service", value: service), (key: "layer", value: layer)])
            context.coreContext.endpointPath.value = Self.endpointPath
            return try await query.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            // What the router does with such an error from a route.
            return try error.response(from: request, context: context)
        }
    }

    /// The `:service` and `:layer` components of `/arcgis/rest/services/<service>/FeatureServer/<digits>/query` (constants
    /// in any case), nil for any other path.
    static func queryPath(_ path: String) -> (service: Substring, layer: Substring)? {
        let utf8 = path.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var index = utf8.startIndex
        func take(_ constant: StaticString) -> Bool {
            constant.withUTF8Buffer { constant in
                for byte in constant {
                    guard index < utf8.endIndex else { return false }
                    let c = utf8[index]
                    guard (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) == byte else { return false }
                    utf8.formIndex(after: &index)
                }
                return true
            }
        }
        func component() -> Range<String.Index>? {
            let start = index
            while index < utf8.endIndex && utf8[index] != UInt8(ascii: "/") { utf8.formIndex(after: &index) }
            return start < index ? start..<index : nil
        }
        guard take("/arcgis/rest/services/"), let service = component(), take("/featureserver/"), let layer = component(),
              utf8[layer].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), take("/query"), index == utf8.endIndex
        else { return nil }
        return (path[service], path[layer])
    }
}
