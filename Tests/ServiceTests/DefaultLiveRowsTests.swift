import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// PostgreSQL reads a page of DEFAULT from the rows flagged `defaultLive` (kept by a trigger on `head`), SQLite from
/// the head index: after edits in DEFAULT, a post, and a discarded edit session, the pages answer the same bytes as
/// the general plan (`where 1=1`, which joins the head), and on PostgreSQL the flagged rows are exactly the rows
/// DEFAULT's head points at and that are not deletes.
@Suite struct DefaultLiveRowsTests {
    static let service = "DamageAssessment"

    @Test func pagesFollowEveryWayDefaultChanges() async throws {
        let n = 300
        let folder = try ScaleProbe.folder(count: n)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let core = try await ServiceCore.open(Fixtures.configuration(.init(sampleFolders: [folder])))
        func feature(_ id: Int64?, notes: String) -> EditFeature {
            var attributes = Attributes([("notes", .string(notes))])
            if let id { attributes = Attributes([("objectid", .int(id)), ("notes", .string(notes))]) }
            return EditFeature(attributes: attributes, geometry: .point(Point(x: -88.1, y: 41.8)), spatialReference: .wgs84)
        }
        func edit(_ edits: LayerEdits, _ options: EditOptions = EditOptions()) async throws {
            let result = try await core.applyEdits(service: Self.service, layer: 0, edits, options: options, as: .anonymous)
            #expect(result.succeeded)
        }
        // In DEFAULT: deletes, an update, adds.
        try await edit(LayerEdits(adds: [feature(nil, notes: "added 1"), feature(nil, notes: "added 2")], updates: [feature(3, notes: "changed")],
                                  deletes: [1, 2]))
        // In a version, posted: an update, a delete, an add, and an update of a feature DEFAULT changed before.
        let version = try await core.createVersion(service: Self.service, versionName: "Crew", as: .anonymous).versionInfo.versionName
        try await edit(LayerEdits(adds: [feature(nil, notes: "added in version")], updates: [feature(10, notes: "version"), feature(3, notes: "again")],
                                  deletes: [11]), EditOptions(gdbVersion: version))
        _ = try await core.post(service: Self.service, version: version, as: .anonymous)
        // An edit session on DEFAULT whose edits are discarded.
        let guid = try await core.versionManagementInfo(service: Self.service, as: .anonymous).defaultVersionGuid
        let session = "{DDDDDDDD-0000-0000-0000-000000000004}"
        _ = try await core.startReading(service: Self.service, version: guid, sessionId: session, as: .anonymous)
        _ = try await core.startEditing(service: Self.service, version: guid, sessionId: session, as: .anonymous)
        try await edit(LayerEdits(updates: [feature(20, notes: "discarded")], deletes: [21]), EditOptions(sessionID: session))
        _ = try await core.stopEditing(service: Self.service, version: guid, sessionId: session, saveEdits: false, as: .anonymous)

        let ids = try #require(try await core.query(service: Self.service, layer: 0, QueryParameters(returnIdsOnly: true), as: .anonymous).objectIds)
        #expect(ids.count == n - 3 + 3)
        #expect(!ids.contains(1) && !ids.contains(2) && !ids.contains(11) && ids.contains(21))
        for (offset, count) in [(0, 1_000), (0, 7), (5, 20), (n - 10, 100)] {
            let plain = try await core.queryText(service: Self.service, layer: 0, QueryParameters(resultOffset: offset, resultRecordCount: count), as: .anonymous)
            let general = try await core.queryText(service: Self.service, layer: 0, QueryParameters(where: "1=1", resultOffset: offset, resultRecordCount: count),
                                                   as: .anonymous)
            #expect(plain == general, "offset \(offset), count \(count)")
        }
        let notes = try #require(try await core.query(service: Self.service, layer: 0, QueryParameters(objectIds: [3, 10, 20]), as: .anonymous).featureSet)
        #expect(notes.features.map { $0.attributes["notes"] } == [.string("again"), .string("version"), .string("generated")])

        if core.database.dialect.flagsDefaultLiveRows {
            let (flagged, heads) = try await core.database.read { db in
                (try db.fetchValues("SELECT id FROM featureRow WHERE defaultLive = 1 ORDER BY id", as: Int64.self),
                 try db.fetchValues("SELECT rowId FROM head WHERE branch = 0 AND isDelete = 0 ORDER BY rowId", as: Int64.self))
            }
            #expect(flagged == heads)
            #expect(flagged.count == ids.count)
        }
    }
}
