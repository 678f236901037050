import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

@Suite struct EditRouteTests {
    static let trees = "/arcgis/rest/services/TreesOfPortland/FeatureServer"

    @Test func layerApplyEditsAddUpdateDelete() async throws {
        try await Fixtures.app().test(.router) { client in
            let token = try await client.token()
            let add = #"[{"attributes":{"Address":"1 Test St","Condition":"Good","Species_ID":1,"DBH":3},"geometry":{"x":-13653000,"y":5705000}}]"#
            let added = try await client.post("\(Self.trees)/0/applyEdits", [("adds", add), ("token", token), ("f", "json")])
            let result = added["addResults"]?[0]
            #expect(result?["success"]?.bool == true, "\(added)")
            let oid = result?["objectId"]?.int ?? -1
            #expect(result?["globalId"]?.string?.hasPrefix("{") == true)
            #expect(added["id"] == nil, "the layer-level answer carries no layer id")

            let updated = try await client.post("\(Self.trees)/0/applyEdits", [("updates", #"[{"attributes":{"OBJECTID":\#(oid),"DBH":8}}]"#), ("token", token)])
            #expect(updated["updateResults"]?[0]?["success"]?.bool == true)
            let read = try await client.get("\(Self.trees)/0/query", [("objectIds", "\(oid)"), ("outFields", "DBH")])
            #expect(read["features"]?[0]?["attributes"]?["DBH"]?.int == 8)

            let deleted = try await client.post("\(Self.trees)/0/applyEdits", [("deletes", "\(oid)"), ("token", token)])
            #expect(deleted["deleteResults"]?[0]?["success"]?.bool == true)
            #expect(try await client.get("\(Self.trees)/0/query", [("where", "1=1"), ("returnCountOnly", "true")])["count"]?.int == 24)
        }
    }

    @Test func perFeatureErrorsCarryEsriCodes() async throws {
        try await Fixtures.app().test(.router) { client in
            let token = try await client.token()
            let missing = try await client.post("\(Self.trees)/0/applyEdits", [("updates", #"[{"attributes":{"OBJECTID":99999,"DBH":1}}]"#),
                                                                              ("rollbackOnFailure", "false"), ("token", token)])
            #expect(missing["updateResults"]?[0]?["success"]?.bool == false)
            #expect(missing["updateResults"]?[0]?["error"]?["code"]?.int == 1011)
            let readOnly = try await client.post("\(Self.trees)/1/applyEdits", [("adds", #"[{"attributes":{}}]"#), ("token", token)])
            #expect(readOnly.errorCode != nil || readOnly["addResults"]?[0]?["success"]?.bool == false, "Neighborhoods is Query only: \(readOnly)")
        }
    }

    @Test func serviceLevelApplyEditsIsAtomic() async throws {
        try await Fixtures.app().test(.router) { client in
            let token = try await client.token()
            let edits = #"""
            [{"id":0,"updates":[{"attributes":{"OBJECTID":1,"DBH":77}}]},
             {"id":3,"updates":[{"attributes":{"OBJECTID":99999,"Notes":"none"}}]}]
            """#
            let answer = try await client.post("\(Self.trees)/applyEdits", [("edits", edits), ("token", token)])
            let layers = answer.array ?? []
            #expect(layers.count == 2, "\(answer)")
            #expect(layers.allSatisfy { $0["updateResults"]?[0]?["success"]?.bool == false })
            let tree = try await client.get("\(Self.trees)/0/query", [("objectIds", "1"), ("outFields", "DBH")])
            #expect(tree["features"]?[0]?["attributes"]?["DBH"]?.int != 77, "nothing was applied")
            #expect(try await client.post("\(Self.trees)/applyEdits", [("token", token)]).errorCode == 400)
            #expect(try await client.post("\(Self.trees)/applyEdits", [("edits", "[{]"), ("token", token)]).errorCode == 400)
        }
    }

    @Test func addUpdateAndDeleteFeaturesOperations() async throws {
        try await Fixtures.app().test(.router) { client in
            let token = try await client.token()
            let added = try await client.post("\(Self.trees)/3/addFeatures", [("features", #"[{"attributes":{"Notes":"from addFeatures","Collected_Date":1596657600000,"Condition":"Good"}}]"#), ("token", token)])
            let oid = added["addResults"]?[0]?["objectId"]?.int ?? -1
            #expect(added["addResults"]?[0]?["success"]?.bool == true, "\(added)")
            let updated = try await client.post("\(Self.trees)/3/updateFeatures", [("features", #"[{"attributes":{"OBJECTID":\#(oid),"Notes":"changed"}}]"#), ("token", token)])
            #expect(updated["updateResults"]?[0]?["success"]?.bool == true, "\(updated)")
            let deleted = try await client.post("\(Self.trees)/3/deleteFeatures", [("where", "Notes = 'changed'"), ("token", token)])
            #expect(deleted["deleteResults"]?.array?.count == 1, "\(deleted)")
        }
    }
}
