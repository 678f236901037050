import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

/// The ArcGIS API for Python's flow over HTTP: start reading and editing, edit, stop editing (saving),
/// then delete while still reading, sending its own sessionId.
@Suite struct VersionDeleteRouteTests {
    static let vms = VersionManagementRouteTests.vms
    static let layer = VersionManagementRouteTests.layer

    @Test(arguments: ["root", "version"])
    func deleteWithTheClientsOwnSession(route: String) async throws {
        try await Fixtures.app().test(.router) { client in
            let token = try await client.token()
            let created = try await client.post("\(Self.vms)/create", [("versionName", "pyflow_\(route)"), ("token", token)])
            let name = try #require(created["versionInfo"]?["versionName"]?.string, "\(created)")
            let guid = try #require(created["versionInfo"]?["versionGuid"]?.string)
            let version = "\(Self.vms)/versions/\(guid.dropFirst().dropLast())"
            let session = "{\(UUID().uuidString.uppercased())}"
            #expect(try await client.post("\(version)/startReading", [("sessionId", session), ("token", token)])["success"]?.bool == true)
            #expect(try await client.post("\(version)/startEditing", [("sessionId", session), ("token", token)])["success"]?.bool == true)
            let added = try await client.post("\(Self.layer)/applyEdits", [("adds", VersionManagementRouteTests.add), ("gdbVersion", name),
                                                                           ("sessionID", session), ("token", token)])
            #expect(added["addResults"]?[0]?["success"]?.bool == true, "\(added)")
            #expect(try await client.post("\(version)/stopEditing", [("sessionId", session), ("saveEdits", "true"), ("token", token)])["success"]?.bool == true)

            let (uri, pairs): (String, [(String, String)]) = route == "root"
                ? ("\(Self.vms)/delete", [("versionName", name), ("token", token)])
                : ("\(version)/delete", [("token", token)])
            let blocked = try await client.post(uri, pairs)
            #expect(blocked["success"]?.bool == false && blocked["error"]?["message"]?.string == "Unable to delete the version.", "\(blocked)")
            let deleted = try await client.post(uri, pairs + [("sessionId", session), ("f", "json")])
            #expect(deleted["success"]?.bool == true, "\(deleted)")
            let listed = try await client.get("\(Self.vms)/versionInfos", [("token", token)])
            #expect(listed["versions"]?.array?.contains { $0["versionGuid"]?.string == guid } == false, "\(listed)")
        }
    }
}
