import Foundation
import FeatureServiceModel
import WebMap

/// How an ArcGIS REST answer reads: a JSON document, or a refusal. ArcGIS answers most refusals with HTTP 200
/// and `{"error": {"code", "message", "details"}}`; version management with `{"success": false, "error":
/// {"extendedCode", "message", ...}}`; proxies and broken servers with an HTTP error status and whatever body
/// (HTML, nothing). All of these become a `ServiceError` with the best code there is, never a crash.
enum ArcGISAnswer {
    /// What an answer said.
    enum Reading: Sendable {
        case document(JSON)
        case refusal(ServiceError)
        /// HTTP 200 with a body that is not JSON (HTML, junk): `excerpt` shows its beginning.
        case notJSON(excerpt: String)
    }

    static func read(_ answer: HTTPAnswer) -> Reading {
        let text = String(decoding: answer.body, as: UTF8.self)
        let document = Self.parse(text)
        if let document, let refusal = refusal(in: document, status: answer.status) { return .refusal(refusal) }
        if !(200..<300).contains(answer.status) {
            let excerpt = Self.excerpt(text)
            return .refusal(ServiceError(code: answer.status, message: "HTTP \(answer.status) \(reasonPhrase(answer.status))",
                                         details: excerpt.isEmpty ? [] : ["The answer began: \(excerpt)"]))
        }
        guard let document else { return .notJSON(excerpt: excerpt(text)) }
        return .document(document)
    }

    /// The answer to a request for a file (an attachment's bytes): a refusal when it is one (a JSON error, an
    /// HTTP error status), else `.document(.null)` and the bytes are the body.
    static func readFile(_ answer: HTTPAnswer) -> Reading {
        let isJSON = answer.contentType?.lowercased().contains("json") ?? false
        if (200..<300).contains(answer.status) && !isJSON { return .document(.null) }
        if case .refusal(let error) = read(answer) { return .refusal(error) }
        return .document(.null)
    }

    /// The refusal a JSON answer carries, if any.
    static func refusal(in document: JSON, status: Int) -> ServiceError? {
        if let error = document["error"], error.objectMembers != nil {
            let extendedCode = integer(error["extendedCode"])
            let code = integer(error["code"]) ?? (extendedCode == -2147217146 ? 404 : nil) ?? ((200..<300).contains(status) ? 400 : status)
            let message = error["message"]?.string ?? error["description"]?.string ?? "The service refused the request."
            var details: [String] = []
            if let list = error["details"]?.array { details = list.map { $0.string ?? $0.text } }
            else if let one = error["details"]?.string, !one.isEmpty { details = [one] }
            return ServiceError(code: code, message: message, details: details, extendedCode: extendedCode)
        }
        if document["success"]?.bool == false {
            return ServiceError(code: (200..<300).contains(status) ? 400 : status, message: "The service answered success: false.", details: [])
        }
        return nil
    }

    /// Parses JSON text; nil when it is not JSON (an HTML page, an empty body).
    static func parse(_ text: String) -> JSON? {
        let trimmed = text.drop { $0.isWhitespace }
        guard let first = trimmed.first, first == "{" || first == "[" else { return nil }
        return try? JSON.parse(String(trimmed))
    }

    /// A code written as a number or as text.
    static func integer(_ json: JSON?) -> Int? {
        guard let json else { return nil }
        return json.int ?? json.string.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The first 120 characters of a body, on one line.
    static func excerpt(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return line.count > 120 ? String(line.prefix(120)) + "…" : line
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 413: return "Payload Too Large"
        case 429: return "Too Many Requests"
        case 498: return "Invalid Token"
        case 499: return "Token Required"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return ""
        }
    }
}
