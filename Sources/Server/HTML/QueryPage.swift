import Foundation
import Service
import FeatureServiceModel
import WebMap

extension HTMLPages {
    /// `<layer>/query` as a page: the form, and with a `where` the features as a table with paging links.
    struct QueryPage {
        struct Choice {
            var value: String
            var label: String
            var selected: Bool
        }

        /// The form as the person filled it in (the parameters of the request).
        struct Form {
            var whereClause: String
            var outFields: String
            var orderByFields: String
            var resultOffset: String
            var resultRecordCount: String
            var returnGeometry: Bool
            var gdbVersion: String
            var geometryChoices: [Choice]
            var versionChoices: [Choice]
            var hasVersionChoices: Bool

            /// The query parameters of a link to this form's query at another offset or in another format.
            func parameters(offset: Int, count: Int, format: String) -> [(String, String)] {
                var parameters = [("where", whereClause), ("outFields", outFields)]
                if !orderByFields.isEmpty { parameters.append(("orderByFields", orderByFields)) }
                parameters += [("resultOffset", "\(offset)"), ("resultRecordCount", "\(count)"), ("returnGeometry", returnGeometry ? "true" : "false")]
                if !gdbVersion.isEmpty { parameters.append(("gdbVersion", gdbVersion)) }
                parameters.append(("f", format))
                return parameters
            }
        }

        struct Column {
            var name: String
            var alias: String
        }

        struct Cell {
            var text: String
            var isNull: Bool
            var numeric: Bool
        }

        struct Row {
            var cells: [Cell]
            var geometryText: String
        }

        struct Result {
            var summary: String
            var previousHref: String?
            var nextHref: String?
            var resultJSONHref: String
            var columns: [Column]
            var rows: [Row]
            var hasRows: Bool
            var showGeometry: Bool
        }

        /// The core's refusal of the query, shown under the form.
        struct Refusal {
            var message: String
            var details: [String]

            init(_ error: ServiceError) {
                message = error.message
                details = error.details
            }
        }

        var chrome: Chrome
        var action: String
        var form: Form
        var result: Result?
        var refusal: Refusal?
        var version = SiteInfo.serverFullVersion
    }

    /// Rows shown per page when the form does not say.
    static let defaultPageSize = 50

    /// The form from the request's parameters; `versions` are the names the caller may choose (empty when the
    /// service is not versioned).
    static func queryForm(_ arguments: RequestArguments, versions: [String]) -> QueryPage.Form {
        let returnGeometry = arguments.string("returnGeometry")?.lowercased() != "false"
        let gdbVersion = arguments.string("gdbVersion") ?? ""
        var versionChoices: [QueryPage.Choice] = []
        if !versions.isEmpty {
            versionChoices = versions.map { .init(value: $0 == "sde.DEFAULT" ? "" : $0, label: $0, selected: false) }
            if let index = versionChoices.firstIndex(where: { $0.value.caseInsensitiveCompare(gdbVersion) == .orderedSame }) {
                versionChoices[index].selected = true
            } else if !gdbVersion.isEmpty {
                versionChoices.append(.init(value: gdbVersion, label: gdbVersion, selected: true))
            }
        }
        return QueryPage.Form(whereClause: arguments.string("where") ?? "", outFields: arguments.string("outFields") ?? "*",
                              orderByFields: arguments.string("orderByFields") ?? "", resultOffset: arguments.string("resultOffset") ?? "0",
                              resultRecordCount: arguments.string("resultRecordCount") ?? "\(defaultPageSize)", returnGeometry: returnGeometry,
                              gdbVersion: gdbVersion,
                              geometryChoices: [.init(value: "true", label: "true", selected: returnGeometry),
                                                .init(value: "false", label: "false", selected: !returnGeometry)],
                              versionChoices: versionChoices, hasVersionChoices: !versionChoices.isEmpty)
    }

    /// The result table of one page of a query: `set` the features of the page, `total` all that match.
    static func queryResult(_ set: FeatureSet, total: Int?, offset: Int, count: Int, form: QueryPage.Form, path: String) -> QueryPage.Result {
        var columns = set.fields.compactMap { field -> QueryPage.Column? in
            guard let name = field["name"]?.string else { return nil }
            return .init(name: name, alias: field["alias"]?.string ?? name)
        }
        if columns.isEmpty, let first = set.features.first { columns = first.attributes.names.map { .init(name: $0, alias: $0) } }
        let dateFields = Set(set.fields.filter { $0["type"]?.string == "esriFieldTypeDate" }.compactMap { $0["name"]?.string })
        var labels: [String: [String: String]] = [:]
        for field in set.fields {
            guard let name = field["name"]?.string, let values = field["domain"]?["codedValues"]?.array else { continue }
            labels[name] = Dictionary(values.compactMap { value in value["name"]?.string.map { (text(value["code"] ?? .null), $0) } }, uniquingKeysWith: { a, _ in a })
        }
        let rows = set.features.map { feature in
            QueryPage.Row(cells: columns.map { column in
                cell(feature.attributes[column.name] ?? .null, isDate: dateFields.contains(column.name), labels: labels[column.name])
            }, geometryText: feature.geometry.map(geometryText) ?? "")
        }
        let summary: String
        if rows.isEmpty {
            summary = offset > 0 ? "No features past \(offset)." : "No features match."
        } else {
            summary = "Features \(offset + 1)–\(offset + rows.count)" + (total.map { " of \($0)" } ?? "")
        }
        let more = set.exceededTransferLimit == true || total.map { offset + rows.count < $0 } == true
        return QueryPage.Result(
            summary: summary,
            previousHref: offset > 0 ? link(path, form.parameters(offset: max(0, offset - count), count: count, format: "html")) : nil,
            nextHref: more && !rows.isEmpty ? link(path, form.parameters(offset: offset + rows.count, count: count, format: "html")) : nil,
            resultJSONHref: link(path, form.parameters(offset: offset, count: count, format: "json")),
            columns: columns, rows: rows, hasRows: !rows.isEmpty, showGeometry: form.returnGeometry && set.features.contains { $0.geometry != nil })
    }

    static func cell(_ value: AttributeValue, isDate: Bool, labels: [String: String]?) -> QueryPage.Cell {
        switch value {
        case .null: return .init(text: "", isNull: true, numeric: false)
        case .int(let i):
            if isDate { return .init(text: date(millis: i) + " UTC", isNull: false, numeric: false) }
            if let label = labels?[String(i)] { return .init(text: coded(label, String(i)), isNull: false, numeric: false) }
            return .init(text: String(i), isNull: false, numeric: true)
        case .double(let d):
            if isDate, let millis = Int64(exactly: d.rounded(.towardZero)) { return .init(text: date(millis: millis) + " UTC", isNull: false, numeric: false) }
            return .init(text: text(.double(d)), isNull: false, numeric: true)
        case .string(let s):
            if let label = labels?[s] { return .init(text: coded(label, s), isNull: false, numeric: false) }
            return .init(text: s, isNull: false, numeric: false)
        }
    }

    /// A coded value as `Tree lawn / parkway (TL)`, or just `Minor` when the name is the code.
    static func coded(_ label: String, _ code: String) -> String { label == code ? label : "\(label) (\(code))" }

    /// `-122.65, 45.53` for a point; `Polygon · 2 rings · 45 vertices` for the others.
    static func geometryText(_ geometry: Geometry) -> String {
        func coordinate(_ value: Double) -> String { String((value * 100).rounded() / 100) }
        switch geometry {
        case .point(let p): return "\(coordinate(p.x)), \(coordinate(p.y))"
        case .multipoint(let points): return "Multipoint · \(points.count) points"
        case .polyline(let parts): return "Polyline · \(parts.count) path\(parts.count == 1 ? "" : "s") · \(geometry.vertices.count) vertices"
        case .polygon(let parts): return "Polygon · \(parts.count) ring\(parts.count == 1 ? "" : "s") · \(geometry.vertices.count) vertices"
        case .envelope(let e): return "Envelope \(coordinate(e.xmin)), \(coordinate(e.ymin)) – \(coordinate(e.xmax)), \(coordinate(e.ymax))"
        }
    }
}
