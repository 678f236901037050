import Foundation
import FeatureServiceModel
import WebMap

/// Writing and resolving feature rows. Every write inserts a row and moves the head index; nothing is
/// updated in place.
enum RowStore {
    /// A state to write for one object.
    struct NewRow {
        var objectId: Int64
        var globalId: String
        var isDelete: Bool
        var attributes: Attributes
        /// In WGS84.
        var geometry: Geometry?
    }

    @discardableResult
    static func write(_ db: any StoreConnection, layerKey: Int64, branch: Int64, moment: Int64, row: NewRow) throws -> FeatureRowRecord {
        let envelope = row.geometry?.envelope
        var record = FeatureRowRecord(
            id: nil, layerKey: layerKey, objectId: row.objectId, globalId: row.globalId, branch: branch, moment: moment,
            isDelete: row.isDelete, attributes: row.attributes.json.text, geometry: row.geometry?.json().text,
            xmin: envelope?.xmin, ymin: envelope?.ymin, xmax: envelope?.xmax, ymax: envelope?.ymax)
        // Two edits of one object in one request share the request's moment: the later replaces the
        // earlier inside the same uncommitted transaction (no committed row is ever changed).
        // Nobody reads the written row's id back: PostgreSQL sends the rows of a request in batches (one
        // statement writes the rows and their heads), SQLite writes each at once.
        try db.deferrable(DeferrableWrite(kind: "featureRow", key: [layerKey, branch, row.objectId],
                                          values: record.values, statement: batchStatement)) {
            record.id = try writeNow(db, record)
        }
        return record
    }

    /// One row and its head (SQLite). The replaced row keeps its id; RETURNING answers the id in both cases (the
    /// inserted row's or the updated one's). One constant SQL text: the store prepares it once per connection and
    /// binds the values. Stepped to the end (not `fetchValue`, which stops at the first row), so that the
    /// statement completes.
    private static func writeNow(_ db: any StoreConnection, _ record: FeatureRowRecord) throws -> Int64 {
        var id: Int64?
        try db.forEach("""
            INSERT INTO featureRow (layerKey, objectId, globalId, branch, moment, isDelete, attributes, geometry, minX, minY, maxX, maxY) \
            VALUES (\(record.layerKey), \(record.objectId), \(record.globalId), \(record.branch), \(record.moment), \(record.isDelete), \
            \(record.attributes), \(record.geometry), \(record.xmin), \(record.ymin), \(record.xmax), \(record.ymax)) \
            \(raw: upsertRow) RETURNING id
            """) { cursor in
            id = cursor.int64(0)
            return true
        }
        guard let id else { throw ServiceError.internal("The store answered no id for a written feature row.") }
        try upsertHead(db, layerKey: record.layerKey, branch: record.branch, objectId: record.objectId, moment: record.moment,
                       isDelete: record.isDelete, rowId: id)
        return id
    }

    private static let upsertRow = """
        ON CONFLICT (layerKey, branch, objectId, moment) DO UPDATE SET globalId = excluded.globalId, isDelete = excluded.isDelete, \
        attributes = excluded.attributes, geometry = excluded.geometry, minX = excluded.minX, minY = excluded.minY, \
        maxX = excluded.maxX, maxY = excluded.maxY
        """

    /// Rows (in `FeatureRowRecord.insertColumns` order) and their heads in one statement: the inserted (or
    /// replaced) rows' ids go straight into the head upserts. No two rows of a batch share an object.
    private static let batchStatement: @Sendable ([[StoreValue]]) -> StoreSQL = { rows in
        let placeholders = "(" + Array(repeating: "?", count: FeatureRowRecord.insertColumns.count).joined(separator: ", ") + ")"
        let text = """
            WITH r AS (INSERT INTO featureRow (\(FeatureRowRecord.insertColumns.joined(separator: ", "))) VALUES \
            \(Array(repeating: placeholders, count: rows.count).joined(separator: ", ")) \(upsertRow) \
            RETURNING id, layerKey, branch, objectId, moment, isDelete) \
            INSERT INTO head (layerKey, branch, objectId, moment, isDelete, rowId) SELECT layerKey, branch, objectId, moment, isDelete, id FROM r \
            ON CONFLICT (layerKey, branch, objectId) DO UPDATE SET moment = excluded.moment, isDelete = excluded.isDelete, rowId = excluded.rowId
            """
        return StoreSQL(text: text, arguments: rows.flatMap { $0 })
    }

    /// Points the head of an object in a branch at `rowId`.
    private static func upsertHead(_ db: any StoreConnection, layerKey: Int64, branch: Int64, objectId: Int64, moment: Int64,
                                   isDelete: Bool, rowId: Int64) throws {
        try db.execute("""
            INSERT INTO head (layerKey, branch, objectId, moment, isDelete, rowId) \
            VALUES (\(layerKey), \(branch), \(objectId), \(moment), \(isDelete), \(rowId)) \
            ON CONFLICT (layerKey, branch, objectId) DO UPDATE SET moment = excluded.moment, isDelete = excluded.isDelete, rowId = excluded.rowId
            """)
    }

    /// Rebuilds the head entries of `objectIds` in `branch` from the rows (after rows were discarded).
    static func rebuildHeads(_ db: any StoreConnection, layerKey: Int64, branch: Int64, objectIds: Set<Int64>) throws {
        for objectId in objectIds {
            let newest = try db.fetchOne("""
                SELECT id, moment, isDelete FROM featureRow WHERE layerKey = \(layerKey) AND branch = \(branch) AND objectId = \(objectId) \
                ORDER BY moment DESC LIMIT 1
                """)
            if let newest {
                try upsertHead(db, layerKey: layerKey, branch: branch, objectId: objectId, moment: try newest.require("moment"),
                               isDelete: try newest.require("isDelete"), rowId: try newest.require("id"))
            } else {
                try db.execute("DELETE FROM head WHERE layerKey = \(layerKey) AND branch = \(branch) AND objectId = \(objectId)")
            }
        }
    }

    /// The newest DEFAULT row of an object at or before `moment` (nil when it did not exist then).
    static func defaultRow(_ db: any StoreConnection, layerKey: Int64, objectId: Int64, atOrBefore moment: Int64) throws -> FeatureRowRecord? {
        try db.fetchRecord(FeatureRowRecord.self, """
            SELECT * FROM featureRow WHERE layerKey = \(layerKey) AND branch = 0 AND objectId = \(objectId) AND moment <= \(moment) \
            ORDER BY moment DESC LIMIT 1
            """)
    }

    /// The feature row with `id`.
    static func row(_ db: any StoreConnection, id: Int64) throws -> FeatureRowRecord? {
        try db.fetchRecord(FeatureRowRecord.self, "SELECT * FROM featureRow WHERE id = \(id)")
    }

    /// The head of an object in a branch: the moment and id of its newest row there.
    private static func head(_ db: any StoreConnection, layerKey: Int64, branch: Int64, objectId: Int64) throws -> (moment: Int64, rowId: Int64)? {
        guard let head = try db.fetchOne("""
            SELECT moment, rowId FROM head WHERE layerKey = \(layerKey) AND branch = \(branch) AND objectId = \(objectId)
            """) else { return nil }
        return (try head.require("moment"), try head.require("rowId"))
    }

    /// The row an object reads as in a view (DEFAULT or a version), deletes included; nil when the
    /// object never existed there.
    static func visibleRow(_ db: any StoreConnection, layerKey: Int64, objectId: Int64, view: VersionView) throws -> FeatureRowRecord? {
        if view.branch != 0 {
            if let head = try head(db, layerKey: layerKey, branch: view.branch, objectId: objectId), head.moment > view.baseMoment {
                return try row(db, id: head.rowId)
            }
            return try defaultRow(db, layerKey: layerKey, objectId: objectId, atOrBefore: view.ancestorMoment)
        }
        guard let head = try head(db, layerKey: layerKey, branch: 0, objectId: objectId) else { return nil }
        return try row(db, id: head.rowId)
    }

    /// The visible row of the object with `globalId` in a view.
    static func visibleRow(_ db: any StoreConnection, layerKey: Int64, globalId: String, view: VersionView) throws -> FeatureRowRecord? {
        let ids = try db.fetchValues("""
            SELECT DISTINCT objectId FROM featureRow WHERE layerKey = \(layerKey) AND globalId = \(globalId) ORDER BY objectId
            """, as: Int64.self)
        for id in ids {
            if let row = try visibleRow(db, layerKey: layerKey, objectId: id, view: view) { return row }
        }
        return nil
    }

    static func decodeAttributes(_ text: String) throws -> Attributes {
        Attributes(try AttributeValue.members(ofStoredObject: text).map { (name: $0.0, value: $0.1) })
    }

    /// A point read from its row's envelope columns, when the stored text is exactly what writing that
    /// point gives (`{"x":X,"y":Y}`, numbers as `JSON.text` writes them): then parsing the text would give
    /// the same point, so it is not parsed. Nil otherwise (the caller parses).
    static func storedPoint(_ text: String, xmin: Double?, ymin: Double?, xmax: Double?, ymax: Double?) -> Point? {
        var stored = text
        var scratch: [UInt8] = []
        return stored.withUTF8 { storedPoint(bytes: $0, xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax, scratch: &scratch) }
    }

    /// `storedPoint` of the stored text's bytes; `scratch` holds the expected text (kept from call to call).
    static func storedPoint(bytes stored: UnsafeBufferPointer<UInt8>, xmin: Double?, ymin: Double?, xmax: Double?, ymax: Double?,
                            scratch expected: inout [UInt8]) -> Point? {
        guard stored.count > 5, stored[0] == UInt8(ascii: "{"), stored[1] == UInt8(ascii: "\""), stored[2] == UInt8(ascii: "x"),
              stored[3] == UInt8(ascii: "\""), stored[4] == UInt8(ascii: ":"),
              let xmin, let ymin, xmin == xmax, ymin == ymax, xmin.isFinite, ymin.isFinite else { return nil }
        // The text the core's writer makes of this point (the writer that stored it).
        expected.removeAll(keepingCapacity: true)
        JSON.appendASCII("{\"x\":", to: &expected)
        JSON.appendDouble(xmin, to: &expected)
        JSON.appendASCII(",\"y\":", to: &expected)
        JSON.appendDouble(ymin, to: &expected)
        expected.append(UInt8(ascii: "}"))
        guard stored.elementsEqual(expected) else { return nil }
        // Parsing that text gives the same values, except that -0 is written (and so read back) as 0.
        return Point(x: xmin == 0 ? 0 : xmin, y: ymin == 0 ? 0 : ymin)
    }

    static func decodeGeometry(_ text: String?) throws -> Geometry? {
        guard let text else { return nil }
        // Points are most rows: read {"x":..,"y":..} without building a tree.
        if text.hasPrefix("{\"x\":"), let members = try? AttributeValue.members(ofStoredObject: text), members.count == 2,
           let x = members[0].1.double, let y = members[1].1.double {
            return .point(Point(x: x, y: y))
        }
        return try Geometry.parse(try JSON.parse(text)).geometry
    }
}

/// Which rows a read or write sees: DEFAULT (branch 0), or a version's branch reading through to
/// DEFAULT at its ancestor moment.
struct VersionView: Sendable {
    var branch: Int64
    var ancestorMoment: Int64
    var baseMoment: Int64

    static let defaultVersion = VersionView(branch: 0, ancestorMoment: .max, baseMoment: 0)

    init(branch: Int64, ancestorMoment: Int64, baseMoment: Int64) {
        self.branch = branch
        self.ancestorMoment = ancestorMoment
        self.baseMoment = baseMoment
    }

    init(_ version: VersionRecord) {
        self.init(branch: version.branch, ancestorMoment: version.isDefault ? .max : version.ancestorMoment, baseMoment: version.baseMoment)
    }
}
