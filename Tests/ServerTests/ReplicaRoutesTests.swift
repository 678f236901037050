import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

/// The replica operations over HTTP (service.md, "Replicas"): ArcGIS parameter names in, ArcGIS JSON
/// shapes out.
@Suite struct ReplicaRoutesTests {
    static let trees = "/arcgis/rest/services/TreesOfPortland/FeatureServer"

    /// `dataFormat=sqlite`: a local geodatabase file to download (the runtime's offline format), its rows and
    /// replica state inside; without the url transport it is refused and no replica is left behind.
    @Test func sqliteDataFormatAnswersAGeodatabaseFileToDownload() async throws {
        try await Fixtures.app().test(.live) { client in
            let token = try await client.token("editor01")
            let embedded = try await client.post("\(Self.trees)/createReplica", [("layers", "0"), ("dataFormat", "sqlite"), ("token", token), ("f", "json")])
            #expect(embedded["error"]?["code"]?.int == 400, "\(embedded)")
            #expect(try await client.get("\(Self.trees)/replicas", [("token", token), ("f", "json")]).array?.isEmpty == true)

            let created = try await client.post("\(Self.trees)/createReplica", [
                ("layers", "0,3"), ("dataFormat", "sqlite"), ("transportType", "esriTransportTypeUrl"), ("token", token), ("f", "json")])
            let url = try #require(created["responseUrl"]?.string, "\(created.text)")
            let id = try #require(created["replicaID"]?.string)
            #expect(url.hasSuffix(".geodatabase"))
            let site = try #require(url.range(of: "/arcgis/"))
            let path = String(url[site.lowerBound...])
            let download = try await client.execute(uri: path + "?token=\(token)", method: .get)
            #expect(download.status == .ok)
            let bytes = Data(buffer: download.body)
            #expect(bytes.starts(with: Array("SQLite format 3".utf8)))
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-sqlite-\(UUID().uuidString).geodatabase").path
            try bytes.write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            var configuration = ServiceCore.Configuration(database: file)
            configuration.singleConnection = true
            let local = try await ServiceCore.open(configuration)
            let state = try #require(try await local.offlineState())
            #expect(state.replicaID == id)
            #expect(state.layers == [0, 3])
            #expect(state.user == "editor01")
            #expect(try await local.offlineLayerSummaries().first { $0.id == 0 }?.features == 24)
            try local.close()
            // Someone else may not download it.
            let other = try await client.token("editor02")
            let refused = try await client.execute(uri: path + "?token=\(other)&f=json", method: .get)
            #expect(refused.status != .ok || (try? refused.json["error"]) != nil)
        }
    }

    @Test func createSyncUnregisterAndListOverHTTP() async throws {
        try await Fixtures.app().test(.live) { client in
            let token = try await client.token("editor01")
            let other = try await client.token("editor02")
            let admin = try await client.token("admin", "sample-admin")

            // The root advertises sync.
            let root = try await client.get(Self.trees, [("f", "json")])
            #expect(root["syncEnabled"]?.bool == true)
            #expect(root["syncCapabilities"]?["supportsPerLayerSync"]?.bool == true)
            #expect(root["syncCapabilities"]?["supportsAsync"]?.bool == false)
            #expect(root["capabilities"]?.string?.split(separator: ",").contains("Sync") == true)

            let created = try await client.post("\(Self.trees)/createReplica", [
                ("replicaName", "field crew"), ("layers", "0,3"), ("layerQueries", #"{"0": {"queryOption": "useFilter", "where": "Condition = 'Good'", "useGeometry": true}}"#),
                ("returnAttachments", "true"), ("syncModel", "perLayer"), ("syncDirection", "bidirectional"), ("dataFormat", "json"),
                ("transportType", "esriTransportTypeEmbedded"), ("async", "false"), ("token", token), ("f", "json")])
            #expect(created["replicaName"]?.string == "field crew", "\(created)")
            #expect(created["responseType"]?.string == "esriReplicaResponseTypeData")
            let id = try #require(created["replicaID"]?.string)
            let gen = try #require(created["serverGen"]?.int)
            #expect(created["layerServerGens"]?.array?.map { $0["id"]?.int } == [0, 3])
            #expect(created["layerServerGens"]?[0]?["serverGen"]?.int == gen)
            let layers = try #require(created["layers"]?.array)
            #expect(layers.map { $0["id"]?.int } == [0, 3])
            let trees = try #require(layers[0]["features"]?.array)
            #expect(trees.count == 15)
            #expect(trees[0]["attributes"]?["GlobalID"]?.string?.hasPrefix("{") == true)
            #expect(trees[0]["geometry"]?["x"]?.double != nil)
            #expect(layers[0]["attachments"]?.array != nil)
            // The typed reading of the same answer.
            let package = try ReplicaPackage(json: created)
            #expect(package.layers[1].features.count == 30)

            // Another user edits a tree the replica holds.
            let goodTree = try #require(trees[0]["attributes"]?["OBJECTID"]?.int)
            let goodGid = try #require(trees[0]["attributes"]?["GlobalID"]?.string)
            let edited = try await client.post("\(Self.trees)/0/applyEdits", [("updates", #"[{"attributes":{"OBJECTID":\#(goodTree),"Notes":"from editor02"}}]"#), ("token", other)])
            #expect(edited["updateResults"]?[0]?["success"]?.bool == true)

            // Sync: upload an add and download editor02's update.
            let addGid = "{0D1C2B3A-4E5F-4A6B-8C7D-9E0F1A2B3C4D}"
            let edits = #"[{"id":0,"features":{"adds":[{"attributes":{"GlobalID":"\#(addGid)","Address":"5 Sync St","Site_Type":"TL","Condition":"Good"},"geometry":{"x":-13652050,"y":5704050}}],"updates":[],"deleteIds":[]},"attachments":{"adds":[],"updates":[],"deleteIds":[]}}]"#
            let synced = try await client.post("\(Self.trees)/synchronizeReplica", [
                ("replicaID", id), ("syncLayers", #"[{"id":0,"serverGen":\#(gen),"syncDirection":"bidirectional"},{"id":3,"serverGen":\#(gen)}]"#),
                ("syncDirection", "bidirectional"), ("edits", edits), ("rollbackOnFailure", "true"), ("async", "false"), ("token", token), ("f", "json")])
            #expect(synced["replicaID"]?.string == id, "\(synced)")
            #expect(synced["responseType"]?.string == "esriReplicaResponseTypeEdits")
            let newGen = try #require(synced["replicaServerGen"]?.int)
            #expect(newGen > gen)
            #expect(synced["layerServerGens"]?.array?.allSatisfy { $0["serverGen"]?.int == newGen } == true)
            let results = try #require(synced["editResults"]?[0])
            #expect(results["id"]?.int == 0)
            #expect(results["addResults"]?[0]?["success"]?.bool == true)
            #expect(results["addResults"]?[0]?["globalId"]?.string == addGid)
            let download = try #require(synced["edits"]?[0])
            #expect(download["id"]?.int == 0)
            #expect(download["features"]?["updates"]?.array?.map { $0["attributes"]?["GlobalID"]?.string } == [goodGid])
            #expect(download["features"]?["updates"]?[0]?["attributes"]?["Notes"]?.string == "from editor02")
            #expect(download["features"]?["adds"]?.array?.isEmpty == true)
            #expect(download["features"]?["deleteIds"]?.array?.isEmpty == true)
            #expect(download["attachments"]?["adds"]?.array != nil)
            #expect(synced["conflicts"]?.array?.isEmpty == true)
            #expect(try SyncAnswer(json: synced).editResults.first?.succeeded == true)
            let stored = try await client.get("\(Self.trees)/0/query", [("where", "GlobalID = '\(addGid)'"), ("outFields", "Address"), ("f", "json")])
            #expect(stored["features"]?[0]?["attributes"]?["Address"]?.string == "5 Sync St")

            // replicas and replicas/<id>, per user.
            let mine = try await client.get("\(Self.trees)/replicas", [("token", token), ("f", "json")])
            #expect(mine.array?.map { $0["replicaID"]?.string } == [id])
            #expect(mine[0]?["replicaOwner"]?.string == "editor01")
            #expect(try await client.get("\(Self.trees)/replicas", [("token", other)]).array?.isEmpty == true)
            #expect(try await client.get("\(Self.trees)/replicas", [("token", admin)]).array?.count == 1)
            let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-"))) ?? id
            let one = try await client.get("\(Self.trees)/replicas/\(escaped)", [("token", token), ("f", "pjson")])
            #expect(one["replicaName"]?.string == "field crew")
            #expect(one["layers"]?.array?.map { $0["id"]?.int } == [0, 3])
            #expect(one["layers"]?[0]?["where"]?.string == "Condition = 'Good'")
            #expect(one["layers"]?[1]?["queryOption"]?.string == "useFilter")
            #expect(one["replicaServerGen"]?.int == newGen)
            #expect(one["syncModel"]?.string == "perLayer")
            #expect(try await client.get("\(Self.trees)/replicas/\(escaped)", [("token", other)]).errorCode == 400)

            // Unregister; a later sync is refused.
            let removed = try await client.post("\(Self.trees)/unRegisterReplica", [("replicaID", id), ("token", token), ("f", "json")])
            #expect(removed["success"]?.bool == true)
            let refused = try await client.post("\(Self.trees)/synchronizeReplica", [("replicaID", id), ("replicaServerGen", "\(newGen)"), ("token", token)])
            #expect(refused["error"]?["code"]?.int == 400)
            #expect(refused["error"]?["message"]?.string == "Replica not found.")
            #expect(refused["error"]?["details"]?.array?.isEmpty == false)
        }
    }

    @Test func transportUrlAndRefusedParameters() async throws {
        try await Fixtures.app().test(.router) { client in
            let token = try await client.token("editor01")
            let answer = try await client.post("\(Self.trees)/createReplica", [("layers", "[2]"), ("transportType", "esriTransportTypeUrl"), ("token", token)])
            let url = try #require(answer["responseUrl"]?.string, "\(answer)")
            #expect(url.hasPrefix("http://"))
            let path = try #require(URL(string: url)?.path)
            #expect(path.hasPrefix("/arcgis/rest/services/TreesOfPortland/FeatureServer/replicaFiles/"))
            let kept = try await client.get(path, [("token", token)])
            #expect(kept["layers"]?[0]?["features"]?.array?.count == 5, "\(kept)")
            #expect(kept["syncDirection"]?.string == "download", "Species allows only Query")
            let stranger = try await client.token("editor02")
            #expect(try await client.get(path, [("token", stranger)]).errorCode == 400)

            let sqlite = try await client.post("\(Self.trees)/createReplica", [("dataFormat", "sqlite"), ("token", token)])
            #expect(sqlite.errorCode == 400)
            #expect(sqlite["error"]?["details"]?[0]?.string?.contains("transportType=esriTransportTypeUrl") == true)
            let async = try await client.post("\(Self.trees)/createReplica", [("async", "true"), ("token", token)])
            #expect(async.errorCode == 400)
            #expect(async["error"]?["details"]?[0]?.string?.contains("async=true") == true)
            #expect(try await client.post("\(Self.trees)/createReplica", [("layers", "0")]).errorCode == 499)
            let badEdits = try await client.post("\(Self.trees)/synchronizeReplica", [("replicaID", "{00000000-0000-0000-0000-000000000001}"), ("edits", "{"), ("token", token)])
            #expect(badEdits.errorCode == 400)
            // Malformed layer lists are refused, not read as the ids before the mistake.
            for layers in ["[0,", "0,,1", "[0, \"x\"]", "0,a"] {
                #expect(try await client.post("\(Self.trees)/createReplica", [("layers", layers), ("token", token)]).errorCode == 400, "\(layers)")
            }
            // An edits entry for a layer outside the replica is refused even when it carries no edit.
            let one = try await client.post("\(Self.trees)/createReplica", [("layers", "0"), ("replicaName", "strict"), ("token", token)])
            let oneID = try #require(one["replicaID"]?.string, "\(one)")
            let stray = try await client.post("\(Self.trees)/synchronizeReplica", [("replicaID", oneID), ("edits", #"[{"id":99}]"#), ("token", token)])
            #expect(stray.errorCode == 400, "\(stray)")
            // The layer routes still answer next to the replica routes.
            #expect(try await client.get("\(Self.trees)/0")["name"]?.string == "Trees")
        }
    }
}
