import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// A route handler of the MapRules server.
typealias Handler = @Sendable (Request, MapRulesRequestContext) async throws -> Response

extension RouterMethods where Context == MapRulesRequestContext {
    /// Registers `handler` for GET and POST: every ArcGIS REST resource answers both.
    @discardableResult
    func getAndPost(_ path: RouterPath = "", use handler: @escaping Handler) -> Self {
        get(path, use: handler)
        post(path, use: handler)
        return self
    }
}

extension MapRulesRequestContext {
    /// A path parameter, percent-decoded (`versions/%7B...%7D` names a braced GUID). Text without `%` is its own decoding
    /// (Foundation's `removingPercentEncoding` was 1.5 % of a page's CPU for its two path parameters).
    func pathParameter(_ name: String) throws -> String {
        let raw = try parameters.require(name)
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return raw }
        return raw.removingPercentEncoding ?? raw
    }

    /// The `:service` path parameter.
    func serviceName() throws -> String { try pathParameter("service") }

    /// An integer path parameter (`:layer`, `:oid`, `:aid`), refused with a 400 when it is not one.
    func integer(_ name: String) throws -> Int {
        let text = try pathParameter(name)
        guard let value = Int(text) else {
            throw ServiceError.invalidParameter("'\(text.prefix(40))' in the path is not a valid \(name) id.")
        }
        return value
    }
}
