import Foundation
import Runtime
import Service
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

@Suite struct VersionTests {
    @Test func anInvalidNameIsRefusedBeforeAnythingIsSent() async throws {
        let geodatabase = try await Runtimes.geodatabase("DamageAssessment")
        let before = try await geodatabase.fetchVersions().count
        let error = await runtimeError { _ = try await geodatabase.createVersion(name: "storm.crew", access: "private") }
        #expect(error?.identifier == "version/name-forbidden-character")
        let tooLong = await runtimeError { _ = try await geodatabase.createVersion(name: String(repeating: "a", count: 63)) }
        #expect(tooLong?.identifier == "version/name-too-long")
        let access = await runtimeError { _ = try await geodatabase.createVersion(name: "Fine", access: "secret") }
        #expect(access?.identifier == "version/access-invalid")
        #expect(try await geodatabase.fetchVersions().count == before)
    }

    @Test func createSwitchAndEditAVersionWhileDefaultStaysTheSame() async throws {
        let geodatabase = try await Runtimes.geodatabase("DamageAssessment")
        let version = try await geodatabase.createVersion(name: "Crew3", access: "private", description: "storm crew 3")
        #expect(version.versionName == "editor01.Crew3")
        let duplicate = await runtimeError { _ = try await geodatabase.createVersion(name: "crew3") }
        #expect(duplicate?.identifier == "version/name-not-unique")
        try await geodatabase.switchVersion(to: version.versionName)
        #expect(await geodatabase.versionName == "editor01.Crew3")
        let table = try await geodatabase.table(layerID: 0)
        var feature = try await table.feature(objectId: 1)
        feature["typdamage"] = .string("Major")
        try await table.update(feature)
        #expect(await geodatabase.hasLocalEdits)
        let pending = await runtimeError { try await geodatabase.switchVersion(to: "sde.DEFAULT") }
        #expect(pending?.identifier == RuntimeError.Identifier.localEditsPending)
        try await geodatabase.applyEdits()
        #expect(try await table.feature(objectId: 1)["typdamage"] == .string("Major"))
        try await geodatabase.switchVersion(to: "sde.DEFAULT")
        #expect(try await table.feature(objectId: 1)["typdamage"] == .string("Minor"))
        try await geodatabase.switchVersion(to: version.versionGuid)
        #expect(try await table.feature(objectId: 1)["typdamage"] == .string("Major"))
    }

    @Test func switchingWithAPolicyAppliesOrDiscards() async throws {
        let geodatabase = try await Runtimes.geodatabase("DamageAssessment")
        let version = try await geodatabase.createVersion(name: "Policy")
        try await geodatabase.switchVersion(to: version.versionName)
        let table = try await geodatabase.table(layerID: 0)
        var feature = try await table.feature(objectId: 2)
        feature["notes"] = .string("discard me")
        try await table.update(feature)
        try await geodatabase.switchVersion(to: "sde.DEFAULT", pending: .discard)
        #expect(await geodatabase.hasLocalEdits == false)
        try await geodatabase.switchVersion(to: version.versionName)
        #expect(try await table.feature(objectId: 2)["notes"] != .string("discard me"))
        feature["notes"] = .string("keep me")
        try await table.update(feature)
        try await geodatabase.switchVersion(to: "sde.DEFAULT", pending: .apply)
        try await geodatabase.switchVersion(to: version.versionName)
        #expect(try await table.feature(objectId: 2)["notes"] == .string("keep me"))
    }

    @Test func othersPrivateVersionsAreNotFound() async throws {
        let crew1 = try await Runtimes.geodatabase("DamageAssessment")
        let service = crew1.service as! InProcessFeatureService
        let version = try await crew1.createVersion(name: "Secret", access: "private")
        let crew2Service = InProcessFeatureService(core: service.core, serviceName: service.serviceName)
        try await crew2Service.signIn(Runtimes.editor02)
        let crew2 = ServiceGeodatabase(service: crew2Service)
        try await crew2.load()
        #expect(try await crew2.fetchVersions().map(\.versionName).contains(version.versionName) == false)
        let error = await runtimeError { try await crew2.switchVersion(to: version.versionName) }
        #expect(error?.identifier == RuntimeError.Identifier.versionNotFound)
        let missing = await runtimeError { try await crew1.switchVersion(to: "editor01.NoSuchVersion") }
        #expect(missing?.identifier == RuntimeError.Identifier.versionNotFound)
    }

    @Test func theDefaultVersionIsReadOnlyUnlessThePolicyAllows() async throws {
        let geodatabase = try await Runtimes.geodatabase("DamageAssessment", credential: Runtimes.admin)
        let table = try await geodatabase.table(layerID: 0)
        var feature = try await table.feature(objectId: 3)
        feature["notes"] = .string("on default")
        let refused = await runtimeError { try await table.update(feature) }
        #expect(refused?.identifier == RuntimeError.Identifier.defaultVersionReadOnly)
        #expect(await geodatabase.hasLocalEdits == false)
        await geodatabase.setDefaultVersionPolicy(.allow)
        try await table.update(feature)
        try await geodatabase.applyEdits()
        #expect(try await table.feature(objectId: 3)["notes"] == .string("on default"))
    }

    @Test func signingInWithLocalEditsIsRefused() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let trees = try await geodatabase.table(layerID: 0)
        var tree = try await trees.feature(objectId: 1)
        tree["Notes"] = .string("pending")
        try await trees.update(tree)
        let error = await runtimeError { try await geodatabase.signIn(Runtimes.editor02) }
        #expect(error?.identifier == RuntimeError.Identifier.localEditsPending)
    }
}
