import Foundation
import GRDB
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// A scale probe, off by default: `MAPRULES_PERF=100000 swift test -c release --filter ScaleProbe`.
/// Prints figures; asserts only what must hold at any size (version creation touches one row).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MAPRULES_PERF"] != nil)) struct ScaleProbe {
    static var size: Int { Int(ProcessInfo.processInfo.environment["MAPRULES_PERF"] ?? "") ?? 100_000 }

    /// A DamageAssessment copy whose layer 0 holds `count` generated points.
    static func folder(count: Int) throws -> String {
        let folder = try SampleCopy.make(from: Fixtures.damage, settings: #"{"branchVersioned": true, "defaultVersionAccess": "public"}"#)
        var features: [String] = []
        features.reserveCapacity(count)
        for i in 1...count {
            let x = -88.2 + Double(i % 1000) * 0.0001, y = 41.7 + Double(i / 1000) * 0.0001
            features.append(#"{"attributes":{"objectid":\#(i),"placename":"Place \#(i)","typdamage":"Minor","numstories":2,"notes":"generated"},"geometry":{"x":\#(x),"y":\#(y)}}"#)
        }
        let text = #"{"objectIdFieldName":"objectid","geometryType":"esriGeometryPoint","spatialReference":{"wkid":4326},"features":["# + features.joined(separator: ",") + "]}"
        try text.write(toFile: folder + "/features/0.json", atomically: true, encoding: .utf8)
        return folder
    }

    static func time(_ body: () async throws -> Void) async rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @Test func figures() async throws {
        let n = Self.size
        let folder = try Self.folder(count: n)
        var core: ServiceCore!
        let load = try await Self.time { core = try await ServiceCore.open(.init(sampleFolders: [folder])) }
        print("load \(n) features: \(String(format: "%.2f", load)) s")

        let pages = 500
        let paged = try await Self.time {
            for i in 0..<pages {
                let set = try await core.query(service: "DamageAssessment", layer: 0, QueryParameters(resultOffset: (i * 977) % (n - 100), resultRecordCount: 100), as: .anonymous)
                precondition(set.featureSet?.features.count == 100)
            }
        }
        print("paged query (100 of \(n)), in process: \(String(format: "%.0f", Double(pages) / paged)) queries/s")

        let wherePaged = try await Self.time {
            for _ in 0..<50 {
                _ = try await core.query(service: "DamageAssessment", layer: 0, QueryParameters(where: "placename LIKE 'Place 9%'", resultRecordCount: 100), as: .anonymous)
            }
        }
        print("paged query with a where on an attribute: \(String(format: "%.0f", 50 / wherePaged)) queries/s")

        var batches = 20
        let edits = try await Self.time {
            for b in 0..<batches {
                let adds = (0..<500).map { i in
                    EditFeature(attributes: Attributes([("placename", .string("Batch \(b) \(i)")), ("typdamage", .string("Major"))]),
                                geometry: .point(Point(x: -88.1, y: 41.8)), spatialReference: .wgs84)
                }
                let result = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(adds: adds), as: .anonymous)
                precondition(result.succeeded)
            }
        }
        print("applyEdits, \(batches) batches of 500 adds: \(String(format: "%.0f", Double(batches * 500) / edits)) features/s")
        batches = 0

        var versionTimes: [Double] = []
        for i in 0..<20 {
            versionTimes.append(try await Self.time { _ = try await core.createVersion(service: "DamageAssessment", versionName: "V\(i)", as: .anonymous) })
        }
        print("create version over \(n) rows: median \(String(format: "%.3f", versionTimes.sorted()[10] * 1000)) ms")

        let version = "anonymous.V0"
        _ = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(updates: [EditFeature(attributes: Attributes([("objectid", .int(5)), ("notes", .string("v"))]))]),
                                      options: EditOptions(gdbVersion: version), as: .anonymous)
        let versionPaged = try await Self.time {
            for i in 0..<50 {
                _ = try await core.query(service: "DamageAssessment", layer: 0, QueryParameters(resultOffset: i * 100, resultRecordCount: 100, gdbVersion: version), as: .anonymous)
            }
        }
        print("paged query in a version (DEFAULT unchanged since its ancestor): \(String(format: "%.0f", 50 / versionPaged)) queries/s")
        _ = try await core.applyEdits(service: "DamageAssessment", layer: 0, LayerEdits(updates: [EditFeature(attributes: Attributes([("objectid", .int(6)), ("notes", .string("d"))]))]), as: .anonymous)
        let versionPagedMoved = try await Self.time {
            for i in 0..<20 {
                _ = try await core.query(service: "DamageAssessment", layer: 0, QueryParameters(resultOffset: i * 100, resultRecordCount: 100, gdbVersion: version), as: .anonymous)
            }
        }
        print("paged query in a version (DEFAULT moved since its ancestor): \(String(format: "%.0f", 20 / versionPagedMoved)) queries/s")
        try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent)
    }
}
