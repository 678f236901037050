import Foundation
import Hummingbird
import Service

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
    }

    /// Encodes any `Encodable` answer of the core.
    public static func json(_ value: some Encodable, context: MapRulesRequestContext, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = Format(context.arguments) == .pjson ? [.prettyPrinted, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(value) } catch {
            throw ServiceError.internal("The answer could not be encoded: \(error)")
        }
        return bytes(data, contentType: "application/json; charset=utf-8", status: status)
    }

    /// Encodes a document value (metadata, GeoJSON) keeping its member order.
    public static func document(_ value: JSON, context: MapRulesRequestContext, contentType: String = "application/json; charset=utf-8",
                                status: HTTPResponse.Status = .ok) -> Response {
        if Format(context.arguments) == .pjson, let pretty = try? json(value, context: context, status: status) { return pretty }
        return bytes(Data(value.text.utf8), contentType: contentType, status: status)
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
