import Foundation
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// How answers are written: JSON (`f=json`, the default), pretty JSON (`f=pjson`), GeoJSON where a
/// route supports it (`f=geojson`). Errors are HTTP 200 with an Esri error document, as ArcGIS
/// Server answers them.
public enum ArcGISResponse {
    /// The output format a request asks for.
    public enum Format: Sendable, Equatable {
        case json, pjson, geojson

        init(_ arguments: RequestArguments) {
            switch arguments.string("f")?.lowercased() {
            case "pjson": self = .pjson
            case "geojson": self = .geojson
            default: self = .json
            }
        }

        /// The format of a query answer (`query`, `queryRelatedRecords`, `<layer>/<oid>`). `f=pbf`, Esri's
        /// protocol buffer feature collection, is refused with a 400 rather than answered in JSON a pbf decoder
        /// cannot read; the layers do not list it in `supportedQueryFormats`.
        static func query(_ arguments: RequestArguments) throws -> Format {
            if let requested = arguments.string("f"), requested.lowercased() == "pbf" {
                throw ServiceError.invalidQuery("f=pbf is not supported: this server answers queries as f=json, pjson or geojson (supportedQueryFormats).")
            }
            return Format(arguments)
        }
    }

    /// The `Content-Type` of `f=geojson` answers.
    static let geoJSONContentType = "application/geo+json; charset=utf-8"

    /// Encodes any `Encodable` answer of the core, keeping member order (attributes in field order).
    public static func json(_ value: some Encodable, context: MapRulesRequestContext, status: HTTPResponse.Status = .ok) throws -> Response {
        let document: JSON
        do { document = try OrderedJSONEncoder().encode(value) } catch {
            throw ServiceError.internal("The answer could not be encoded: \(error)")
        }
        return self.document(document, context: context, status: status)
    }

    /// Encodes a document value (metadata, GeoJSON) keeping its member order; indented for `f=pjson`.
    public static func document(_ value: JSON, context: MapRulesRequestContext, contentType: String = "application/json; charset=utf-8",
                                status: HTTPResponse.Status = .ok) -> Response {
        if Format(context.arguments) == .pjson {
            return bytes(Data(PrettyJSON.text(value).utf8), contentType: contentType, status: status)
        }
        return buffer(JSONBytes.buffer(value), contentType: contentType, status: status)
    }

    /// JSON already written to bytes.
    static func buffer(_ buffer: ByteBuffer, contentType: String = jsonContentType, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: headers(contentType), body: ResponseBody(byteBuffer: buffer))
    }

    static let jsonContentType = "application/json; charset=utf-8"
    /// The headers of JSON and GeoJSON answers, made once (a page's answer copies them).
    private static let jsonHeaders: HTTPFields = [.contentType: jsonContentType, .cacheControl: "no-cache"]
    private static let geoJSONHeaders: HTTPFields = [.contentType: geoJSONContentType, .cacheControl: "no-cache"]

    /// `[.contentType: contentType, .cacheControl: "no-cache"]`.
    private static func headers(_ contentType: String) -> HTTPFields {
        if contentType == jsonContentType { return jsonHeaders }
        if contentType == geoJSONContentType { return geoJSONHeaders }
        return [.contentType: contentType, .cacheControl: "no-cache"]
    }

    static func bytes(_ data: Data, contentType: String, status: HTTPResponse.Status = .ok, extraHeaders: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: contentType]
        headers.append(contentsOf: extraHeaders)
        headers[.cacheControl] = "no-cache"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `{"error": {"code", "message", "details"}}`, HTTP 200 (ArcGIS REST style).
    public static func error(_ error: ServiceError, status: HTTPResponse.Status = .ok) -> Response {
        let body: JSON = .object([("error", .object([
            ("code", .int(error.code)),
            ("message", .string(error.message)),
            ("details", .array(error.details.map(JSON.string))),
        ]))])
        return bytes(Data(body.text.utf8), contentType: "application/json; charset=utf-8", status: status)
    }

    /// `{"success": false, "error": {"extendedCode", "message", "details"}}` (version management style).
    public static func versionManagementError(_ error: ServiceError) -> Response {
        let body: JSON = .object([
            ("success", .bool(false)),
            ("error", .object([
                ("code", .int(error.code)),
                ("extendedCode", .int(error.extendedCode ?? -2147467259)),
                ("message", .string(error.message)),
                ("details", .array(error.details.map(JSON.string))),
            ])),
        ])
        return bytes(Data(body.text.utf8), contentType: "application/json; charset=utf-8")
    }
}
