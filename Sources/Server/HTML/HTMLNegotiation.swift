import Foundation
import Hummingbird

/// Whether a request asks for a page of the HTML services directory rather than JSON.
///
/// `f` decides whenever it is present: `f=html` is a page, anything else (`json`, `pjson`, `geojson`,
/// an unknown value) keeps the JSON answer it had before. Without `f`, a GET whose `Accept` header
/// prefers `text/html` (a browser's `text/html,application/xhtml+xml,...;q=0.9,*/*;q=0.8`) is a page;
/// `*/*`, no `Accept`, or JSON listed at least as high is JSON, so clients that send no `f` are unchanged.
///
/// Written here rather than taken from a library: Hummingbird has no content negotiation, and the rule
/// needs only the media types and their `q` weights.
enum HTMLNegotiation {
    static func wantsHTML(_ request: Request, _ arguments: RequestArguments) -> Bool {
        if let format = arguments.string("f") { return format.lowercased() == "html" }
        guard request.method == .get || request.method == .head else { return false }
        return prefersHTML(accept: request.headers[values: .accept].joined(separator: ","))
    }

    /// True when `accept` names `text/html` (or XHTML) explicitly, with a weight above zero and above
    /// that of any JSON type it names. Wildcards never count as asking for HTML.
    static func prefersHTML(accept: String) -> Bool {
        var html = 0.0
        var json = 0.0
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            switch type {
            case "text/html", "application/xhtml+xml": html = max(html, weight)
            case "application/json", "application/geo+json", "text/json": json = max(json, weight)
            default: break
            }
        }
        return html > 0 && html > json
    }
}
