import Foundation
import GRDB
import GRDBSQLite
import WebMap

extension ServiceCore {
    /// `<layer>/query`. Reads the version named by `gdbVersion` (DEFAULT when nil) as the caller may see it.
    public func query(service name: String, layer layerId: Int, _ parameters: QueryParameters, as caller: Caller) async throws -> QueryResponse {
        let query = try prepareQuery(service: name, layer: layerId, parameters, as: caller)
        return try await database.read { db in try query.plan.run(db, view: query.view(db), anchors: query.anchors) }
    }

    /// What both answers of `<layer>/query` start from: the caller's right to query checked, the plan made.
    private func prepareQuery(service name: String, layer layerId: Int, _ parameters: QueryParameters,
                              as caller: Caller) throws -> PreparedQuery {
        let service = try self.service(name)
        let layer = try service.layer(layerId)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireQuery()
        let plan = try QueryPlan(layer: layer, parameters: parameters, policy: policy)
        return PreparedQuery(plan: plan, service: service, policy: policy, versionName: parameters.gdbVersion, anchors: pageAnchors)
    }

    /// `<layer>/query` answered as compact Esri JSON (`f=json`): byte for byte what `OrderedJSONEncoder` makes of
    /// what `query` answers, but a feature set is written while its rows are read (stored attribute text copied as
    /// it is where that is provably the same text, `StoredAttributesWriter`), without building the features.
    ///
    /// A short read (`QueryPlan.isShortRead`: a page of DEFAULT without filter or order) is made synchronously on
    /// the calling task's thread, without the hop to GRDB's reader queue and back (fewer thread hand-offs, a shorter
    /// answer time); call it from the concurrency pool, never from an event loop. Any other query is read on the
    /// reader queue, so that a long one does not hold one of the pool's few threads.
    public func queryText(service name: String, layer layerId: Int, _ parameters: QueryParameters, as caller: Caller) async throws -> [UInt8] {
        let query = try prepareQuery(service: name, layer: layerId, parameters, as: caller)
        let read: @Sendable (Database) throws -> QueryPlan.TextAnswer = { db in
            try query.plan.runText(db, view: query.view(db), anchors: query.anchors)
        }
        let answer = query.plan.isShortRead ? try readHere(read) : try await database.read(read)
        switch answer {
        case .bytes(let bytes):
            return bytes
        case .response(let response):
            let document: JSON
            do { document = try OrderedJSONEncoder().encode(response) } catch {
                throw ServiceError.internal("The answer could not be encoded: \(error)")
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(4096)
            document.write(to: &bytes)
            return bytes
        }
    }

    /// GRDB's synchronous read, on the calling thread (from an async function the asynchronous overload is chosen).
    private func readHere<T>(_ body: (Database) throws -> T) throws -> T {
        try database.read(body)
    }

    /// Runs a query inside an existing database access (related records, differences).
    static func queryFeatures(_ db: Database, layer: LayerModel, parameters: QueryParameters, policy: AccessPolicy, view: VersionView) throws -> FeatureSet {
        let plan = try QueryPlan(layer: layer, parameters: parameters, policy: policy)
        return try plan.run(db, view: view).featureSet ?? FeatureSet(objectIdFieldName: layer.objectIdField, fields: [], features: [])
    }
}

/// A validated query, ready to run against a version.
struct QueryPlan {
    let layer: LayerModel
    let parameters: QueryParameters
    let compiler: QueryCompiler
    let whereSQL: SQL?
    let order: SQL
    /// Canonical names of the output fields, in output order.
    let outFields: [String]
    let queryGeometry: Geometry?
    let outSystem: Projection.System
    let outReference: SpatialReference
    let ownerFilter: String?
    var extraFilter: SQL?
    /// A filter the core adds itself (related records: the key values).
    var internalFilter: SQL?

    init(layer: LayerModel, parameters: QueryParameters, policy: AccessPolicy) throws {
        self.layer = layer
        self.parameters = parameters
        compiler = QueryCompiler(layer: layer)
        if let text = parameters.whereClause, !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                whereSQL = compiler.compile(try WhereParser.parse(text, resolveField: { layer.field($0) }))
            } catch {
                throw error.serviceError
            }
        } else {
            whereSQL = nil
        }
        order = try compiler.orderBy(parameters.orderByFields)
        if let ids = parameters.objectIds, ids.count > 30_000 {
            throw ServiceError.invalidQuery("objectIds lists \(ids.count) ids; ask for at most 30000 at a time.")
        }

        let requested = parameters.outFields ?? []
        if requested.isEmpty || requested.contains("*") {
            outFields = layer.fields.filter { $0.type != .geometry }.map(\.name)
        } else {
            var names: [String] = []
            for name in requested {
                guard let field = layer.field(name) else {
                    throw ServiceError.invalidQuery("outFields: '\(name)' is not a field of \(layer.title).")
                }
                if !names.contains(field.name) { names.append(field.name) }
            }
            if !names.contains(where: { $0.caseInsensitiveCompare(layer.objectIdField) == .orderedSame }) { names.insert(layer.objectIdField, at: 0) }
            outFields = names
        }

        let layerSystem = layer.spatialReference.normalized ?? .wgs84
        if let geometry = parameters.geometry {
            let inSystem = try Projection.system(of: parameters.inSR, default: layerSystem)
            queryGeometry = Projection.project(geometry, from: inSystem, to: .wgs84)
        } else {
            queryGeometry = nil
        }
        outSystem = try Projection.system(of: parameters.outSR, default: layerSystem)
        outReference = parameters.outSR.map { $0.normalized == .wgs84 ? SpatialReference.wgs84 : SpatialReference.webMercator }
            ?? (layerSystem == .wgs84 ? .wgs84 : layer.spatialReference)

        if let ownership = layer.ownership, !ownership.allowOthersToQuery, !policy.isAdministrator, !policy.ownsService,
           let creator = layer.editTracking?.creatorField {
            ownerFilter = creator
            _ = ownership
            extraFilter = "json_extract(r.attributes, \(QueryCompiler.jsonPath(creator))) = \(policy.actingName)"
        } else {
            ownerFilter = nil
        }
        if let stats = parameters.outStatistics, !stats.isEmpty {
            for stat in stats where !(stat.statisticType == .count && stat.onStatisticField == "*") {
                guard layer.field(stat.onStatisticField) != nil else {
                    throw ServiceError.invalidQuery("outStatistics: '\(stat.onStatisticField)' is not a field of \(layer.title).")
                }
            }
            for name in parameters.groupByFieldsForStatistics ?? [] where layer.field(name) == nil {
                throw ServiceError.invalidQuery("groupByFieldsForStatistics: '\(name)' is not a field of \(layer.title).")
            }
        }
    }

    /// The filters of the query as `AND ...` terms over the row aliased `r` (all but the exact spatial one).
    private func filters() -> SQL {
        var sql: SQL = ""
        if let ids = parameters.objectIds {
            if ids.isEmpty { sql.append(literal: " AND 0") } else { sql.append(literal: " AND r.objectId IN \(ids)") }
        }
        if let whereSQL { sql.append(literal: " AND \(whereSQL)") }
        if let extraFilter { sql.append(literal: " AND \(extraFilter)") }
        if let internalFilter { sql.append(literal: " AND \(internalFilter)") }
        if let g = queryGeometry, let e = g.envelope {
            sql.append(literal: " AND r.xmax >= \(e.xmin) AND r.xmin <= \(e.xmax) AND r.ymax >= \(e.ymin) AND r.ymin <= \(e.ymax)")
        }
        return sql
    }

    /// A page of DEFAULT (no `gdbVersion`) without filter or order, and no other kind of answer: the head index walked
    /// for at most `PageAnchors.threshold` entries, then at most `maxRecordCount` rows by primary key.
    var isShortRead: Bool {
        parameters.gdbVersion == nil && hasNoFilter && (parameters.orderByFields ?? "").allSatisfy { $0 == " " }
            && (parameters.outStatistics ?? []).isEmpty && !parameters.returnCountOnly && !parameters.returnIdsOnly && !parameters.returnExtentOnly
    }

    /// No filter at all: no where clause, object ids, ownership or internal filter, or query geometry. On DEFAULT the
    /// head index alone then answers counts and chooses pages (`prepare`).
    private var hasNoFilter: Bool {
        whereSQL == nil && parameters.objectIds == nil && extraFilter == nil && internalFilter == nil && queryGeometry == nil
    }

    /// True when DEFAULT has not written to the layer since the version's ancestor moment.
    private func defaultUnchanged(_ db: Database, view: VersionView) throws -> Bool {
        guard view.branch != 0 else { return true }
        let layerMoment = try Int64.fetchOne(db, sql: "SELECT defaultMoment FROM layer WHERE key = ?", arguments: [layer.key]) ?? 0
        return layerMoment <= view.ancestorMoment
    }

    /// A feature page to read: its SELECT (attributes, geometry, xmin, ymin, xmax, ymax), its size.
    struct Page {
        var sql: SQL
        var limit: Int
        var withGeometry: Bool
    }

    /// What a query needs before its rows: a finished answer (counts, ids, extents, statistics), or a page.
    enum Prepared {
        case answer(QueryResponse)
        case page(Page)
    }

    func run(_ db: Database, view: VersionView, anchors: PageAnchors? = nil) throws -> QueryResponse {
        let page: Page
        switch try prepare(db, view: view, anchors: anchors) {
        case .answer(let answer): return answer
        case .page(let p): page = p
        }
        // Rows are read in place from the statement, each column as a `DatabaseValue` (no generic decoding of
        // optionals per column, no copy of the whole row).
        let rows = try Row.fetchCursor(db, SQLRequest<Row>(literal: page.sql, cached: true))
        var exceeded = false
        var features: [Feature] = []
        features.reserveCapacity(min(page.limit, 1024))
        while let row = try rows.next() {
            guard features.count < page.limit else {
                exceeded = true
                break
            }
            features.append(try decodedFeature(row, withGeometry: page.withGeometry))
        }
        return .features(FeatureSet(
            objectIdFieldName: layer.objectIdField, globalIdFieldName: layer.globalIdField,
            geometryType: layer.geometryType?.rawValue, spatialReference: layer.isTable ? nil : outReference,
            fields: fieldDescriptions(outFields), features: features, exceededTransferLimit: exceeded ? true : nil))
    }

    /// A row of a page decoded into a feature (the attributes parsed).
    private func decodedFeature(_ row: Row, withGeometry: Bool) throws -> Feature {
        let attributes: DatabaseValue = row[0]
        guard let attributesText = String.fromDatabaseValue(attributes) else {
            throw ServiceError.internal("A stored feature has no attributes.")
        }
        return try feature(attributes: attributesText, geometry: Self.text(row[1]), withGeometry: withGeometry,
                           envelope: (Self.real(row[2]), Self.real(row[3]), Self.real(row[4]), Self.real(row[5])))
    }

    /// The answer of `runText`: the feature set's bytes, or any other answer to encode.
    enum TextAnswer {
        case bytes([UInt8])
        case response(QueryResponse)
    }

    /// The query's answer as Esri JSON bytes, for feature pages written while the rows are read: the head from
    /// the layer's cache (`AnswerHeads`), each row's stored attribute text copied as it is when
    /// `StoredAttributesWriter` allows it (else decoded and written by `FeatureSetText`), the point taken from
    /// the envelope columns when the stored text is exactly theirs. The same bytes as encoding `run`'s answer.
    func runText(_ db: Database, view: VersionView, anchors: PageAnchors? = nil) throws -> TextAnswer {
        let page: Page
        switch try prepare(db, view: view, anchors: anchors) {
        case .answer(let answer): return .response(answer)
        case .page(let p): page = p
        }
        let spatialReference = layer.isTable ? nil : outReference
        let entry = layer.answerHeads.entry(AnswerHeads.Key(outFields: outFields, spatialReference: spatialReference)) {
            var head: [UInt8] = []
            FeatureSetText.appendHead(objectIdFieldName: layer.objectIdField, globalIdFieldName: layer.globalIdField,
                                      geometryType: layer.geometryType?.rawValue, spatialReference: spatialReference,
                                      fields: fieldDescriptions(outFields), to: &head)
            return AnswerHeads.Entry(head: head, writer: StoredAttributesWriter(outFields: outFields))
        }
        var out: [UInt8] = []
        // Room for the head and a page of up to 128 features as large as the last answer's (a larger page grows it).
        out.reserveCapacity(entry.head.count + 64 + min(page.limit, 128) * max(layer.answerHeads.featureSize, 64))
        out.append(contentsOf: entry.head)

        let statement = try SQLRequest<Row>(literal: page.sql, cached: true).makePreparedRequest(db).statement
        let raw = statement.sqliteStatement
        let rows = try Row.fetchCursor(statement)
        var exceeded = false
        var count = 0
        var keys = FeatureSetText.AttributeKeys()
        var scratch = StoredAttributesWriter.Scratch()
        while let row = try rows.next() {
            guard count < page.limit else {
                exceeded = true
                break
            }
            if count > 0 { out.append(UInt8(ascii: ",")) }
            count += 1
            let mark = out.count
            // The attributes text in place in SQLite's row (no String), when it is text.
            if let writer = entry.writer, let stored = Self.textBytes(raw, 0) {
                JSON.appendASCII("{\"attributes\":", to: &out)
                if writer.encode(bytes: stored, into: &out, scratch: &scratch) {
                    FeatureSetText.appendGeometry(try shape(raw, row, withGeometry: page.withGeometry, scratch: &scratch), to: &out)
                    out.append(UInt8(ascii: "}"))
                    continue
                }
                out.removeSubrange(mark...)
            }
            FeatureSetText.appendFeature(try decodedFeature(row, withGeometry: page.withGeometry), keys: &keys, to: &out)
        }
        FeatureSetText.appendTail(exceededTransferLimit: exceeded ? true : nil, to: &out)
        if count > 0 { layer.answerHeads.featureSize = (out.count - entry.head.count) / count + 1 }
        return .bytes(out)
    }

    /// The geometry of the statement's current row (columns 1 to 5), as `decodedFeature` reads it.
    private func shape(_ raw: SQLiteStatement, _ row: Row, withGeometry: Bool, scratch: inout StoredAttributesWriter.Scratch) throws -> Geometry? {
        guard withGeometry else { return nil }
        let envelope = (Self.real(raw, row, 2), Self.real(raw, row, 3), Self.real(raw, row, 4), Self.real(raw, row, 5))
        // A point whose stored text is exactly its envelope's, compared in place; anything else as `decodedFeature`.
        if let text = Self.textBytes(raw, 1),
           let point = RowStore.storedPoint(bytes: text, xmin: envelope.0, ymin: envelope.1, xmax: envelope.2, ymax: envelope.3,
                                            scratch: &scratch.number) {
            return Projection.project(.point(point), from: .wgs84, to: outSystem)
        }
        return try shape(geometry: Self.text(row[1]), withGeometry: withGeometry, envelope: envelope)
    }

    /// The bytes of a TEXT column of the statement's current row, in place in SQLite's page (valid until the next
    /// step). `sqlite3_column_blob` rather than `_text`: the text as it is, without SQLite copying it to add a NUL
    /// terminator. Nil for other types.
    @inline(__always)
    private static func textBytes(_ raw: SQLiteStatement, _ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard sqlite3_column_type(raw, column) == SQLITE_TEXT else { return nil }
        let count = Int(sqlite3_column_bytes(raw, column))
        guard count > 0, let start = sqlite3_column_blob(raw, column) else { return nil }
        return UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// `real(row[column])` read straight from the statement for the usual types (no `DatabaseValue`).
    @inline(__always)
    private static func real(_ raw: SQLiteStatement, _ row: Row, _ column: Int32) -> Double? {
        switch sqlite3_column_type(raw, column) {
        case SQLITE_FLOAT: return sqlite3_column_double(raw, column)
        case SQLITE_INTEGER: return Double(sqlite3_column_int64(raw, column))
        case SQLITE_NULL: return nil
        default: return real(row[Int(column)])
        }
    }

    /// Everything before reading a page's rows.
    private func prepare(_ db: Database, view: VersionView, anchors: PageAnchors?) throws -> Prepared {
        let unchanged = try defaultUnchanged(db, view: view)
        var terms = filters()
        if let g = queryGeometry, parameters.spatialRelation != .envelopeIntersects {
            // Exact predicate in Swift over the envelope candidates, then the ids bound back into the SQL.
            let candidates = QueryCompiler.visibleRows(layerKey: layer.key, view: view, defaultUnchangedSinceAncestor: unchanged)
            var matches: [Int64] = []
            let rows = try Row.fetchCursor(db, SQLRequest<Row>(literal: "SELECT r.objectId, r.geometry \(candidates)\(terms)"))
            while let row = try rows.next() {
                guard let text: String = row[1], let geometry = try RowStore.decodeGeometry(text) else { continue }
                if Spatial.holds(parameters.spatialRelation, feature: geometry, query: g) { matches.append(row[0]) }
            }
            guard matches.count <= 30_000 else {
                throw ServiceError.invalidQuery("The spatial filter matches \(matches.count) features; narrow it (or use envelope-intersects) to at most 30000.")
            }
            terms.append(literal: matches.isEmpty ? " AND 0" : " AND r.objectId IN \(matches)")
        }
        let source: SQL = "\(QueryCompiler.visibleRows(layerKey: layer.key, view: view, defaultUnchangedSinceAncestor: unchanged))\(terms)"

        // DEFAULT with no filter at all: the head index alone answers counts and chooses pages.
        let unfiltered = view.branch == 0 && hasNoFilter
        let headOnly: SQL = "FROM head h WHERE h.layerKey = \(layer.key) AND h.branch = 0 AND h.isDelete = 0"

        if let stats = parameters.outStatistics, !stats.isEmpty { return .answer(try statistics(db, source: source, stats: stats)) }
        if parameters.returnCountOnly && !parameters.returnExtentOnly {
            let sql: SQL = unfiltered ? "SELECT count(*) \(headOnly)" : "SELECT count(*) \(source)"
            return .answer(.count(CountResult(count: try Int.fetchOne(db, SQLRequest<Int>(literal: sql)) ?? 0)))
        }
        if parameters.returnExtentOnly {
            let row = try Row.fetchOne(db, SQLRequest<Row>(literal: "SELECT min(r.xmin), min(r.ymin), max(r.xmax), max(r.ymax), count(*) \(source)"))
            var extent = ExtentResult.ExtentJSON(xmin: nil, ymin: nil, xmax: nil, ymax: nil, spatialReference: outReference)
            if let row, let xmin: Double = row[0], let ymin: Double = row[1], let xmax: Double = row[2], let ymax: Double = row[3] {
                if case .envelope(let e) = Projection.project(.envelope(Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)), from: .wgs84, to: outSystem) {
                    extent = ExtentResult.ExtentJSON(xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax, spatialReference: outReference)
                }
            }
            return .answer(.extent(ExtentResult(extent: extent, count: row?[4] ?? 0)))
        }
        if parameters.returnIdsOnly {
            let ids = try Int64.fetchAll(db, SQLRequest<Int64>(literal: "SELECT r.objectId \(source) ORDER BY \(order)"))
            return .answer(.ids(ObjectIdSet(objectIdFieldName: layer.objectIdField, objectIds: ids)))
        }

        let cap = layer.maxRecordCount
        let limit = max(0, min(parameters.resultRecordCount ?? cap, cap))
        let offset = max(0, parameters.resultOffset ?? 0)
        let withGeometry = parameters.returnGeometry && !layer.isTable
        // The envelope columns let a point be read without parsing its text (`RowStore.storedPoint`).
        let select: SQL = withGeometry ? "SELECT r.attributes, r.geometry, r.xmin, r.ymin, r.xmax, r.ymax" : "SELECT r.attributes, NULL, NULL, NULL, NULL, NULL"
        let defaultOrder = (parameters.orderByFields ?? "").trimmingCharacters(in: .whitespaces).isEmpty
        let page: SQL
        if unfiltered && defaultOrder {
            // Walk the head index in object id order, skip `offset` entries without touching the rows, then
            // fetch only the page's rows.
            if offset >= PageAnchors.threshold, let anchors, case .some(let anchor) = try anchors.objectId(db, layerKey: layer.key, offset: offset) {
                // The object id at the offset is known: start there, each head entry joined to its row in the head
                // index's order (no OFFSET to skip, so no row is touched that is not answered; and no sort: with
                // `r.id IN (...) ORDER BY r.objectId` SQLite copied the page's rows into a temporary B-tree).
                page = """
                    \(select) FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = \(layer.key) AND h.branch = 0 \
                    AND h.isDelete = 0 AND h.objectId >= \(anchor ?? Int64.max) ORDER BY h.objectId LIMIT \(limit + 1)
                    """
            } else if offset == 0 {
                page = """
                    \(select) FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = \(layer.key) AND h.branch = 0 \
                    AND h.isDelete = 0 ORDER BY h.objectId LIMIT \(limit + 1)
                    """
            } else {
                page = "\(select) FROM featureRow r WHERE r.id IN (SELECT h.rowId \(headOnly) ORDER BY h.objectId LIMIT \(limit + 1) OFFSET \(offset)) ORDER BY r.objectId"
            }
        } else if view.branch != 0 && defaultOrder {
            // A version in object id order: DEFAULT's rows the version does not override and the version's own
            // rows, each arm in head index order (order by the head's object id, not the row's, or SQLite sorts),
            // merged by SQLite.
            let arms = QueryCompiler.versionArms(layerKey: layer.key, view: view, defaultUnchangedSinceAncestor: unchanged)
            page = """
                \(select), h0.objectId AS oid \(arms.fromDefault)\(terms) UNION ALL \
                \(select), hv2.objectId AS oid \(arms.fromVersion)\(terms) ORDER BY oid LIMIT \(limit + 1) OFFSET \(offset)
                """
        } else {
            // In DEFAULT the head's primary key gives object id order without a sort.
            let ordering: SQL = defaultOrder && view.branch == 0 ? "h.objectId" : order
            page = "\(select) \(source) ORDER BY \(ordering) LIMIT \(limit + 1) OFFSET \(offset)"
        }
        return .page(Page(sql: page, limit: limit, withGeometry: withGeometry))
    }

    private static func text(_ value: DatabaseValue) -> String? {
        if case .string(let s) = value.storage { return s }
        return value.isNull ? nil : String.fromDatabaseValue(value)
    }

    private static func real(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .double(let d): return d
        case .int64(let i): return Double(i)
        case .null: return nil
        default: return Double.fromDatabaseValue(value)
        }
    }

    func feature(attributes text: String, geometry: String?, withGeometry: Bool,
                 envelope: (Double?, Double?, Double?, Double?) = (nil, nil, nil, nil)) throws -> Feature {
        let parsed = try AttributeValue.storedObject(text)
        let members = parsed.root.object?.members ?? []
        var attributes = Attributes()
        attributes.reserveCapacity(outFields.count)
        // Each output field takes the value of the last member of that name (null when there is none). When no
        // two keys can be equal (no repeated key, every key ASCII), that is the one member of the name, which
        // the cursor finds without searching the whole object for each field.
        if parsed.duplicateKeys.isEmpty && (parsed.root.object?.keysAreASCII ?? true) {
            var cursor = FieldOrderCursor()
            for name in outFields {
                let k = cursor.find(among: members.count) { members[$0].key == name }
                attributes.appendUnchecked(name, k.map { AttributeValue(members[$0].value) } ?? .null)
            }
        } else {
            for name in outFields {
                attributes.appendUnchecked(name, members.last { $0.key == name }.map { AttributeValue($0.value) } ?? .null)
            }
        }
        return Feature(attributes: attributes, geometry: try shape(geometry: geometry, withGeometry: withGeometry, envelope: envelope))
    }

    private func shape(geometry: String?, withGeometry: Bool, envelope: (Double?, Double?, Double?, Double?)) throws -> Geometry? {
        guard withGeometry, let geometry else { return nil }
        let g: Geometry?
        if let point = RowStore.storedPoint(geometry, xmin: envelope.0, ymin: envelope.1, xmax: envelope.2, ymax: envelope.3) {
            g = .point(point)
        } else {
            g = try RowStore.decodeGeometry(geometry)
        }
        return g.map { Projection.project($0, from: .wgs84, to: outSystem) }
    }

    func fieldDescriptions(_ names: [String]) -> [JSON] {
        names.compactMap { name in layer.fieldDescription(name) }
    }

    private func statistics(_ db: Database, source: SQL, stats: [StatisticDefinition]) throws -> QueryResponse {
        let groups = (parameters.groupByFieldsForStatistics ?? []).compactMap { layer.field($0)?.name }
        var selections: [SQL] = groups.map { compiler.field($0) }
        var outNames: [String] = groups
        var outTypes: [String] = groups.map { layer.field($0)?.type.rawValue ?? "esriFieldTypeString" }
        for stat in stats {
            let argument: SQL = stat.onStatisticField == "*" ? "*" : compiler.field(stat.onStatisticField)
            switch stat.statisticType {
            case .count: selections.append("count(\(argument))")
            case .min: selections.append("min(\(argument))")
            case .max: selections.append("max(\(argument))")
            case .sum: selections.append("total(\(argument))")
            case .avg: selections.append("avg(\(argument))")
            }
            outNames.append(stat.outStatisticFieldName ?? "\(stat.statisticType.rawValue)_\(stat.onStatisticField == "*" ? "all" : stat.onStatisticField)")
            outTypes.append(stat.statisticType == .count ? "esriFieldTypeInteger" : "esriFieldTypeDouble")
        }
        var sql: SQL = "SELECT \(selections.joined(separator: ", ")) \(source)"
        if !groups.isEmpty {
            let keys = groups.map { compiler.field($0) }.joined(separator: ", ")
            sql.append(literal: " GROUP BY \(keys) ORDER BY \(keys)")
        }
        let rows = try Row.fetchAll(db, SQLRequest<Row>(literal: sql))
        let features = rows.map { row -> Feature in
            var attributes = Attributes()
            for (index, name) in outNames.enumerated() {
                let value: AttributeValue
                switch row[index] as DatabaseValue {
                case let v where v.isNull: value = .null
                case let v:
                    if let i = Int64.fromDatabaseValue(v), case .int64 = v.storage { value = .int(i) }
                    else if let d = Double.fromDatabaseValue(v) { value = .double(d) }
                    else if let s = String.fromDatabaseValue(v) { value = .string(s) }
                    else { value = .null }
                }
                attributes[name] = value
            }
            return Feature(attributes: attributes)
        }
        let fields: [JSON] = zip(outNames, outTypes).map { .object([("name", .string($0)), ("type", .string($1)), ("alias", .string($0))]) }
        return .statistics(FeatureSet(objectIdFieldName: layer.objectIdField, globalIdFieldName: nil, geometryType: nil, spatialReference: nil,
                                      fields: fields, features: features, exceededTransferLimit: nil))
    }
}

/// A `<layer>/query` ready to read: its plan, and the version it reads as the caller may see it.
private struct PreparedQuery: Sendable {
    let plan: QueryPlan
    let service: ServiceModel
    let policy: AccessPolicy
    /// `gdbVersion` (DEFAULT when nil).
    let versionName: String?
    let anchors: PageAnchors

    func view(_ db: Database) throws -> VersionView {
        VersionView(try ServiceCore.resolveVersion(db, service: service, name: versionName, policy: policy))
    }
}
