import Foundation
@testable import Runtime
import Service
import Testing
import FeatureServiceModel
@testable import LocalFeatureService
import WebMap

/// `RemoteFeatureService` against a real `maprules serve`, started in-process on a loopback port the system
/// picks, over a fresh in-memory copy of the samples for every test.
@Suite struct RemoteFeatureServiceTests {
    static func trees(_ site: String) -> String { "\(site)/rest/services/TreesOfPortland/FeatureServer" }
    static func damage(_ site: String) -> String { "\(site)/rest/services/DamageAssessment/FeatureServer" }
    static let editor01 = Credential.password(user: "editor01", password: "sample-editor01")
    static let editor02 = Credential.password(user: "editor02", password: "sample-editor02")

    @Test func describeReadsTheRootAndEveryLayerAndTable() async throws {
        try await withMapRulesServer { site in
            // A layer URL with a trailing slash and a query names its service.
            try await withRemote("\(Self.trees(site))/3/?f=json") { service in
                #expect(service.url == Self.trees(site))
                let description = try await service.describe()
                #expect(description.name == "TreesOfPortland")
                #expect(description.layers.map(\.id) == [0, 1, 2, 3])
                #expect(description.layers[0].metadata["name"]?.string == "Trees")
                #expect(description.layers[3].metadata["name"]?.string == "Inspections")
                #expect(description.layers[0].metadata["fields"]?.array?.first?["name"]?.string == "OBJECTID")
                #expect(description.supportsGlobalIds)
                #expect(!description.supportsBranchVersioning)
            }
            try await withRemote(Self.damage(site) + "/") { service in
                let description = try await service.describe()
                #expect(description.supportsBranchVersioning)
                #expect(description.layers.map(\.id) == [0])
            }
        }
    }

    @Test func queriesPagesCountsIdsAndSpatialFilters() async throws {
        try await withMapRulesServer { site in
            try await withRemote(Self.trees(site)) { service in
                let page = try await service.queryFeatures(layer: 0, QueryParameters(orderByFields: "OBJECTID", resultOffset: 5, resultRecordCount: 5))
                #expect(page.objectIds == [6, 7, 8, 9, 10])
                #expect(page.exceededTransferLimit == true)
                #expect(page.objectIdFieldName == "OBJECTID")
                // Attributes keep the service's field order.
                #expect(page.features.first?.attributes.names.prefix(3) == ["OBJECTID", "Address", "Neighborhood"])
                #expect(page.features.first?.geometry?.type == .point)

                let last = try await service.queryFeatures(layer: 0, QueryParameters(orderByFields: "OBJECTID", resultOffset: 20, resultRecordCount: 10))
                #expect(last.objectIds == [21, 22, 23, 24])
                #expect(last.exceededTransferLimit != true)

                #expect(try await service.queryCount(layer: 0, QueryParameters()) == 24)
                #expect(try await service.queryCount(layer: 0, QueryParameters(where: "Site_Type = 'TL' AND OBJECTID < 100")) > 0)
                #expect(try await service.queryObjectIds(layer: 0, QueryParameters(where: "OBJECTID <= 3")).sorted() == [1, 2, 3])
                #expect(try await service.queryObjectIds(layer: 0, QueryParameters(where: "OBJECTID > 1000")) == [])

                // Fields and geometry as asked, in WGS84.
                let one = try await service.queryFeatures(layer: 0, QueryParameters(objectIds: [1], outFields: ["OBJECTID", "Address"], outSR: .wgs84))
                #expect(one.features.count == 1)
                #expect(one.features[0].attributes.names == ["OBJECTID", "Address"])
                guard case .point(let point)? = one.features[0].geometry else {
                    Issue.record("no point: \(String(describing: one.features.first))")
                    return
                }
                #expect(abs(point.x - -122.64834) < 1e-6 && abs(point.y - 45.525014) < 1e-6)

                // An envelope around tree 1 (in WGS84) finds it.
                let box = Geometry.envelope(Envelope(xmin: point.x - 0.0001, ymin: point.y - 0.0001, xmax: point.x + 0.0001, ymax: point.y + 0.0001))
                let near = try await service.queryObjectIds(layer: 0, QueryParameters(geometry: box, inSR: .wgs84, spatialRelation: .envelopeIntersects))
                #expect(near.contains(1))
                // The trees within a neighbourhood polygon: the polygon's own geometry as the filter.
                let kerns = try await service.queryFeatures(layer: 1, QueryParameters(where: "NAME = 'Kerns'", outSR: .wgs84))
                let polygon = try #require(kerns.features.first?.geometry)
                let inside = try await service.queryCount(layer: 0, QueryParameters(geometry: polygon, inSR: .wgs84, spatialRelation: .within))
                #expect(inside > 0 && inside < 24)

                // A query string too long for a URL goes as a POST body.
                let many = Array(Int64(1)...Int64(600))
                #expect(RequestEncoding.query(QueryParameters(objectIds: many)).encoded.utf8.count > HTTPTransport.longestQueryString)
                #expect(try await service.queryCount(layer: 0, QueryParameters(objectIds: many)) == 24)

                // A where clause the service refuses: service-error with its code.
                let refused = await remoteError { try await service.queryCount(layer: 0, QueryParameters(where: "OBJECTID = ; DROP TABLE x")) }
                #expect(refused?.identifier == RuntimeError.Identifier.serviceError)
                #expect(refused?.serviceCode == 400)
                let noLayer = await remoteError { try await service.queryCount(layer: 42, QueryParameters()) }
                #expect(noLayer?.identifier == RuntimeError.Identifier.serviceError)
                #expect(noLayer?.serviceCode == 404)
            }
        }
    }

    @Test func applyEditsAddsUpdatesDeletesAndRollsBack() async throws {
        try await withMapRulesServer { site in
            try await withRemote(Self.trees(site), credential: Self.editor01) { service in
                let tree = EditFeature(attributes: Attributes([("Address", .string("1 Test St")), ("Site_Type", .string("TL")),
                                                               ("Notes", .string("a + b & c = d; 100% ünïcode"))]),
                                       geometry: .point(Point(x: -122.65, y: 45.52)), spatialReference: .wgs84)
                let added = try await service.applyEdits([LayerEdits(id: 0, adds: [tree])], options: EditOptions())
                #expect(added.count == 1 && added[0].id == 0 && added[0].succeeded)
                let objectId = try #require(added[0].addResults.first?.objectId)
                #expect(added[0].addResults.first?.globalId != nil)
                #expect(try await service.queryCount(layer: 0, QueryParameters()) == 25)
                let stored = try await service.queryFeatures(layer: 0, QueryParameters(objectIds: [objectId]))
                #expect(stored.features.first?.attributes["Notes"] == .string("a + b & c = d; 100% ünïcode"))

                let update = EditFeature(attributes: Attributes([("OBJECTID", .int(objectId)), ("Condition", .string("Good"))]))
                let updated = try await service.applyEdits([LayerEdits(id: 0, updates: [update])], options: EditOptions())
                #expect(updated.first?.updateResults.first?.success == true)
                let reread = try await service.queryFeatures(layer: 0, QueryParameters(objectIds: [objectId]))
                #expect(reread.features.first?.attributes["Condition"] == .string("Good"))

                // All or nothing: a good add with an update of a missing feature lands nowhere.
                let missing = EditFeature(attributes: Attributes([("OBJECTID", .int(999_999)), ("Condition", .string("Good"))]))
                let rolledBack = try await service.applyEdits([LayerEdits(id: 0, adds: [tree]), LayerEdits(id: 3, updates: [missing])],
                                                              options: EditOptions(rollbackOnFailure: true))
                #expect(rolledBack.count == 2)
                #expect(rolledBack.allSatisfy { !$0.succeeded })
                #expect(rolledBack[0].addResults.first?.error?.code == 1003)
                #expect(rolledBack[1].updateResults.first?.error?.code == 1011)
                #expect(try await service.queryCount(layer: 0, QueryParameters()) == 25)

                let deleted = try await service.applyEdits([LayerEdits(id: 0, deletes: [objectId])], options: EditOptions())
                #expect(deleted.first?.deleteResults.first?.success == true)
                #expect(try await service.queryCount(layer: 0, QueryParameters()) == 24)

                // A value outside the field's coded values: the per-feature error code comes back as the service wrote it.
                let outsideDomain = EditFeature(attributes: Attributes([("OBJECTID", .int(1)), ("Site_Type", .string("ZZ"))]))
                let refused = try await service.applyEdits([LayerEdits(id: 0, updates: [outsideDomain])], options: EditOptions())
                #expect(refused.first?.updateResults.first?.success == false)
                #expect(refused.first?.updateResults.first?.error?.code == 1016)
            }
        }
    }

    @Test func versionsAreListedCreatedAndEditedThroughGdbVersion() async throws {
        try await withMapRulesServer { site in
            try await withRemote(Self.damage(site), credential: Self.editor01) { service in
                let management = try await service.versionManagementInfo()
                #expect(management.defaultVersionName == "sde.DEFAULT")
                #expect(!management.defaultVersionGuid.isEmpty)

                let created = try await service.createVersion(name: "Fix1", access: "private", description: "storm crew 3")
                #expect(created.versionName == "editor01.Fix1")
                #expect(created.accessPermission == .private)
                #expect(created.description == "storm crew 3")
                #expect(try await service.versions().contains { $0.versionGuid == created.versionGuid })
                #expect(try await service.version(named: "editor01.Fix1").versionGuid == created.versionGuid)
                #expect(try await service.version(named: "EDITOR01.fix1").versionGuid == created.versionGuid)
                #expect(try await service.version(named: "fix1").versionGuid == created.versionGuid)
                #expect(try await service.version(named: "DEFAULT").versionName == "sde.DEFAULT")
                let byGuid = try await service.version(named: created.versionGuid.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "{}")))
                #expect(byGuid.versionName == "editor01.Fix1")
                #expect(byGuid.isBeingEdited != nil)

                // Creating it again: the service refuses (version management error style).
                let again = await remoteError { try await service.createVersion(name: "Fix1", access: "private", description: "") }
                #expect(again?.identifier == RuntimeError.Identifier.serviceError)
                #expect(again?.serviceCode != nil)

                let update = EditFeature(attributes: Attributes([("objectid", .int(1)), ("typdamage", .string("Major"))]))
                let results = try await service.applyEdits([LayerEdits(id: 0, updates: [update])], options: EditOptions(gdbVersion: created.versionName))
                #expect(results.first?.succeeded == true)
                let inVersion = try await service.queryFeatures(layer: 0, QueryParameters(objectIds: [1], gdbVersion: created.versionName))
                #expect(inVersion.features.first?.attributes["typdamage"] == .string("Major"))
                let inDefault = try await service.queryFeatures(layer: 0, QueryParameters(objectIds: [1]))
                #expect(inDefault.features.first?.attributes["typdamage"] == .string("Minor"))

                let unknown = await remoteError { try await service.version(named: "editor01.Nope") }
                #expect(unknown?.identifier == RuntimeError.Identifier.versionNotFound)
                let unknownGuid = await remoteError { try await service.version(named: "{00000000-0000-0000-0000-000000000001}") }
                #expect(unknownGuid?.identifier == RuntimeError.Identifier.versionNotFound)

                // Another user does not see a private version, by name or by GUID.
                try await service.signIn(Self.editor02)
                #expect(await service.userName() == "editor02")
                #expect(try await service.versions().allSatisfy { $0.versionGuid != created.versionGuid })
                let hidden = await remoteError { try await service.version(named: created.versionGuid) }
                #expect(hidden?.identifier == RuntimeError.Identifier.versionNotFound)
            }
        }
    }

    @Test func attachmentsAreListedAndTheirBytesRead() async throws {
        try await withMapRulesServer { site in
            try await withRemote(Self.trees(site), credential: Self.editor01) { service in
                let tree = try await service.queryFeatures(layer: 0, QueryParameters(objectIds: [2]))
                guard case .string(let parent)? = tree.features.first?.attributes["GlobalID"] else {
                    Issue.record("tree 2 has no GlobalID")
                    return
                }
                let bytes = Data((0..<2_000).map { UInt8($0 % 251) })
                let upload = AttachmentUpload(globalId: "{\(UUID().uuidString)}", parentGlobalId: parent, name: "bark.jpg", contentType: "image/jpeg", data: bytes)
                let results = try await service.applyEdits([LayerEdits(id: 0, attachments: AttachmentEdits(adds: [upload]))],
                                                           options: EditOptions(useGlobalIds: true))
                #expect(results.first?.attachments?.addResults.first?.success == true)

                let infos = try await service.attachments(layer: 0, objectId: 2, gdbVersion: nil)
                #expect(infos.count == 1)
                let info = try #require(infos.first)
                #expect(info.name == "bark.jpg" && info.contentType == "image/jpeg" && info.size == 2_000)
                #expect(try await service.attachmentData(layer: 0, objectId: 2, attachmentId: info.id, gdbVersion: nil) == bytes)
                #expect(try await service.attachments(layer: 0, objectId: 3, gdbVersion: nil) == [])

                let missing = await remoteError { try await service.attachmentData(layer: 0, objectId: 2, attachmentId: 999_999, gdbVersion: nil) }
                #expect(missing?.identifier == RuntimeError.Identifier.serviceError)
                #expect(missing?.serviceCode == 404)
            }
        }
    }

    @Test func signInWithPasswordTokenOrNobody() async throws {
        try await withMapRulesServer { site in
            try await withRemote(Self.trees(site)) { service in
                #expect(await service.userName() == nil)
                // Anonymous reads are allowed; edits need a token (499).
                #expect(try await service.queryCount(layer: 0, QueryParameters()) == 24)
                let anonymous = await remoteError {
                    try await service.applyEdits([LayerEdits(id: 0, deletes: [1])], options: EditOptions())
                }
                #expect(anonymous?.identifier == RuntimeError.Identifier.authentication)
                #expect(anonymous?.serviceCode == 499)

                let bad = await remoteError { try await service.signIn(.password(user: "editor01", password: "wrong")) }
                #expect(bad?.identifier == RuntimeError.Identifier.authentication)
                #expect(bad?.message.contains("editor01") == true)
                #expect(await service.userName() == nil)

                try await service.signIn(Self.editor01)
                #expect(await service.userName() == "editor01")
                let description = try await service.describe()
                #expect(description.layers.count == 4)
            }

            // A token obtained elsewhere: used as it is; its user is asked of the portal.
            let token: String = try await withRemote(Self.trees(site), credential: Self.editor02) { service in try #require(try await service.currentToken()) }
            try await withRemote(Self.trees(site), credential: .token(token)) { service in
                #expect(await service.userName() == "editor02")
                let results = try await service.applyEdits([LayerEdits(id: 0, updates: [EditFeature(attributes: Attributes([("OBJECTID", .int(4)), ("Notes", .string("checked"))]))])],
                                                           options: EditOptions())
                #expect(results.first?.succeeded == true)
            }

            // A bad token: 498 on every request, reads included, and it cannot be renewed.
            try await withRemote(Self.trees(site), credential: .token("not-a-token")) { service in
                let refused = await remoteError { try await service.queryCount(layer: 0, QueryParameters()) }
                #expect(refused?.identifier == RuntimeError.Identifier.authentication)
                #expect(refused?.serviceCode == 498)
            }
        }
    }

    @Test func aURLThatIsNotAFeatureServiceIsRefusedAtOnce() {
        for url in ["ftp://host/arcgis/rest/services/A/FeatureServer", "http://host/arcgis/rest/services/A/MapServer", "not a url",
                    "http://host/arcgis/rest/services/A/FeatureServer/query"] {
            #expect(throws: RuntimeError.self, "\(url)") { _ = try RemoteFeatureService(url: url) }
        }
    }
}
