import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// `orderByFields` naming the object id (ASC or DESC, as GDAL and other dump tools ask) takes the plain page's
/// plans (the head index walked either way, deep pages from `PageAnchors`); the pages stay exactly what the full
/// ordered result says: the same ids in the same order, `exceededTransferLimit` only while rows remain, and the
/// same bytes as the general plan (a `where` that filters nothing out but is a real filter) at every depth, before
/// and after a delete, in DEFAULT and in a version. Runs on PostgreSQL too when the suite does.
@Suite struct OrderedPagesTests {
    static let service = "DamageAssessment"

    /// The layer of `ScaleProbe.folder` with a few features deleted (the first, the last, and some below and above the
    /// anchor threshold when there are so many): `deleted` of them.
    static func core(rows n: Int) async throws -> (core: ServiceCore, folder: String, deleted: Int) {
        let folder = try ScaleProbe.folder(count: n)
        let core = try await ServiceCore.open(Fixtures.configuration(.init(sampleFolders: [folder])))
        let gone: [Int64] = [1, 2, 150, 1_500, Int64(PageAnchors.threshold) + 1, Int64(n)].filter { $0 <= n }
        let result = try await core.applyEdits(service: service, layer: 0, LayerEdits(deletes: gone), as: .anonymous)
        #expect(result.succeeded)
        return (core, folder, gone.count)
    }

    /// Every shape of page: the first ones, around the threshold, deep, the last, and past the end.
    static func pages(rows n: Int) -> [(offset: Int, count: Int)] {
        [(0, 5), (0, 100), (1, 3), (1_999, 4), (2_000, 100), (2_001, 7), (2_500, 100), (n - 10, 100), (n - 7, 2), (n - 6, 5), (n, 5)]
    }

    func ids(_ core: ServiceCore, _ parameters: QueryParameters) async throws -> [Int64] {
        try #require(try await core.query(service: Self.service, layer: 0, parameters, as: .anonymous).featureSet).objectIds
    }

    @Test(arguments: ["OBJECTID", "objectid ASC", "OBJECTID DESC", "objectid desc, placename"])
    func objectIdPagesMatchTheFullOrderedResult(order: String) async throws {
        let n = PageAnchors.threshold + 600
        let (core, folder, deleted) = try await Self.core(rows: n)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let ascending = try #require(try await core.query(service: Self.service, layer: 0, QueryParameters(returnIdsOnly: true), as: .anonymous).objectIds)
        #expect(ascending.count == n - deleted && ascending == ascending.sorted())
        let descending = order.lowercased().contains("desc")
        let all = descending ? Array(ascending.reversed()) : ascending
        // returnIdsOnly follows the order too.
        #expect(try await core.query(service: Self.service, layer: 0, QueryParameters(orderByFields: order, returnIdsOnly: true),
                                     as: .anonymous).objectIds == all)
        let plan = try QueryPlan(layer: try core.service(Self.service).layer(0), parameters: QueryParameters(orderByFields: order),
                                 policy: AccessPolicy(core: core, service: try core.service(Self.service), caller: .anonymous))
        #expect(plan.isShortRead, "an object id order is read as a plain page is")

        for (offset, count) in Self.pages(rows: n) {
            let parameters = QueryParameters(orderByFields: order, resultOffset: offset, resultRecordCount: count)
            let set = try #require(try await core.query(service: Self.service, layer: 0, parameters, as: .anonymous).featureSet)
            #expect(set.objectIds == Array(all.dropFirst(offset).prefix(count)), "\(order): offset \(offset), count \(count)")
            #expect((set.exceededTransferLimit ?? false) == (offset + count < all.count), "\(order): offset \(offset), count \(count)")
            var general = parameters
            general.whereClause = "objectid > 0"
            let text = try await core.queryText(service: Self.service, layer: 0, parameters, as: .anonymous)
            let generalText = try await core.queryText(service: Self.service, layer: 0, general, as: .anonymous)
            #expect(text == generalText, "\(order): offset \(offset), count \(count)")
        }
        // A delete in DEFAULT moves the deep pages at once (the anchors are taken again), either way.
        _ = try await core.applyEdits(service: Self.service, layer: 0, LayerEdits(deletes: [2_300]), as: .anonymous)
        let after = all.filter { $0 != 2_300 }
        for offset in [2_050, n - 8] {
            #expect(try await ids(core, QueryParameters(orderByFields: order, resultOffset: offset, resultRecordCount: 100))
                    == Array(after.dropFirst(offset).prefix(100)), "\(order) after a delete: offset \(offset)")
        }
    }

    /// In a version, ordered by the object id either way: DEFAULT's rows and the version's own merged in that order.
    @Test(arguments: ["OBJECTID", "OBJECTID DESC"])
    func versionPagesMatchTheFullOrderedResult(order: String) async throws {
        let n = 400
        let (core, folder, deleted) = try await Self.core(rows: n)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let version = try await core.createVersion(service: Self.service, versionName: "Ordered", as: .anonymous).versionInfo.versionName
        let add = EditFeature(attributes: Attributes([("notes", .string("added in version"))]), geometry: .point(Point(x: -88.1, y: 41.8)),
                              spatialReference: .wgs84)
        let edits = try await core.applyEdits(service: Self.service, layer: 0, LayerEdits(adds: [add], deletes: [10]),
                                              options: EditOptions(gdbVersion: version), as: .anonymous)
        #expect(edits.succeeded)
        let ascending = try #require(try await core.query(service: Self.service, layer: 0, QueryParameters(returnIdsOnly: true, gdbVersion: version),
                                                          as: .anonymous).objectIds).sorted()
        #expect(ascending.count == n - deleted - 1 + 1 && !ascending.contains(10) && ascending.contains(where: { $0 > Int64(n) }))
        let all = order.hasSuffix("DESC") ? Array(ascending.reversed()) : ascending
        for (offset, count) in [(0, 7), (3, 50), (n - 20, 100), (n, 5)] {
            let parameters = QueryParameters(orderByFields: order, resultOffset: offset, resultRecordCount: count, gdbVersion: version)
            let set = try #require(try await core.query(service: Self.service, layer: 0, parameters, as: .anonymous).featureSet)
            #expect(set.objectIds == Array(all.dropFirst(offset).prefix(count)), "\(order): offset \(offset), count \(count)")
            #expect((set.exceededTransferLimit ?? false) == (offset + count < all.count), "\(order): offset \(offset), count \(count)")
        }
    }

    /// Any other order is not a short read, and its pages hold the rows in that order, ties broken by the object id.
    @Test func otherOrdersBreakTiesByObjectId() async throws {
        let n = 300
        let (core, folder, _) = try await Self.core(rows: n)
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        // Every generated feature has numstories 2: one tie over the whole layer, broken by the object id ascending.
        let ascending = try #require(try await core.query(service: Self.service, layer: 0, QueryParameters(returnIdsOnly: true), as: .anonymous).objectIds)
        for order in ["numstories", "numstories DESC"] {
            let plan = try QueryPlan(layer: try core.service(Self.service).layer(0), parameters: QueryParameters(orderByFields: order),
                                     policy: AccessPolicy(core: core, service: try core.service(Self.service), caller: .anonymous))
            #expect(!plan.isShortRead)
            for (offset, count) in [(0, 10), (150, 20), (n - 8, 10)] {
                #expect(try await ids(core, QueryParameters(orderByFields: order, resultOffset: offset, resultRecordCount: count))
                        == Array(ascending.dropFirst(offset).prefix(count)), "\(order): offset \(offset)")
            }
        }
    }
}
