import Foundation
import WebMap
import FeatureServiceModel

extension ServiceCore {
    /// `<layer>/query`. Reads the version named by `gdbVersion` (DEFAULT when nil) as the caller may see it.
    public func query(service name: String, layer layerId: Int, _ parameters: QueryParameters, as caller: Caller) async throws -> QueryResponse {
        let query = try prepareQuery(service: name, layer: layerId, parameters, as: caller)
        return try await database.read { db in try query.plan.run(db, view: query.view(db), anchors: query.anchors) }
    }

    /// What both answers of `<layer>/query` start from: the caller's right to query checked, the plan made.
    func prepareQuery(service name: String, layer layerId: Int, _ parameters: QueryParameters,
                              as caller: Caller) throws -> PlannedQuery {
        let service = try self.service(name)
        let layer = try service.layer(layerId)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireQuery()
        let plan = try QueryPlan(layer: layer, parameters: parameters, policy: policy)
        return PlannedQuery(plan: plan, service: service, policy: policy, versionName: parameters.gdbVersion, anchors: pageAnchors)
    }

    /// Runs a query inside an existing database access (related records, differences).
    static func queryFeatures(_ db: any StoreConnection, layer: LayerModel, parameters: QueryParameters, policy: AccessPolicy, view: VersionView) throws -> FeatureSet {
        let plan = try QueryPlan(layer: layer, parameters: parameters, policy: policy)
        return try plan.run(db, view: view).featureSet ?? FeatureSet(objectIdFieldName: layer.objectIdField, fields: [], features: [])
    }
}

/// A validated query, ready to run against a version.
struct QueryPlan {
    let layer: LayerModel
    let parameters: QueryParameters
    /// The parsed `where` clause, compiled to SQL for the store's dialect when the plan runs.
    let whereExpression: WhereExpression?
    /// `orderByFields`, parsed.
    let orderTerms: [QueryCompiler.OrderTerm]
    /// Canonical names of the output fields, in output order.
    let outFields: [String]
    let queryGeometry: Geometry?
    let outSystem: Projection.System
    let outReference: SpatialReference
    /// The creator field when only the caller's own features may be read (ownership-based access control).
    let ownerFilter: String?
    /// The caller's name, which `ownerFilter` must hold.
    let actingName: String
    /// A filter the core adds itself (related records: the key values), in the dialect of the store it runs on.
    var internalFilter: StoreSQL?

    init(layer: LayerModel, parameters: QueryParameters, policy: AccessPolicy) throws {
        self.layer = layer
        self.parameters = parameters
        if let text = parameters.whereClause, !text.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                let parsed = try WhereParser.parse(text, resolveField: { layer.field($0) })
                // `1=1`, what most clients send for "everything", filters nothing: planned as no filter, so that
                // deep pages and counts take the head index's fast paths in both stores.
                if case .compare(.integer(let a), .equal, .integer(let b)) = parsed, a == b {
                    whereExpression = nil
                } else {
                    whereExpression = parsed
                }
            } catch {
                throw error.serviceError
            }
        } else {
            whereExpression = nil
        }
        orderTerms = try QueryCompiler.orderTerms(parameters.orderByFields, layer: layer)
        if let ids = parameters.objectIds, ids.count > 30_000 {
            throw ServiceError.invalidQuery("objectIds lists \(ids.count) ids; ask for at most 30000 at a time.")
        }

        let requested = parameters.outFields ?? []
        if requested.isEmpty || requested.contains("*") {
            outFields = layer.attributeFieldNames
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
        } else {
            ownerFilter = nil
        }
        actingName = policy.actingName
        if let stats = parameters.outStatistics, !stats.isEmpty {
            guard stats.count <= 500 else { throw ServiceError.invalidQuery("outStatistics lists \(stats.count) statistics; ask for at most 500 at a time.") }
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

    /// The compiler of this plan's layer for a store's dialect.
    func compiler(_ dialect: SQLDialect) -> QueryCompiler { QueryCompiler(layer: layer, dialect: dialect) }

    /// The filters of the query as `AND ...` terms over the row aliased `r` (all but the exact spatial one).
    private func filters(_ compiler: QueryCompiler) -> StoreSQL {
        var sql: StoreSQL = ""
        if let ids = parameters.objectIds {
            if ids.isEmpty { sql.append(literal: " AND 1 = 0") } else { sql.append(literal: " AND r.objectId IN \(ids)") }
        }
        if let whereExpression { sql.append(literal: " AND \(compiler.compile(whereExpression))") }
        if let ownerFilter { sql.append(literal: " AND \(compiler.creatorFilter(ownerFilter, is: actingName))") }
        if let internalFilter { sql.append(literal: " AND \(internalFilter)") }
        if let g = queryGeometry, let e = g.envelope {
            sql.append(literal: " AND r.maxX >= \(e.xmin) AND r.minX <= \(e.xmax) AND r.maxY >= \(e.ymin) AND r.minY <= \(e.ymax)")
        }
        return sql
    }

    /// A page of DEFAULT (no `gdbVersion`) without filter, in object id order (`objectIdOrder`), and no other kind of
    /// answer: the head index walked for at most `PageAnchors.threshold` entries, then at most `maxRecordCount` rows by
    /// primary key.
    var isShortRead: Bool {
        parameters.gdbVersion == nil && hasNoFilter && objectIdOrder != nil
            && (parameters.outStatistics ?? []).isEmpty && !parameters.returnCountOnly && !parameters.returnIdsOnly && !parameters.returnExtentOnly
    }

    /// The direction of a page in object id order, the one order an index gives without a sort: no `orderByFields`
    /// (ascending), or `orderByFields` whose first term is the object id (`OBJECTID`, `OBJECTID DESC`: the object id is
    /// unique, so any later term changes nothing). Nil for any other order.
    var objectIdOrder: PageAnchors.Direction? {
        guard let first = orderTerms.first else { return .ascending }
        guard first.field.caseInsensitiveCompare(layer.objectIdField) == .orderedSame else { return nil }
        return first.descending ? .descending : .ascending
    }

    /// No filter at all: no where clause, object ids, ownership or internal filter, or query geometry. On DEFAULT the
    /// head index alone then answers counts and chooses pages (`prepare`).
    private var hasNoFilter: Bool {
        whereExpression == nil && parameters.objectIds == nil && ownerFilter == nil && internalFilter == nil && queryGeometry == nil
    }

    /// True when DEFAULT has not written to the layer since the version's ancestor moment.
    private func defaultUnchanged(_ db: any StoreConnection, view: VersionView) throws -> Bool {
        guard view.branch != 0 else { return true }
        let layerMoment = try db.fetchValue("SELECT defaultMoment FROM layer WHERE key = \(layer.key)", as: Int64.self) ?? 0
        return layerMoment <= view.ancestorMoment
    }

    /// A feature page to read: its SELECT (attributes, geometry, minX, minY, maxX, maxY), its size.
    struct Page {
        var sql: StoreSQL
        var limit: Int
        var withGeometry: Bool
    }

    /// What a query needs before its rows: a finished answer (counts, ids, extents, statistics), or a page.
    enum Prepared {
        case answer(QueryResponse)
        case page(Page)
    }

    func run(_ db: any StoreConnection, view: VersionView, anchors: PageAnchors? = nil) throws -> QueryResponse {
        let page: Page
        switch try prepare(db, view: view, anchors: anchors) {
        case .answer(let answer): return answer
        case .page(let p): page = p
        }
        // Rows are read in place from the statement (no copy of the whole row).
        var exceeded = false
        var features: [Feature] = []
        features.reserveCapacity(min(page.limit, 1024))
        try db.forEach(page.sql) { row in
            guard features.count < page.limit else {
                exceeded = true
                return false
            }
            features.append(try decodedFeature(row, withGeometry: page.withGeometry))
            return true
        }
        return .features(FeatureSet(
            objectIdFieldName: layer.objectIdField, globalIdFieldName: layer.globalIdField,
            geometryType: layer.geometryType?.rawValue, spatialReference: layer.isTable ? nil : outReference,
            fields: fieldDescriptions(outFields), features: features, exceededTransferLimit: exceeded ? true : nil))
    }

    /// A row of a page (attributes, geometry, xmin, ymin, xmax, ymax) decoded into a feature (the attributes parsed).
    private func decodedFeature(_ row: any StoreCursor, withGeometry: Bool) throws -> Feature {
        guard let attributesText = row.string(0) ?? String(storeValue: row.value(0)) else {
            throw ServiceError.internal("A stored feature has no attributes.")
        }
        return try feature(attributes: attributesText, geometry: row.string(1), withGeometry: withGeometry,
                           envelope: (row.double(2), row.double(3), row.double(4), row.double(5)))
    }

    /// The answer of `runText`: the feature set's bytes, or any other answer to encode.
    enum TextAnswer {
        case bytes([UInt8])
        case response(QueryResponse)
    }

    /// The text a feature page is written in: Esri JSON (`FeatureSetText`) or GeoJSON (`GeoJSONText`).
    enum TextFormat: Sendable {
        case esriJSON, geoJSON
    }

    /// The query's answer as Esri JSON bytes, for feature pages written while the rows are read: the head from
    /// the layer's cache (`AnswerHeads`), each row's stored attribute text copied as it is when
    /// `StoredAttributesWriter` allows it (else decoded and written by `FeatureSetText`), the point taken from
    /// the envelope columns when the stored text is exactly theirs. The same bytes as encoding `run`'s answer.
    func runText(_ db: any StoreConnection, view: VersionView, anchors: PageAnchors? = nil, format: TextFormat = .esriJSON) throws -> TextAnswer {
        let page: Page
        switch try prepare(db, view: view, anchors: anchors) {
        case .answer(let answer): return .response(answer)
        case .page(let p): page = p
        }
        return .bytes(try pageText(db, page, format: format).bytes)
    }

    /// The feature set of `page` as Esri JSON bytes (see `runText`), and how many features it holds.
    func pageText(_ db: any StoreConnection, _ page: Page, format: TextFormat = .esriJSON) throws -> (bytes: [UInt8], count: Int) {
        try pageText(page, format: format) { body in try db.forEach(page.sql, body) }
    }

    /// The same, from the rows of `page.sql` however they were read (`rows` steps through them).
    func pageText(_ page: Page, format: TextFormat = .esriJSON,
                  rows: ((any StoreCursor) throws -> Bool) throws -> Void) throws -> (bytes: [UInt8], count: Int) {
        let spatialReference = layer.isTable ? nil : outReference
        let entry = layer.answerHeads.entry(AnswerHeads.Key(outFields: outFields, spatialReference: spatialReference)) {
            var head: [UInt8] = []
            FeatureSetText.appendHead(objectIdFieldName: layer.objectIdField, globalIdFieldName: layer.globalIdField,
                                      geometryType: layer.geometryType?.rawValue, spatialReference: spatialReference,
                                      fields: fieldDescriptions(outFields), to: &head)
            return AnswerHeads.Entry(head: head, writer: StoredAttributesWriter(outFields: outFields, objectIdField: layer.objectIdField))
        }
        var out: [UInt8] = []
        var head: [UInt8] = []
        switch format {
        case .esriJSON: head = entry.head
        case .geoJSON: GeoJSONText.appendHead(to: &head)
        }
        // Room for the head and a page of up to 128 features as large as the last answer's (a larger page grows it).
        out.reserveCapacity(head.count + 64 + min(page.limit, 128) * max(layer.answerHeads.featureSize, 64))
        out.append(contentsOf: head)

        var exceeded = false
        var count = 0
        var keys = FeatureSetText.AttributeKeys()
        var scratch = StoredAttributesWriter.Scratch()
        var properties: [UInt8] = [], objectId: [UInt8] = []
        try rows { row in
            guard count < page.limit else {
                exceeded = true
                return false
            }
            if count > 0 { out.append(UInt8(ascii: ",")) }
            count += 1
            // The attributes text in place in the store's row (no String), when it is text.
            if let writer = entry.writer {
                switch format {
                case .esriJSON:
                    let mark = out.count
                    let copied = try row.withTextBytes(0) { stored -> Bool in
                        guard let stored, stored.count > 0 else { return false }
                        JSON.appendASCII("{\"attributes\":", to: &out)
                        return writer.encode(bytes: stored, into: &out, scratch: &scratch)
                    }
                    if copied {
                        FeatureSetText.appendGeometry(try shape(row, withGeometry: page.withGeometry, scratch: &scratch), to: &out)
                        out.append(UInt8(ascii: "}"))
                        return true
                    }
                    out.removeSubrange(mark...)
                case .geoJSON:
                    // `properties` first (the `id` before them is read from them), then the feature around them.
                    // The object id's text is copied out of the row's attributes text while that is in reach.
                    properties.removeAll(keepingCapacity: true)
                    objectId.removeAll(keepingCapacity: true)
                    let copied = row.withTextBytes(0) { stored -> Bool in
                        guard let stored, stored.count > 0, writer.encode(bytes: stored, into: &properties, scratch: &scratch) else { return false }
                        if let range = scratch.objectIdValue { objectId.append(contentsOf: UnsafeBufferPointer(rebasing: stored[range])) }
                        return true
                    }
                    if copied {
                        // A stored point read in WGS84 (no projection) is written from the text `storedPoint` compared
                        // it with, `{"x":X,"y":Y}` as `JSON.appendDouble` writes the two numbers: GeoJSON's coordinates
                        // are those two texts, not formatted a second time.
                        let pointText = page.withGeometry && outSystem == .wgs84 && storedPoint(row, scratch: &scratch) != nil
                        let geometry = pointText ? nil : try shape(row, withGeometry: page.withGeometry, scratch: &scratch)
                        properties.withUnsafeBufferPointer { written in
                            objectId.withUnsafeBufferPointer { id in
                                if pointText {
                                    scratch.number.withUnsafeBufferPointer { point in
                                        GeoJSONText.appendFeature(properties: written, objectId: id.isEmpty ? nil : id, storedPoint: point, to: &out)
                                    }
                                } else {
                                    GeoJSONText.appendFeature(properties: written, objectId: id.isEmpty ? nil : id, geometry: geometry, to: &out)
                                }
                            }
                        }
                        return true
                    }
                }
            }
            let feature = try decodedFeature(row, withGeometry: page.withGeometry)
            switch format {
            case .esriJSON: FeatureSetText.appendFeature(feature, keys: &keys, to: &out)
            case .geoJSON: GeoJSONText.appendFeature(feature, objectIdFieldName: layer.objectIdField, to: &out)
            }
            return true
        }
        switch format {
        case .esriJSON: FeatureSetText.appendTail(exceededTransferLimit: exceeded ? true : nil, to: &out)
        case .geoJSON: GeoJSONText.appendTail(exceededTransferLimit: exceeded, to: &out)
        }
        if count > 0 && format == .esriJSON { layer.answerHeads.featureSize = (out.count - head.count) / count + 1 }
        return (out, count)
    }

    /// The geometry of the statement's current row (columns 1 to 5), as `decodedFeature` reads it.
    private func shape(_ row: any StoreCursor, withGeometry: Bool, scratch: inout StoredAttributesWriter.Scratch) throws -> Geometry? {
        guard withGeometry else { return nil }
        // A point whose stored text is exactly its envelope's, compared in place; anything else as `decodedFeature`.
        if let point = storedPoint(row, scratch: &scratch) { return Projection.project(.point(point), from: .wgs84, to: outSystem) }
        return try shape(geometry: row.string(1), withGeometry: withGeometry, envelope: (row.double(2), row.double(3), row.double(4), row.double(5)))
    }

    /// The current row's point (in WGS84) when its stored text is exactly `{"x":X,"y":Y}` of its envelope's corner
    /// (`RowStore.storedPoint`), that text then left in `scratch.number`; nil for any other geometry.
    private func storedPoint(_ row: any StoreCursor, scratch: inout StoredAttributesWriter.Scratch) -> Point? {
        let envelope = (row.double(2), row.double(3), row.double(4), row.double(5))
        return row.withTextBytes(1) { text -> Point? in
            guard let text, text.count > 0 else { return nil }
            return RowStore.storedPoint(bytes: text, xmin: envelope.0, ymin: envelope.1, xmax: envelope.2, ymax: envelope.3,
                                        scratch: &scratch.number)
        }
    }

    /// Everything before reading a page's rows.
    private func prepare(_ db: any StoreConnection, view: VersionView, anchors: PageAnchors?) throws -> Prepared {
        let compiler = compiler(db.dialect)
        let unchanged = try defaultUnchanged(db, view: view)
        var terms = filters(compiler)
        if let g = queryGeometry, parameters.spatialRelation != .envelopeIntersects {
            // Exact predicate in Swift over the envelope candidates, then the ids bound back into the SQL.
            let candidates = QueryCompiler.visibleRows(layerKey: layer.key, view: view, defaultUnchangedSinceAncestor: unchanged, objectIds: parameters.objectIds)
            var matches: [Int64] = []
            try db.forEach("SELECT r.objectId, r.geometry \(candidates)\(terms)") { row in
                guard let text = row.string(1), let geometry = try RowStore.decodeGeometry(text) else { return true }
                if Spatial.holds(parameters.spatialRelation, feature: geometry, query: g), let id = row.int64(0) { matches.append(id) }
                return true
            }
            guard matches.count <= 30_000 else {
                throw ServiceError.invalidQuery("The spatial filter matches \(matches.count) features; narrow it (or use envelope-intersects) to at most 30000.")
            }
            terms.append(literal: matches.isEmpty ? " AND 1 = 0" : " AND r.objectId IN \(matches)")
        }
        let source: StoreSQL = "\(QueryCompiler.visibleRows(layerKey: layer.key, view: view, defaultUnchangedSinceAncestor: unchanged, objectIds: parameters.objectIds))\(terms)"
        let order = compiler.orderBy(orderTerms)

        // DEFAULT with no filter at all: the head index alone answers counts and chooses pages.
        let unfiltered = view.branch == 0 && hasNoFilter
        let headOnly: StoreSQL = "FROM head h WHERE h.layerKey = \(layer.key) AND h.branch = 0 AND h.isDelete = 0"

        if let stats = parameters.outStatistics, !stats.isEmpty {
            return .answer(try statistics(db, compiler: compiler, source: source, stats: stats))
        }
        if parameters.returnCountOnly && !parameters.returnExtentOnly {
            let sql: StoreSQL = unfiltered ? "SELECT count(*) \(headOnly)" : "SELECT count(*) \(source)"
            return .answer(.count(CountResult(count: try db.fetchValue(sql, as: Int.self) ?? 0)))
        }
        if parameters.returnExtentOnly {
            let row = try db.fetchOne("SELECT min(r.minX), min(r.minY), max(r.maxX), max(r.maxY), count(*) \(source)")
            var extent = ExtentResult.ExtentJSON(xmin: nil, ymin: nil, xmax: nil, ymax: nil, spatialReference: outReference)
            if let row, let xmin = row.get(0, as: Double.self), let ymin = row.get(1, as: Double.self),
               let xmax = row.get(2, as: Double.self), let ymax = row.get(3, as: Double.self) {
                if case .envelope(let e) = Projection.project(.envelope(Envelope(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)), from: .wgs84, to: outSystem) {
                    extent = ExtentResult.ExtentJSON(xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax, spatialReference: outReference)
                }
            }
            return .answer(.extent(ExtentResult(extent: extent, count: row?.get(4, as: Int.self) ?? 0)))
        }
        if parameters.returnIdsOnly {
            let ids = try db.fetchValues("SELECT r.objectId \(source) ORDER BY \(order)", as: Int64.self)
            return .answer(.ids(ObjectIdSet(objectIdFieldName: layer.objectIdField, objectIds: ids)))
        }

        let shape = pageShape
        let (select, limit, offset) = (shape.select, shape.limit, shape.offset)
        let idOrder = objectIdOrder
        let page: StoreSQL
        if unfiltered, let idOrder {
            // Walk the head index in object id order (either way), skip `offset` entries without touching the rows,
            // then fetch only the page's rows.
            if offset >= PageAnchors.threshold, let anchors,
               case .some(let anchor) = try anchors.objectId(db, layerKey: layer.key, offset: offset, idOrder) {
                page = unfilteredPage(shape, from: anchor ?? idOrder.pastTheEnd, direction: idOrder, dialect: db.dialect)
            } else {
                page = unfilteredPage(shape, from: nil, direction: idOrder, dialect: db.dialect)
            }
        } else if view.branch != 0, let idOrder {
            // A version in object id order: DEFAULT's rows the version does not override and the version's own
            // rows, each arm in head index order (order by the head's object id, not the row's, or SQLite sorts),
            // merged by SQLite.
            let arms = QueryCompiler.versionArms(layerKey: layer.key, view: view, defaultUnchangedSinceAncestor: unchanged, objectIds: parameters.objectIds)
            page = """
                \(select), h0.objectId AS oid \(arms.fromDefault)\(terms) UNION ALL \
                \(select), hv2.objectId AS oid \(arms.fromVersion)\(terms) ORDER BY oid\(raw: idOrder.sql) LIMIT \(raw: String(limit + 1)) OFFSET \(offset)
                """
        } else {
            // In DEFAULT the head's primary key gives object id order (either way) without a sort.
            let ordering: StoreSQL = view.branch == 0 && idOrder != nil ? "h.objectId\(raw: idOrder?.sql ?? "")" : order
            page = "\(select) \(source) ORDER BY \(ordering) LIMIT \(raw: String(limit + 1)) OFFSET \(offset)"
        }
        return .page(Page(sql: page, limit: limit, withGeometry: shape.withGeometry))
    }

    /// What a page of features reads: its columns, at most how many rows, from which offset.
    struct PageShape {
        var select: StoreSQL
        var limit: Int
        var offset: Int
        var withGeometry: Bool
    }

    var pageShape: PageShape {
        let cap = layer.maxRecordCount
        let withGeometry = parameters.returnGeometry && !layer.isTable
        // The envelope columns let a point be read without parsing its text (`RowStore.storedPoint`).
        let select: StoreSQL = withGeometry ? "SELECT r.attributes, r.geometry, r.minX, r.minY, r.maxX, r.maxY" : "SELECT r.attributes, NULL, NULL, NULL, NULL, NULL"
        return PageShape(select: select, limit: max(0, min(parameters.resultRecordCount ?? cap, cap)),
                         offset: max(0, parameters.resultOffset ?? 0), withGeometry: withGeometry)
    }

    /// A page of DEFAULT without filter, in object id order: from the object id `start` when it is known (the head
    /// index walked from there), else `offset` head entries skipped without touching their rows; `checks` are
    /// `AND ...` terms of the statement's own (`singleStatementPage`).
    ///
    /// Page sizes and the layer's key are written into the text (numbers this plan computed or the store
    /// assigned, never the caller's text), not bound: one statement text a layer and page size. With
    /// `opaqueStart`, the start is read through a one-row subquery (`(SELECT ?)`): PostgreSQL then estimates the
    /// page's cost alike whatever the start, so after its first custom plans it keeps one generic plan of the
    /// prepared statement and stops planning the page on every run (`singleStatementPage`).
    ///
    /// Where the dialect flags DEFAULT's live rows (`SQLDialect.flagsDefaultLiveRows`: PostgreSQL), a page from a
    /// start (or from the first object) is one range of the partial index of DEFAULT's live rows
    /// (`featureRow.defaultLive`, kept by a trigger on `head`: `PostgresSchema` v4) instead of a walk of the head
    /// index with a primary-key look-up of each row.
    ///
    /// `direction` is the object id order of the page: from `start` upwards when ascending, downwards when descending.
    func unfilteredPage(_ shape: PageShape, from start: Int64?, direction: PageAnchors.Direction = .ascending, dialect: SQLDialect,
                        opaqueStart: Bool = false, checks: StoreSQL = "") -> StoreSQL {
        let (select, limit, offset) = (shape.select, shape.limit, shape.offset)
        let layerKey = String(layer.key)
        let (bound, sql): (StoreSQL, String) = direction == .ascending ? (">=", "") : ("<=", " DESC")
        if dialect.flagsDefaultLiveRows && (start != nil || offset == 0) {
            var from: StoreSQL = ""
            if let start { from = opaqueStart ? " AND r.objectId \(bound) (SELECT \(start))" : " AND r.objectId \(bound) \(start)" }
            return """
                \(select) FROM featureRow r WHERE r.layerKey = \(raw: layerKey) AND r.defaultLive = 1\(from)\(checks) \
                ORDER BY r.objectId\(raw: sql) LIMIT \(raw: String(limit + 1))
                """
        }
        if let start {
            let from: StoreSQL = opaqueStart ? "(SELECT \(start))" : "\(start)"
            // Each head entry joined to its row in the head index's order (no OFFSET to skip, so no row is touched
            // that is not answered; and no sort: with `r.id IN (...) ORDER BY r.objectId` SQLite copied the page's
            // rows into a temporary B-tree).
            return """
                \(select) FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = \(raw: layerKey) AND h.branch = 0 \
                AND h.isDelete = 0 AND h.objectId \(bound) \(from)\(checks) ORDER BY h.objectId\(raw: sql) LIMIT \(raw: String(limit + 1))
                """
        }
        if offset == 0 {
            return """
                \(select) FROM head h JOIN featureRow r ON r.id = h.rowId WHERE h.layerKey = \(raw: layerKey) AND h.branch = 0 \
                AND h.isDelete = 0\(checks) ORDER BY h.objectId\(raw: sql) LIMIT \(raw: String(limit + 1))
                """
        }
        return """
            \(select) FROM featureRow r WHERE r.id IN (SELECT h.rowId FROM head h WHERE h.layerKey = \(raw: layerKey) AND h.branch = 0 \
            AND h.isDelete = 0 ORDER BY h.objectId\(raw: sql) LIMIT \(raw: String(limit + 1)) OFFSET \(offset))\(checks) ORDER BY r.objectId\(raw: sql)
            """
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

    private func statistics(_ db: any StoreConnection, compiler: QueryCompiler, source: StoreSQL, stats: [StatisticDefinition]) throws -> QueryResponse {
        var groups: [String] = []
        for name in (parameters.groupByFieldsForStatistics ?? []).compactMap({ layer.field($0)?.name }) where !groups.contains(name) { groups.append(name) }
        var selections: [StoreSQL] = groups.map { compiler.field($0) }
        var outNames: [String] = groups
        var outTypes: [String] = groups.map { layer.field($0)?.type.rawValue ?? "esriFieldTypeString" }
        // Columns holding stored values as they are (group keys, min, max): SQLite answers a JSON number written
        // as an integer as an INTEGER, which PostgreSQL's double precision does not tell apart.
        var storedValues = Set(groups.indices)
        for stat in stats {
            if stat.statisticType == .min || stat.statisticType == .max { storedValues.insert(selections.count) }
            selections.append(compiler.statistic(stat.statisticType, of: stat.onStatisticField))
            outNames.append(stat.outStatisticFieldName ?? "\(stat.statisticType.rawValue)_\(stat.onStatisticField == "*" ? "all" : stat.onStatisticField)")
            outTypes.append(stat.statisticType == .count ? "esriFieldTypeInteger" : "esriFieldTypeDouble")
        }
        var sql: StoreSQL = "SELECT \(selections.joined(separator: ", ")) \(source)"
        if !groups.isEmpty {
            sql.append(db.dialect.groupAndOrder(by: groups.map { compiler.field($0) }))
        }
        let rows = try db.fetchAll(sql)
        let exactIntegers = !db.dialect.keepsIntegerType
        let features = rows.map { row -> Feature in
            var attributes = Attributes()
            for (index, name) in outNames.enumerated() {
                let value: AttributeValue
                switch row[index] {
                case .null: value = .null
                case .integer(let i): value = .int(i)
                case .real(let d):
                    if exactIntegers, storedValues.contains(index), d.rounded() == d, abs(d) < 1e15 { value = .int(Int64(d)) } else { value = .double(d) }
                case .text(let s): value = .string(s)
                case .blob(let data): value = String(data: data, encoding: .utf8).map(AttributeValue.string) ?? .null
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
struct PlannedQuery: Sendable {
    let plan: QueryPlan
    let service: ServiceModel
    let policy: AccessPolicy
    /// `gdbVersion` (DEFAULT when nil).
    let versionName: String?
    let anchors: PageAnchors

    func view(_ db: any StoreConnection) throws -> VersionView {
        VersionView(try ServiceCore.resolveVersion(db, service: service, name: versionName, policy: policy))
    }
}
