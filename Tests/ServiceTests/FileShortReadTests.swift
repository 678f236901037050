import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// Pages of DEFAULT from a database file, which `SQLiteStore` reads as one statement on a read-only connection of its
/// own (`SQLiteShortReads`) beside the pool that writes: the same bytes as the decoded path, and every committed edit
/// seen by the next page.
@Suite struct FileShortReadTests {
    static func esriJSON(_ core: ServiceCore, _ parameters: QueryParameters) async throws -> [UInt8] {
        let answer = try await core.query(service: "DamageAssessment", layer: 0, parameters, as: .anonymous)
        var bytes: [UInt8] = []
        try OrderedJSONEncoder().encode(answer).write(to: &bytes)
        return bytes
    }

    /// Each page shape as GeoJSON and Esri JSON, against the decoded path.
    static func expectPagesMatch(_ core: ServiceCore, total: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let shapes: [QueryParameters] = [
            QueryParameters(outSR: .wgs84, resultOffset: 0, resultRecordCount: 5),
            QueryParameters(outSR: .wgs84, resultOffset: total / 2, resultRecordCount: 20),
            QueryParameters(outSR: .wgs84, resultOffset: max(0, total - 4), resultRecordCount: 20),
            QueryParameters(outSR: .wgs84, orderByFields: "OBJECTID DESC", resultOffset: 1, resultRecordCount: 3),
            QueryParameters(outFields: ["notes"], returnGeometry: false, resultOffset: max(0, total - 4)),
        ]
        for parameters in shapes {
            let geoJSON = try await GeoJSONPagesTests.written(core, "DamageAssessment", 0, parameters)
            let decoded = try await GeoJSONPagesTests.decoded(core, "DamageAssessment", 0, parameters)
            #expect(geoJSON == decoded, "\(parameters)", sourceLocation: sourceLocation)
            let text = try await core.queryText(service: "DamageAssessment", layer: 0, parameters, as: .anonymous)
            #expect(try await text == esriJSON(core, parameters), "\(parameters)", sourceLocation: sourceLocation)
        }
    }

    @Test func pagesFromAFileSeeEveryCommittedEdit() async throws {
        let path = Fixtures.temporaryDatabase()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let core = try await Fixtures.core(users: false, database: path)
        let store = try #require(core.database as? SQLiteStore)
        #expect(store.shortReads != nil)
        var total = try await core.count("DamageAssessment", 0)
        try await Self.expectPagesMatch(core, total: total)

        let added = try await GeoJSONPagesTests.addAwkwardFeatures(core)
        try #require(added.count == 6)
        total += 6
        let last = String(decoding: try await GeoJSONPagesTests.written(core, "DamageAssessment", 0,
                                                                        QueryParameters(outSR: .wgs84, resultOffset: total - 6)), as: UTF8.self)
        for id in added { #expect(last.contains("\"id\":\(id),")) }
        try await Self.expectPagesMatch(core, total: total)

        let deleted = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(deletes: [added[0], added[5]]), as: .anonymous)
        #expect(deleted.succeeded)
        total -= 2
        let after = String(decoding: try await core.queryText(service: "DamageAssessment", layer: 0,
                                                             QueryParameters(resultOffset: total - 4), as: .anonymous), as: UTF8.self)
        #expect(!after.contains("\"objectid\":\(added[0])") && !after.contains("\"objectid\":\(added[5])"))
        #expect(after.contains("\"objectid\":\(added[1])"))
        try await Self.expectPagesMatch(core, total: total)
    }

    /// `ShortReadTests.shortReadsSeeDeletesAndDefaultAccessAtOnce` on a file: deep pages from cached object ids, a
    /// delete seen at once, DEFAULT made private refused to anonymous callers and read by an administrator.
    @Test func deepPagesAndDefaultAccessFromAFile() async throws {
        let n = PageAnchors.threshold + 300
        let folder = try ScaleProbe.folder(count: n)
        let path = Fixtures.temporaryDatabase()
        defer {
            try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let core = try await ServiceCore.open(.init(database: path, sampleFolders: [folder], usersFile: Fixtures.usersFile))
        #expect((core.database as? SQLiteStore)?.shortReads != nil)
        try await ShortReadTests.expectShortReadsSeeDeletesAndDefaultAccess(core)
    }
}
