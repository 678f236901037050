import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

@Suite struct VersionManagementRouteTests {
    static let vms = "/arcgis/rest/services/DamageAssessment/VersionManagementServer"
    static let layer = "/arcgis/rest/services/DamageAssessment/FeatureServer/0"
    static let add = #"[{"attributes":{"placename":"route test","typdamage":"Minor","primcause":"Hail"},"geometry":{"x":-88.16,"y":41.78,"spatialReference":{"wkid":4326}}}]"#

    @Test func rootAndVersions() async throws {
        try await Fixtures.app().test(.router) { client in
            let root = try await client.get(Self.vms)
            #expect(root["defaultVersionName"]?.string == "sde.DEFAULT")
            #expect(root["defaultVersionGuid"]?.string?.hasPrefix("{") == true)
            let guid = root["defaultVersionGuid"]?.string ?? ""
            let braced = try await client.get("\(Self.vms)/versions/\(guid.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D"))")
            #expect(braced["versionName"]?.string == "sde.DEFAULT", "\(braced)")
            let bare = try await client.get("\(Self.vms)/versions/\(guid.dropFirst().dropLast().lowercased())")
            #expect(bare["versionName"]?.string == "sde.DEFAULT")
            let versions = try await client.get("\(Self.vms)/versions")
            #expect(versions["versions"]?.array?.contains { $0["versionName"]?.string == "sde.DEFAULT" } == true)
            let notVersioned = try await client.get("/arcgis/rest/services/TreesOfPortland/VersionManagementServer")
            #expect(notVersioned["success"]?.bool == false && notVersioned["error"]?["code"]?.int == 404)
        }
    }

    @Test func editInAVersionReconcileAndPost() async throws {
        try await Fixtures.app().test(.router) { client in
            let token = try await client.token()
            let created = try await client.post("\(Self.vms)/create", [("versionName", "inspection"), ("description", "d"),
                                                                       ("accessPermission", "public"), ("token", token)])
            #expect(created["success"]?.bool == true, "\(created)")
            let name = created["versionInfo"]?["versionName"]?.string ?? ""
            let guid = String((created["versionInfo"]?["versionGuid"]?.string ?? "").dropFirst().dropLast())
            #expect(name == "editor01.inspection")
            let session = "{\(UUID().uuidString)}"
            let version = "\(Self.vms)/versions/\(guid)"

            #expect(try await client.post("\(version)/startReading", [("sessionId", session), ("token", token)])["success"]?.bool == true)
            #expect(try await client.post("\(version)/startEditing", [("sessionId", session), ("token", token)])["success"]?.bool == true)
            let info = try await client.get(version, [("token", token)])
            #expect(info["isBeingEdited"]?.bool == true)

            let before = try await client.get("\(Self.layer)/query", [("where", "1=1"), ("returnCountOnly", "true")])["count"]?.int ?? -1
            let added = try await client.post("\(Self.layer)/applyEdits", [("adds", Self.add), ("gdbVersion", name), ("sessionID", session), ("token", token)])
            #expect(added["addResults"]?[0]?["success"]?.bool == true, "\(added)")
            #expect(try await client.get("\(Self.layer)/query", [("where", "1=1"), ("returnCountOnly", "true"), ("gdbVersion", name), ("token", token)])["count"]?.int == before + 1)
            #expect(try await client.get("\(Self.layer)/query", [("where", "1=1"), ("returnCountOnly", "true")])["count"]?.int == before)

            let differences = try await client.post("\(version)/differences", [("sessionId", session), ("resultType", "objectIds"), ("token", token)])
            #expect(differences["differences"]?[0]?["inserts"]?.array?.count == 1, "\(differences)")
            let reconciled = try await client.post("\(version)/reconcile", [("sessionId", session), ("abortIfConflicts", "false"),
                                                                            ("conflictDetection", "byObject"), ("withPost", "false"), ("token", token)])
            #expect(reconciled["success"]?.bool == true && reconciled["hasConflicts"]?.bool == false, "\(reconciled)")
            let posted = try await client.post("\(version)/post", [("sessionId", session), ("token", token)])
            #expect(posted["success"]?.bool == true, "\(posted)")
            #expect(try await client.get("\(Self.layer)/query", [("where", "1=1"), ("returnCountOnly", "true")])["count"]?.int == before + 1)

            #expect(try await client.post("\(version)/stopEditing", [("sessionId", session), ("saveEdits", "true"), ("token", token)])["success"]?.bool == true)
            #expect(try await client.post("\(version)/stopReading", [("sessionId", session), ("token", token)])["success"]?.bool == true)
            #expect(try await client.post("\(Self.vms)/delete", [("versionName", name), ("token", token)])["success"]?.bool == true)
        }
    }

    @Test func refusalsUseTheVersionManagementStyle() async throws {
        try await Fixtures.app().test(.router) { client in
            let editor01 = try await client.token("editor01")
            let editor02 = try await client.token("editor02")
            let created = try await client.post("\(Self.vms)/create", [("versionName", "secret"), ("accessPermission", "private"), ("token", editor01)])
            let guid = created["versionInfo"]?["versionGuid"]?.string ?? ""

            let duplicate = try await client.post("\(Self.vms)/create", [("versionName", "SECRET"), ("token", editor01)])
            #expect(duplicate["success"]?.bool == false)
            #expect(duplicate["error"]?["extendedCode"]?.int != nil && duplicate["error"]?["message"]?.string != nil)
            #expect(duplicate["error"]?["details"]?.array != nil)

            // A private version and a missing one answer alike.
            let hidden = try await client.get("\(Self.vms)/versions/\(guid)", [("token", editor02)])
            let missing = try await client.get("\(Self.vms)/versions/\(UUID().uuidString)", [("token", editor02)])
            #expect(hidden["success"]?.bool == false && hidden["error"]?["code"]?.int == 404)
            #expect(hidden["error"]?["message"] == missing["error"]?["message"])
            let listed = try await client.get("\(Self.vms)/versionInfos", [("token", editor02)])
            #expect(listed["versions"]?.array?.contains { $0["versionGuid"]?.string == guid } == false)

            // DEFAULT is protected: editor01 may not edit it directly.
            let direct = try await client.post("\(Self.layer)/applyEdits", [("adds", Self.add), ("token", editor01)])
            #expect(direct.errorCode == 403 || direct["addResults"]?[0]?["success"]?.bool == false, "\(direct)")
            let badDetection = try await client.post("\(Self.vms)/versions/\(guid)/reconcile", [("conflictDetection", "byGuess"), ("token", editor01)])
            #expect(badDetection["success"]?.bool == false)
        }
    }
}
