import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

@Suite struct QueryTests {
    @Test func whereClauseSubset() async throws {
        let core = try await Fixtures.core()
        let all = try await core.count("TreesOfPortland", 0)
        #expect(try await core.count("TreesOfPortland", 0, where: "1=1") == all)
        let good = try await core.count("TreesOfPortland", 0, where: "Condition = 'Good'")
        let notGood = try await core.count("TreesOfPortland", 0, where: "NOT Condition = 'Good' OR Condition IS NULL")
        #expect(good + notGood == all)
        #expect(try await core.count("TreesOfPortland", 0, where: "condition IN ('Good', 'Fair')") ==
                (try await core.count("TreesOfPortland", 0, where: "Condition = 'Good' OR Condition = 'Fair'")))
        #expect(try await core.count("TreesOfPortland", 0, where: "DBH BETWEEN 0 AND 1000") ==
                (try await core.count("TreesOfPortland", 0, where: "DBH IS NOT NULL")))
        #expect(try await core.count("TreesOfPortland", 0, where: "UPPER(Address) LIKE '%ST%'") > 0)
        #expect(try await core.count("TreesOfPortland", 0, where: "Planted_Date >= DATE '1900-01-01'") ==
                (try await core.count("TreesOfPortland", 0, where: "Planted_Date IS NOT NULL")))
        #expect(try await core.count("TreesOfPortland", 0, where: "Planted_Date < TIMESTAMP '1900-01-01 00:00:00'") == 0)
        #expect(try await core.count("TreesOfPortland", 0, where: "OBJECTID <= 3 AND (OBJECTID > 1)") == 2)
        #expect(try await core.count("TreesOfPortland", 0, where: "Address = 'O''Brien St'") == 0)
    }

    @Test(arguments: [
        ("1=1; DROP TABLE featureRow", 3),
        ("Condition = 'Good' -- comment", 19),
        ("Condition = 'Good' /* c */", 19),
        ("Condition = 'Good", 12),
        ("Nope = 1", 0),
        ("Condition = 'Good' UNION SELECT * FROM head", 19),
        ("sqlite_version() = 1", 0),
        ("Condition = \"Good\"", 12),
        ("1=1 OR", 6),
        ("DBH > (SELECT 1)", 7),
    ])
    func injectionAttemptsAreRefusedWithTheirOffset(clause: String, offset: Int) async throws {
        let core = try await Fixtures.core()
        let error = await expectServiceError(400) { _ = try await core.count("TreesOfPortland", 0, where: clause) }
        #expect(error?.message.contains("offset \(offset)") == true, "\(String(describing: error))")
        // The database is untouched.
        #expect(try await core.count("TreesOfPortland", 0) >= 20)
    }

    @Test func outFieldsAndOrderByAreValidated() async throws {
        let core = try await Fixtures.core()
        await expectServiceError(400) {
            _ = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(outFields: ["Address", "1; DROP TABLE head"]), as: .anonymous)
        }
        await expectServiceError(400) {
            _ = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(orderByFields: "Address; DROP TABLE head"), as: .anonymous)
        }
        await expectServiceError(400) {
            _ = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(orderByFields: "DBH SIDEWAYS"), as: .anonymous)
        }
        await expectServiceError(400) { _ = try QueryParameters.parseObjectIds("1,2;DROP TABLE head") }
        #expect(try QueryParameters.parseObjectIds("1, 2,3") == [1, 2, 3])

        let set = try #require(try await core.query(service: "TreesOfPortland", layer: 0,
            QueryParameters(outFields: ["dbh", "Address"], returnGeometry: false, orderByFields: "DBH DESC, Address"), as: .anonymous).featureSet)
        #expect(set.features.first?.attributes.names == ["OBJECTID", "DBH", "Address"])
        #expect(set.features.first?.geometry == nil)
        let dbh = set.features.compactMap { $0.attributes["DBH"]?.double }
        #expect(dbh == dbh.sorted(by: >))
    }

    @Test func pagingAndTransferLimit() async throws {
        let core = try await Fixtures.core()
        let total = try await core.count("TreesOfPortland", 0)
        var seen: [Int64] = []
        var offset = 0
        while true {
            let page = try #require(try await core.query(service: "TreesOfPortland", layer: 0,
                QueryParameters(resultOffset: offset, resultRecordCount: 7), as: .anonymous).featureSet)
            seen += page.objectIds
            offset += 7
            if offset >= total {
                #expect(page.exceededTransferLimit == nil)
                break
            }
            #expect(page.exceededTransferLimit == true)
        }
        #expect(seen.count == total)
        #expect(Set(seen).count == total)
        // Exactly a full last page: no flag.
        let exact = try #require(try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(resultRecordCount: total), as: .anonymous).featureSet)
        #expect(exact.features.count == total && exact.exceededTransferLimit == nil)
        // Ids are not capped; objectIds filter.
        let ids = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(returnIdsOnly: true), as: .anonymous).objectIds
        #expect(ids?.count == total)
        let two = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(objectIds: [2, 4, 999]), as: .anonymous).featureSet
        #expect(two?.objectIds == [2, 4])
    }

    @Test func pageSizeIsCappedByMaxRecordCount() async throws {
        let folder = try SampleCopy.make(from: Fixtures.trees, settings: #"{"maxRecordCount": 5}"#)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let core = try await ServiceCore.open(Fixtures.configuration(.init(sampleFolders: [folder])))
        let page = try #require(try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(resultRecordCount: 100), as: .anonymous).featureSet)
        #expect(page.features.count == 5)
        #expect(page.exceededTransferLimit == true)
    }

    @Test func statisticsAndExtent() async throws {
        let core = try await Fixtures.core()
        let stats = try #require(try await core.query(service: "TreesOfPortland", layer: 3, QueryParameters(outStatistics: [
            StatisticDefinition(statisticType: .count, onStatisticField: "OBJECTID", outStatisticFieldName: "n"),
            StatisticDefinition(statisticType: .min, onStatisticField: "DBH", outStatisticFieldName: "lo"),
            StatisticDefinition(statisticType: .max, onStatisticField: "DBH", outStatisticFieldName: "hi"),
            StatisticDefinition(statisticType: .avg, onStatisticField: "DBH", outStatisticFieldName: "mean"),
            StatisticDefinition(statisticType: .sum, onStatisticField: "DBH", outStatisticFieldName: "total"),
        ]), as: .anonymous).featureSet)
        let row = try #require(stats.features.first?.attributes)
        #expect(row["n"] == .int(Int64(try await core.count("TreesOfPortland", 3))))
        let lo = try #require(row["lo"]?.double), hi = try #require(row["hi"]?.double), mean = try #require(row["mean"]?.double)
        #expect(lo <= mean && mean <= hi)

        let grouped = try #require(try await core.query(service: "TreesOfPortland", layer: 3, QueryParameters(
            outStatistics: [StatisticDefinition(statisticType: .count, onStatisticField: "*", outStatisticFieldName: "n")],
            groupByFieldsForStatistics: ["Condition"]), as: .anonymous).featureSet)
        #expect(grouped.features.count >= 2)

        let extent = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(outSR: .wgs84, returnExtentOnly: true), as: .anonymous)
        guard case .extent(let e) = extent else { Issue.record("no extent"); return }
        #expect(e.count >= 20)
        #expect((e.extent.xmin ?? 0) > -123 && (e.extent.xmax ?? 0) < -122)
        #expect((e.extent.ymin ?? 0) > 45 && (e.extent.ymax ?? 0) < 46)
    }

    @Test func spatialFiltersAndProjection() async throws {
        let core = try await Fixtures.core()
        let hoods = try #require(try await core.query(service: "TreesOfPortland", layer: 1, QueryParameters(outSR: .wgs84), as: .anonymous).featureSet)
        let kerns = try #require(hoods.features.first { $0.attributes["NAME"] == .string("Kerns") }?.geometry)
        // Trees within Kerns (polygon, WGS84 in), and the same in Web Mercator.
        let within = try await core.query(service: "TreesOfPortland", layer: 0,
            QueryParameters(geometry: kerns, inSR: .wgs84, spatialRelation: .within).withIdsOnly(), as: .anonymous).objectIds ?? []
        #expect(!within.isEmpty)
        let mercator = Projection.project(kerns, from: .wgs84, to: .webMercator)
        let within3857 = try await core.query(service: "TreesOfPortland", layer: 0,
            QueryParameters(geometry: mercator, inSR: SpatialReference(wkid: 3857), spatialRelation: .within).withIdsOnly(), as: .anonymous).objectIds ?? []
        #expect(within3857 == within)
        let named = try await core.features("TreesOfPortland", 0, where: "Neighborhood = 'Kerns'")
        #expect(!named.isEmpty)
        // A tree's point: the neighborhood that contains it (intersects and contains agree).
        let tree = try #require(try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(objectIds: [within[0]], outSR: .wgs84), as: .anonymous).featureSet?.features.first?.geometry)
        for relation in [SpatialRelation.intersects, .contains, .envelopeIntersects] {
            let found = try await core.query(service: "TreesOfPortland", layer: 1,
                QueryParameters(outFields: ["NAME"], geometry: tree, inSR: .wgs84, spatialRelation: relation), as: .anonymous).featureSet
            #expect(found?.features.contains { $0.attributes["NAME"] == .string("Kerns") } == true, "\(relation)")
        }
        // An envelope far away finds nothing.
        let none = try await core.count("TreesOfPortland", 0, where: nil)
        #expect(none > 0)
        let far = try await core.query(service: "TreesOfPortland", layer: 0,
            QueryParameters(geometry: .envelope(Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1)), inSR: .wgs84, returnCountOnly: true), as: .anonymous).count
        #expect(far == 0)
        // Default output is the layer's Web Mercator.
        let first = try #require(try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(objectIds: [1]), as: .anonymous).featureSet)
        #expect(first.spatialReference?.latestWkid == 3857)
        if case .point(let p)? = first.features.first?.geometry { #expect(p.x < -13_000_000) } else { Issue.record("no point") }
    }

    @Test func spatialPredicates() {
        let square = Geometry.polygon([[Point(x: 0, y: 0), Point(x: 0, y: 10), Point(x: 10, y: 10), Point(x: 10, y: 0), Point(x: 0, y: 0)]])
        let inside = Geometry.point(Point(x: 5, y: 5)), outside = Geometry.point(Point(x: 15, y: 5)), edge = Geometry.point(Point(x: 10, y: 5))
        #expect(Spatial.holds(.within, feature: inside, query: square))
        #expect(!Spatial.holds(.within, feature: outside, query: square))
        #expect(Spatial.holds(.intersects, feature: edge, query: square))
        #expect(Spatial.holds(.contains, feature: square, query: inside))
        let overlapping = Geometry.polygon([[Point(x: 8, y: 8), Point(x: 8, y: 20), Point(x: 20, y: 20), Point(x: 20, y: 8), Point(x: 8, y: 8)]])
        #expect(Spatial.holds(.intersects, feature: overlapping, query: square))
        #expect(!Spatial.holds(.within, feature: overlapping, query: square))
        let small = Geometry.envelope(Envelope(xmin: 1, ymin: 1, xmax: 2, ymax: 2))
        #expect(Spatial.holds(.within, feature: small, query: square))
        #expect(Spatial.holds(.contains, feature: square, query: small))
        let line = Geometry.polyline([[Point(x: -5, y: 5), Point(x: 15, y: 5)]])
        #expect(Spatial.holds(.intersects, feature: line, query: square))
        #expect(!Spatial.holds(.within, feature: line, query: square))
        let p = Point(x: -122.6, y: 45.5)
        let back = Projection.toWGS84(Projection.toWebMercator(p))
        #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
    }
}

extension QueryParameters {
    func withGeometry(_ value: Bool) -> QueryParameters {
        var copy = self
        copy.returnGeometry = value
        return copy
    }

    func withIdsOnly() -> QueryParameters {
        var copy = self
        copy.returnIdsOnly = true
        return copy
    }
}

/// A copy of a sample folder with other settings.
enum SampleCopy {
    static func make(from folder: String, settings: String) throws -> String {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("sample-\(UUID().uuidString)")
            .appendingPathComponent((folder as NSString).lastPathComponent).path
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder, toPath: target)
        try settings.write(toFile: target + "/service.json", atomically: true, encoding: .utf8)
        return target
    }
}

@Suite struct DeepPagingTests {
    @Test func deepPagesMatchTheIdOrder() async throws {
        let folder = try ScaleProbe.folder(count: 2_600)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let core = try await ServiceCore.open(Fixtures.configuration(.init(sampleFolders: [folder])))
        func page(_ offset: Int) async throws -> [Int64] {
            try await core.query(service: "DamageAssessment", layer: 0, QueryParameters(resultOffset: offset, resultRecordCount: 100), as: .anonymous).featureSet?.objectIds ?? []
        }
        var ids = try #require(try await core.query(service: "DamageAssessment", layer: 0, QueryParameters(returnIdsOnly: true), as: .anonymous).objectIds)
        #expect(try await page(2_100) == Array(ids[2_100..<2_200]))
        #expect(try await page(2_550).count == 50)
        #expect(try await page(2_600).isEmpty)
        // A delete in DEFAULT shifts the deep pages at once.
        _ = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(deletes: [5]), as: .anonymous)
        ids.removeAll { $0 == 5 }
        #expect(try await page(2_100) == Array(ids[2_100..<2_200]))
        // Inside an edit session on DEFAULT, discarded edits shift them back.
        let guid = try await core.versionManagementInfo(service: "DamageAssessment", as: .anonymous).defaultVersionGuid
        let session = "{CCCCCCCC-0000-0000-0000-000000000003}"
        _ = try await core.startReading(service: "DamageAssessment", version: guid, sessionId: session, as: .anonymous)
        _ = try await core.startEditing(service: "DamageAssessment", version: guid, sessionId: session, as: .anonymous)
        _ = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(deletes: [6]), options: EditOptions(sessionID: session), as: .anonymous)
        #expect(try await page(2_100).first == ids[2_101])
        _ = try await core.stopEditing(service: "DamageAssessment", version: guid, sessionId: session, saveEdits: false, as: .anonymous)
        #expect(try await page(2_100) == Array(ids[2_100..<2_200]))
    }
}

extension DeepPagingTests {
    /// Pages of DEFAULT without a filter take their own plans (from offset 0 and from an anchor at or past
    /// `PageAnchors.threshold`, each head entry joined to its row; below the threshold, the head index walked with
    /// OFFSET); `where 1=1` takes the general one. Both answer the same bytes at every offset, deleted features
    /// included, and the pages hold the ids in order.
    @Test func unfilteredPagesMatchTheGeneralPlan() async throws {
        let n = PageAnchors.threshold + 600
        let folder = try ScaleProbe.folder(count: n)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let core = try await ServiceCore.open(Fixtures.configuration(.init(sampleFolders: [folder])))
        let gone: [Int64] = [1, 2, 1_500, Int64(PageAnchors.threshold) + 1, Int64(PageAnchors.threshold) + 2, Int64(n)]
        _ = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(deletes: gone), as: .anonymous)
        let ids = (1...Int64(n)).filter { !gone.contains($0) }
        for (offset, count) in [(0, 5), (0, 100), (1, 3), (1_999, 4), (2_000, 100), (2_001, 7), (2_500, 100), (n - 10, 100), (n - 6, 5), (n, 5)] {
            let plain = try await core.queryText(service: "DamageAssessment", layer: 0, QueryParameters(resultOffset: offset, resultRecordCount: count), as: .anonymous)
            let general = try await core.queryText(service: "DamageAssessment", layer: 0, QueryParameters(where: "1=1", resultOffset: offset, resultRecordCount: count),
                                             as: .anonymous)
            #expect(plain == general, "offset \(offset), count \(count)")
            let set = try await core.query(service: "DamageAssessment", layer: 0, QueryParameters(resultOffset: offset, resultRecordCount: count), as: .anonymous).featureSet
            #expect(set?.objectIds == Array(ids.dropFirst(offset).prefix(count)), "offset \(offset), count \(count)")
        }
    }
}

@Suite struct ShortReadTests {
    /// Only pages of DEFAULT without filter, in object id order, are read on the caller's thread (`ServiceCore.queryText`).
    @Test func onlyUnfilteredDefaultPagesAreShortReads() async throws {
        let core = try await Fixtures.core(users: false)
        let service = try core.service("TreesOfPortland")
        let policy = AccessPolicy(core: core, service: service, caller: .anonymous)
        func short(_ parameters: QueryParameters) throws -> Bool {
            try QueryPlan(layer: try service.layer(0), parameters: parameters, policy: policy).isShortRead
        }
        #expect(try short(QueryParameters()))
        #expect(try short(QueryParameters(outFields: ["Address"], returnGeometry: false, outSR: .wgs84, resultOffset: 1_999, resultRecordCount: 2_000)))
        #expect(try short(QueryParameters(orderByFields: "  ")))
        // `1=1` filters nothing (what most clients send): planned as no filter. Any other clause is a filter.
        #expect(try short(QueryParameters(where: "1=1")))
        #expect(try short(QueryParameters(where: " 0 = 0 ")))
        #expect(try !short(QueryParameters(where: "1=2")))
        #expect(try !short(QueryParameters(where: "1=1 AND Condition = 'Good'")))
        #expect(try !short(QueryParameters(objectIds: [1])))
        #expect(try !short(QueryParameters(orderByFields: "Address")))
        // Ordered by the object id, either way, a page is read as a plain one (OrderedPagesTests).
        #expect(try short(QueryParameters(orderByFields: "OBJECTID")))
        #expect(try short(QueryParameters(orderByFields: "objectid DESC, Address")))
        #expect(try !short(QueryParameters(orderByFields: "Address, OBJECTID DESC")))
        #expect(try !short(QueryParameters(geometry: .point(Point(x: 0, y: 0)), inSR: .wgs84)))
        #expect(try !short(QueryParameters(returnCountOnly: true)))
        #expect(try !short(QueryParameters(returnIdsOnly: true)))
        #expect(try !short(QueryParameters(returnExtentOnly: true)))
        #expect(try !short(QueryParameters(outStatistics: [StatisticDefinition(statisticType: .count, onStatisticField: "*")])))
        #expect(try !short(QueryParameters(gdbVersion: "sde.DEFAULT")))
    }
}

extension ShortReadTests {
    /// A short read sees every change before it, whichever way the store reads it (on PostgreSQL, one statement
    /// that checks DEFAULT's access and the layer's cached object ids itself): a deep page after a delete starts
    /// one feature later; DEFAULT made private is gone for anonymous callers and still read by an administrator.
    @Test func shortReadsSeeDeletesAndDefaultAccessAtOnce() async throws {
        let n = PageAnchors.threshold + 300
        let folder = try ScaleProbe.folder(count: n)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let core = try await ServiceCore.open(Fixtures.configuration(.init(sampleFolders: [folder], usersFile: Fixtures.usersFile)))
        try await Self.expectShortReadsSeeDeletesAndDefaultAccess(core)
    }

    /// On a core holding `PageAnchors.threshold + 300` points: deep pages, a delete seen by the next page, DEFAULT
    /// made private refused to anonymous callers and read by an administrator (also run on a file database, by
    /// `FileShortReadTests`).
    static func expectShortReadsSeeDeletesAndDefaultAccess(_ core: ServiceCore) async throws {
        let admin = try await core.signIn(username: "admin", password: "sample-admin")
        func page(_ offset: Int, as caller: Caller = .anonymous) async throws -> [Int64] {
            let text = try await core.queryText(service: "DamageAssessment", layer: 0, QueryParameters(resultOffset: offset, resultRecordCount: 3), as: caller)
            let object = try JSONSerialization.jsonObject(with: Data(text)) as? [String: Any]
            let features = object?["features"] as? [[String: Any]] ?? []
            return features.compactMap { (($0["attributes"] as? [String: Any])?["objectid"] as? NSNumber)?.int64Value }
        }
        let deep = PageAnchors.threshold + 100
        #expect(try await page(deep) == [Int64(deep + 1), Int64(deep + 2), Int64(deep + 3)])
        #expect(try await page(deep) == [Int64(deep + 1), Int64(deep + 2), Int64(deep + 3)])
        _ = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(deletes: [5]), as: admin)
        #expect(try await page(deep) == [Int64(deep + 2), Int64(deep + 3), Int64(deep + 4)])
        #expect(try await page(10) == [12, 13, 14])

        _ = try await core.alterVersion(service: "DamageAssessment", version: "sde.DEFAULT", accessPermission: "private", as: admin)
        await expectServiceError(404) { _ = try await page(10) }
        await expectServiceError(404) { _ = try await page(deep) }
        #expect(try await page(deep, as: admin) == [Int64(deep + 2), Int64(deep + 3), Int64(deep + 4)])
        _ = try await core.alterVersion(service: "DamageAssessment", version: "sde.DEFAULT", accessPermission: "public", as: admin)
        #expect(try await page(10) == [12, 13, 14])
    }
}

@Suite struct WhereLimitsTests {
    @Test func pathologicalClausesAreRefusedNotCrashed() async throws {
        let core = try await Fixtures.core()
        let deep = String(repeating: "(", count: 10_000) + "1=1" + String(repeating: ")", count: 10_000)
        await expectServiceError(400) { _ = try await core.count("TreesOfPortland", 0, where: deep) }
        let nots = String(repeating: "NOT ", count: 10_000) + "1=1"
        await expectServiceError(400) { _ = try await core.count("TreesOfPortland", 0, where: nots) }
        let chain = (0..<5_000).map { "OBJECTID = \($0)" }.joined(separator: " OR ")
        await expectServiceError(400) { _ = try await core.count("TreesOfPortland", 0, where: chain) }
        let list = "OBJECTID IN (" + (0..<20_000).map(String.init).joined(separator: ",") + ")"
        await expectServiceError(400) { _ = try await core.count("TreesOfPortland", 0, where: list) }
        // Within the bounds, long clauses work.
        let ok = (0..<400).map { "OBJECTID = \($0)" }.joined(separator: " OR ")
        #expect(try await core.count("TreesOfPortland", 0, where: ok) >= 20)
        let wide = "OBJECTID IN (" + (0..<5_000).map(String.init).joined(separator: ",") + ")"
        #expect(try await core.count("TreesOfPortland", 0, where: wide) >= 20)
        await expectServiceError(400) {
            _ = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(objectIds: Array(0..<40_000)), as: .anonymous)
        }
    }
}
