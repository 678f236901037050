import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

/// Over HTTP: the administrator (who also owns the sample services) lists and opens another user's
/// private version; other users still do not learn it exists.
@Suite struct VersionVisibilityRouteTests {
    static let vms = VersionManagementRouteTests.vms
    static let layer = VersionManagementRouteTests.layer

    @Test func administratorsSeeAndOpenPrivateVersions() async throws {
        try await Fixtures.app().test(.router) { client in
            let editor01 = try await client.token("editor01")
            let editor02 = try await client.token("editor02")
            let admin = try await client.token("admin")
            let created = try await client.post("\(Self.vms)/create", [("versionName", "hidden"), ("accessPermission", "private"), ("token", editor01)])
            let guid = try #require(created["versionInfo"]?["versionGuid"]?.string, "\(created)")
            let name = "editor01.hidden"

            for route in ["versions", "versionInfos"] {
                let listed = try await client.get("\(Self.vms)/\(route)", [("token", admin), ("f", "json")])
                #expect(listed["versions"]?.array?.contains { $0["versionGuid"]?.string == guid } == true, "\(route): \(listed)")
                let others = try await client.get("\(Self.vms)/\(route)", [("token", editor02), ("includeHidden", "true"), ("f", "json")])
                #expect(others["versions"]?.array?.contains { $0["versionGuid"]?.string == guid } == false, "\(route): \(others)")
            }
            let version = "\(Self.vms)/versions/\(guid.dropFirst().dropLast())"
            #expect(try await client.get(version, [("token", admin)])["versionName"]?.string == name)

            let session = "{\(UUID().uuidString)}"
            #expect(try await client.post("\(version)/startReading", [("sessionId", session), ("token", admin)])["success"]?.bool == true)
            #expect(try await client.post("\(version)/startEditing", [("sessionId", session), ("token", admin)])["success"]?.bool == true)
            let added = try await client.post("\(Self.layer)/applyEdits", [("adds", VersionManagementRouteTests.add), ("gdbVersion", name),
                                                                           ("sessionID", session), ("token", admin)])
            #expect(added["addResults"]?[0]?["success"]?.bool == true, "\(added)")
            #expect(try await client.post("\(version)/stopEditing", [("sessionId", session), ("saveEdits", "true"), ("token", admin)])["success"]?.bool == true)
            #expect(try await client.post("\(version)/stopReading", [("sessionId", session), ("token", admin)])["success"]?.bool == true)

            let inVersion = try await client.get("\(Self.layer)/query", [("where", "placename = 'route test'"), ("returnCountOnly", "true"),
                                                                        ("gdbVersion", name), ("token", admin), ("f", "json")])
            #expect(inVersion["count"]?.int == 1, "\(inVersion)")
            let refused = try await client.get("\(Self.layer)/query", [("where", "1=1"), ("returnCountOnly", "true"), ("gdbVersion", name),
                                                                      ("token", editor02), ("f", "json")])
            #expect(refused["count"] == nil && refused.errorCode == 404, "\(refused)")
        }
    }
}
