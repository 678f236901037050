import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

@Suite struct VersioningTests {
    static let service = "DamageAssessment"

    static func update(_ objectId: Int64, _ values: [(String, AttributeValue)]) -> LayerEdits {
        var attributes = Attributes([("objectid", .int(objectId))])
        for (name, value) in values { attributes[name] = value }
        return LayerEdits(updates: [EditFeature(attributes: attributes)])
    }

    static func value(_ core: ServiceCore, _ objectId: Int64, _ field: String, version: String? = nil, as caller: Caller = .anonymous) async throws -> AttributeValue? {
        try await core.features(service, 0, where: "objectid = \(objectId)", version: version, as: caller).first?.attributes[field]
    }

    @Test func defaultIsProtectedAndOwnedByTheServiceOwner() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let info = try await core.versionManagementInfo(service: Self.service, as: .anonymous)
        #expect(info.defaultVersionName == "sde.DEFAULT")
        let versions = try await core.versionInfos(service: Self.service, as: who.editor01)
        #expect(versions.versions.map(\.versionName) == ["sde.DEFAULT"])
        #expect(versions.versions.first?.access == "esriVersionAccessProtected")
        await expectServiceError(403) { _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("x"))]), as: who.editor01) }
        let byAdmin = try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("x"))]), as: who.admin)
        #expect(byAdmin.succeeded)
        // TreesOfPortland is not versioned: no version management, and gdbVersion names nothing.
        await expectServiceError(404) { _ = try await core.versionInfos(service: "TreesOfPortland", as: who.editor01) }
        await expectServiceError(404) { _ = try await core.features("TreesOfPortland", 0, version: "editor01.Work") }
    }

    @Test func createCheckesTheVersionRulesAndUniqueness() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let created = try await core.createVersion(service: Self.service, versionName: "Crew1", description: "north side", as: who.editor01)
        #expect(created.versionInfo.versionName == "editor01.Crew1")
        #expect(created.versionInfo.access == "esriVersionAccessPrivate")
        #expect(created.versionInfo.versionGuid.hasPrefix("{") && created.versionInfo.versionGuid == created.versionInfo.versionGuid.uppercased())
        for (name, rule) in [("", "version/name-empty"), ("a.b", "version/name-forbidden-character"), (String(repeating: "x", count: 63), "version/name-too-long"),
                             (" lead", "version/name-leading-space"), ("tab\there", "version/name-control-character"), ("CREW1", "version/name-not-unique")] {
            let error = await expectServiceError(400) { _ = try await core.createVersion(service: Self.service, versionName: name, as: who.editor01) }
            #expect(error?.details.contains { $0.hasPrefix(rule) } == true, "\(name): \(String(describing: error))")
        }
        let access = await expectServiceError(400) { _ = try await core.createVersion(service: Self.service, versionName: "Other", accessPermission: "secret", as: who.editor01) }
        #expect(access?.details.first?.hasPrefix("version/access-invalid") == true)
        // The same name for another owner is another version.
        #expect(try await core.createVersion(service: Self.service, versionName: "Crew1", as: who.editor02).versionInfo.versionName == "editor02.Crew1")
        // Anonymous callers cannot create versions.
        await expectServiceError(499) { _ = try await core.createVersion(service: Self.service, versionName: "Anon", as: .anonymous) }
    }

    @Test func creatingAVersionInsertsExactlyOneRow() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        func rowCounts() async throws -> [String: Int] {
            try await core.database.read { db in
                var counts: [String: Int] = [:]
                for table in ["service", "layer", "featureRow", "head", "version", "conflict", "attachmentRow", "attachmentData"] {
                    counts[table] = try db.fetchValue("SELECT count(*) FROM \(raw: table)", as: Int.self) ?? 0
                }
                return counts
            }
        }
        let before = try await rowCounts()
        _ = try await core.createVersion(service: Self.service, versionName: "Cheap", as: who.editor01)
        let after = try await rowCounts()
        for (table, count) in before {
            #expect(after[table] == count + (table == "version" ? 1 : 0), "\(table)")
        }
    }

    @Test func editsInAVersionReachDefaultOnlyThroughPost() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let version = try await core.createVersion(service: Self.service, versionName: "Survey", accessPermission: "public", as: who.editor01).versionInfo.versionName
        let original = try await Self.value(core, 3, "typdamage")
        let countBefore = try await core.count(Self.service, 0)
        let options = EditOptions(gdbVersion: version)
        #expect(try await core.applyEdits(service: Self.service, layer: 0, Self.update(3, [("typdamage", .string("Destroyed"))]), options: options, as: who.editor01).succeeded)
        let added = try await core.applyEdits(service: Self.service, layer: 0, LayerEdits(adds: [EditFeature(
            attributes: Attributes([("placename", .string("New Shop")), ("typdamage", .string("Minor"))]),
            geometry: .point(Point(x: -88.15, y: 41.77)), spatialReference: .wgs84)]), options: options, as: who.editor01)
        #expect(added.succeeded)
        #expect(try await core.applyEdits(service: Self.service, layer: 0, LayerEdits(deletes: [4]), options: options, as: who.editor01).succeeded)

        #expect(try await Self.value(core, 3, "typdamage", version: version) == .string("Destroyed"))
        #expect(try await Self.value(core, 3, "typdamage") == original)
        #expect(try await core.count(Self.service, 0, version: version) == countBefore)  // one added, one deleted
        #expect(try await core.count(Self.service, 0, where: "objectid = 4") == 1)
        #expect(try await core.count(Self.service, 0, where: "objectid = 4", version: version) == 0)

        let differences = try await core.differences(service: Self.service, version: version, as: who.editor01)
        let layer = try #require(differences.differences.first)
        #expect(layer.updateIds == [3] && layer.deleteIds == [4] && layer.insertIds.count == 1)

        let posted = try await core.post(service: Self.service, version: version, as: who.editor01)
        #expect(posted.success)
        #expect(try await Self.value(core, 3, "typdamage") == .string("Destroyed"))
        #expect(try await core.count(Self.service, 0, where: "objectid = 4") == 0)
        #expect(try await core.count(Self.service, 0) == countBefore)
        // After the post the version and DEFAULT agree, and the version has nothing left to post.
        #expect(try await core.differences(service: Self.service, version: version, as: who.editor01).differences.isEmpty)
        #expect(try await Self.value(core, 3, "typdamage", version: version) == .string("Destroyed"))
    }

    @Test func privateVersionsDoNotLeak() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let mine = try await core.createVersion(service: Self.service, versionName: "Secret", as: who.editor01).versionInfo
        #expect(try await core.versionInfos(service: Self.service, as: who.editor02).versions.map(\.versionName) == ["sde.DEFAULT"])
        #expect(try await core.versionInfos(service: Self.service, as: who.editor01).versions.map(\.versionName) == ["sde.DEFAULT", "editor01.Secret"])
        // includeHidden shows nothing more to someone who may not see it.
        #expect(try await core.versionInfos(service: Self.service, includeHidden: true, as: who.editor02).versions.map(\.versionName) == ["sde.DEFAULT"])
        #expect(try await core.versionInfos(service: Self.service, ownerFilter: "editor02", as: who.editor01).versions.isEmpty)

        let hidden = await expectServiceError(404) { _ = try await core.versionInfo(service: Self.service, version: mine.versionGuid, as: who.editor02) }
        let missing = await expectServiceError(404) { _ = try await core.versionInfo(service: Self.service, version: "{00000000-0000-0000-0000-000000000000}", as: who.editor02) }
        #expect(hidden?.message == missing?.message && hidden?.code == missing?.code && hidden?.extendedCode == missing?.extendedCode)
        let byName = await expectServiceError(404) { _ = try await core.features(Self.service, 0, version: "editor01.Secret", as: who.editor02) }
        let byMissingName = await expectServiceError(404) { _ = try await core.features(Self.service, 0, version: "editor01.Nothing", as: who.editor02) }
        #expect(byName?.message == byMissingName?.message)
        await expectServiceError(404) {
            _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("x"))]), options: EditOptions(gdbVersion: "editor01.Secret"), as: who.editor02)
        }
        // Its owner and the administrator read it.
        #expect(try await core.count(Self.service, 0, version: "editor01.secret", as: who.editor01) > 0)
        #expect(try await core.count(Self.service, 0, version: mine.versionGuid.lowercased(), as: who.admin) > 0)
    }

    @Test func protectedVersionsAreReadableButNotEditableByOthers() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let version = try await core.createVersion(service: Self.service, versionName: "Shared", accessPermission: "protected", as: who.editor01).versionInfo.versionName
        #expect(try await core.count(Self.service, 0, version: version, as: who.editor02) > 0)
        #expect(try await core.count(Self.service, 0, version: version) > 0)
        await expectServiceError(403) {
            _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("x"))]), options: EditOptions(gdbVersion: version), as: who.editor02)
        }
        await expectServiceError(403) { _ = try await core.deleteVersion(service: Self.service, version: version, as: who.editor02) }
        #expect(try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("x"))]), options: EditOptions(gdbVersion: version), as: who.editor01).succeeded)
        #expect(try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("y"))]), options: EditOptions(gdbVersion: version), as: who.admin).succeeded)
        // A public version is editable by every signed-in user.
        try await core.alterVersion(service: Self.service, version: version, accessPermission: "public", as: who.editor01).success.ifFalse { Issue.record("alter failed") }
        #expect(try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("z"))]), options: EditOptions(gdbVersion: version), as: who.editor02).succeeded)
        #expect(try await core.deleteVersion(service: Self.service, version: version, as: who.editor01).success)
        await expectServiceError(404) { _ = try await core.versionInfo(service: Self.service, version: version, as: who.editor01) }
    }

    @Test(arguments: [ConflictDetection.byObject, .byAttribute])
    func reconcileFindsConflicts(detection: ConflictDetection) async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let version = try await core.createVersion(service: Self.service, versionName: "Crew", as: who.editor01).versionInfo.versionName
        let inVersion = EditOptions(gdbVersion: version)
        // 1: update-update on the same field; 2: update in the version, delete in DEFAULT;
        // 5: update-update on different fields (a conflict by object only); 6: changed in DEFAULT only.
        _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("typdamage", .string("Major"))]), options: inVersion, as: who.editor01)
        _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(2, [("notes", .string("mine"))]), options: inVersion, as: who.editor01)
        _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(5, [("notes", .string("version note"))]), options: inVersion, as: who.editor01)
        _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("typdamage", .string("Destroyed"))]), as: who.admin)
        _ = try await core.applyEdits(service: Self.service, layer: 0, LayerEdits(deletes: [2]), as: who.admin)
        _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(5, [("placename", .string("Renamed in DEFAULT"))]), as: who.admin)
        _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(6, [("placename", .string("Only DEFAULT"))]), as: who.admin)

        // Post before reconciling is refused: DEFAULT moved since the version's ancestor.
        await expectServiceError(400) { _ = try await core.post(service: Self.service, version: version, as: who.editor01) }

        // abortIfConflicts leaves the version as it was but lists the conflicts.
        let aborted = try await core.reconcile(service: Self.service, version: version, abortIfConflicts: true, conflictDetection: detection, as: who.editor01)
        #expect(!aborted.success && aborted.hasConflicts)
        #expect(try await Self.value(core, 6, "placename", version: version, as: who.editor01) != .string("Only DEFAULT"))

        let result = try await core.reconcile(service: Self.service, version: version, conflictDetection: detection, as: who.editor01)
        #expect(result.success && result.hasConflicts)
        let conflicts = try await core.conflicts(service: Self.service, version: version, as: who.editor01)
        let layer = try #require(conflicts.conflicts.first)
        #expect(layer.updateUpdateConflicts.map(\.objectId) == (detection == .byObject ? [1, 5] : [1]))
        #expect(layer.updateDeleteConflicts.map(\.objectId) == [2])
        if detection == .byAttribute { #expect(layer.updateUpdateConflicts.first?.fields == ["typdamage"]) }
        #expect(layer.updateUpdateConflicts.first?.defaultVersion?.attributes["typdamage"] == .string("Destroyed"))
        #expect(layer.updateUpdateConflicts.first?.ancestorVersion?.attributes["typdamage"] == .string("Minor"))
        #expect(layer.updateUpdateConflicts.first?.branchVersion?.attributes["typdamage"] == .string("Major"))

        // Resolved in favour of the version; DEFAULT's other changes now show through.
        #expect(try await Self.value(core, 1, "typdamage", version: version, as: who.editor01) == .string("Major"))
        #expect(try await Self.value(core, 2, "notes", version: version, as: who.editor01) == .string("mine"))
        #expect(try await Self.value(core, 6, "placename", version: version, as: who.editor01) == .string("Only DEFAULT"))
        #expect(try await Self.value(core, 5, "notes", version: version, as: who.editor01) == .string("version note"))
        if detection == .byAttribute {
            // Merged: DEFAULT's placename and the version's notes.
            #expect(try await Self.value(core, 5, "placename", version: version, as: who.editor01) == .string("Renamed in DEFAULT"))
        }

        // DEFAULT moves again after the reconcile: post is refused until the next reconcile.
        _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(7, [("notes", .string("late"))]), as: who.admin)
        let refused = await expectServiceError(400) { _ = try await core.post(service: Self.service, version: version, as: who.editor01) }
        #expect(refused?.message.contains("reconcile") == true)
        let again = try await core.reconcile(service: Self.service, version: version, conflictDetection: detection, withPost: true, as: who.editor01)
        #expect(again.didPost)
        #expect(try await Self.value(core, 1, "typdamage") == .string("Major"))
        #expect(try await Self.value(core, 2, "notes") == .string("mine"))  // the version's update revives it
        #expect(try await Self.value(core, 7, "notes") == .string("late"))
    }

    @Test func deleteUpdateConflict() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let version = try await core.createVersion(service: Self.service, versionName: "Del", as: who.editor01).versionInfo.versionName
        _ = try await core.applyEdits(service: Self.service, layer: 0, LayerEdits(deletes: [8]), options: EditOptions(gdbVersion: version), as: who.editor01)
        _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(8, [("notes", .string("still here"))]), as: who.admin)
        _ = try await core.reconcile(service: Self.service, version: version, as: who.editor01)
        let conflicts = try await core.conflicts(service: Self.service, version: version, as: who.editor01)
        #expect(conflicts.conflicts.first?.deleteUpdateConflicts.map(\.objectId) == [8])
        #expect(try await core.count(Self.service, 0, where: "objectid = 8", version: version, as: who.editor01) == 0)
    }

    @Test func sessionsLockAndDiscard() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let info = try await core.createVersion(service: Self.service, versionName: "Session", accessPermission: "public", as: who.editor01).versionInfo
        let guid = info.versionGuid
        let session = "{AAAAAAAA-0000-0000-0000-000000000001}"
        let other = "{BBBBBBBB-0000-0000-0000-000000000002}"
        // Editing needs a reading session first.
        await expectServiceError(400) { _ = try await core.startEditing(service: Self.service, version: guid, sessionId: session, as: who.editor01) }
        _ = try await core.startReading(service: Self.service, version: guid, sessionId: session, as: who.editor01)
        _ = try await core.startReading(service: Self.service, version: guid, sessionId: other, as: who.editor02)
        let read = try await core.versionInfo(service: Self.service, version: guid, as: who.editor01)
        #expect(read.isBeingRead == true && read.isBeingEdited == false)
        // Exclusive: not while another session reads.
        await expectServiceError(400) { _ = try await core.startEditing(service: Self.service, version: guid, sessionId: session, as: who.editor01) }
        _ = try await core.stopReading(service: Self.service, version: guid, sessionId: other, as: who.editor02)
        _ = try await core.startEditing(service: Self.service, version: guid, sessionId: session.lowercased(), as: who.editor01)
        let editing = try await core.versionInfo(service: Self.service, version: guid, as: who.editor02)
        #expect(editing.isBeingEdited == true && editing.isLocked == true && editing.lockOwner == "editor01")
        await expectServiceError(400) { _ = try await core.startReading(service: Self.service, version: guid, sessionId: other, as: who.editor02) }

        // Edits from other sessions (or none) are refused while the lock is held.
        await expectServiceError(400) {
            _ = try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("intruder"))]), options: EditOptions(gdbVersion: info.versionName), as: who.editor02)
        }
        let inSession = EditOptions(gdbVersion: info.versionName, sessionID: session)
        #expect(try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("kept"))]), options: inSession, as: who.editor01).succeeded)
        _ = try await core.stopEditing(service: Self.service, version: guid, sessionId: session, saveEdits: true, as: who.editor01)
        #expect(try await Self.value(core, 1, "notes", version: info.versionName) == .string("kept"))

        _ = try await core.startEditing(service: Self.service, version: guid, sessionId: session, as: who.editor01)
        #expect(try await core.applyEdits(service: Self.service, layer: 0, Self.update(1, [("notes", .string("discarded"))]), options: inSession, as: who.editor01).succeeded)
        #expect(try await core.applyEdits(service: Self.service, layer: 0, LayerEdits(deletes: [2]), options: inSession, as: who.editor01).succeeded)
        _ = try await core.stopEditing(service: Self.service, version: guid, sessionId: session, saveEdits: false, as: who.editor01)
        #expect(try await Self.value(core, 1, "notes", version: info.versionName) == .string("kept"))
        #expect(try await core.count(Self.service, 0, where: "objectid = 2", version: info.versionName) == 1)
        _ = try await core.stopReading(service: Self.service, version: guid, sessionId: session, as: who.editor01)
        #expect(try await core.versionInfo(service: Self.service, version: guid, as: who.editor01).isLocked == false)
    }
}

extension Bool {
    func ifFalse(_ body: () -> Void) { if !self { body() } }
}

@Suite struct VersionPagingTests {
    @Test func pagesOfAVersionMergeItsRowsWithDefaultsInIdOrder() async throws {
        let core = try await Fixtures.core()
        let who = try await Callers.signIn(core)
        let service = VersioningTests.service
        let version = try await core.createVersion(service: service, versionName: "Pages", as: who.editor01).versionInfo.versionName
        let options = EditOptions(gdbVersion: version)
        _ = try await core.applyEdits(service: service, layer: 0, LayerEdits(
            adds: [EditFeature(attributes: Attributes([("placename", .string("Added"))]), geometry: .point(Point(x: -88.15, y: 41.77)), spatialReference: .wgs84)],
            updates: [EditFeature(attributes: Attributes([("objectid", .int(3)), ("notes", .string("v"))]))], deletes: [5]), options: options, as: who.editor01)
        // DEFAULT moves too, so both read paths (unchanged / moved since the ancestor) are exercised.
        for moved in [false, true] {
            if moved { _ = try await core.applyEdits(service: service, layer: 0, VersioningTests.update(7, [("notes", .string("d"))]), as: who.admin) }
            let ids = try #require(try await core.query(service: service, layer: 0, QueryParameters(returnIdsOnly: true, gdbVersion: version), as: who.editor01).objectIds)
            #expect(!ids.contains(5) && ids == ids.sorted())
            var paged: [Int64] = []
            var offset = 0
            while true {
                let page = try #require(try await core.query(service: service, layer: 0, QueryParameters(resultOffset: offset, resultRecordCount: 7, gdbVersion: version), as: who.editor01).featureSet)
                paged += page.objectIds
                offset += 7
                if page.exceededTransferLimit != true { break }
            }
            #expect(paged == ids, "moved: \(moved)")
            let three = try await core.features(service, 0, where: "objectid = 3", version: version, as: who.editor01)
            #expect(three.first?.attributes["notes"] == .string("v"))
        }
    }
}

@Suite struct ConcurrentCrewsTests {
    /// Eight crews edit their own versions at once, then reconcile with post until it lands: every edit
    /// reaches DEFAULT and every crew but the first to post hears of the conflict on the object all touched.
    @Test func eightCrewsReconcileAndPost() async throws {
        let core = try await Fixtures.core(users: false)
        let service = VersioningTests.service
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for crew in 1...8 {
                group.addTask {
                    let name = try await core.createVersion(service: service, versionName: "Crew\(crew)", accessPermission: "public", as: .anonymous).versionInfo.versionName
                    let options = EditOptions(gdbVersion: name)
                    let own = try await core.applyEdits(service: service, layer: 0, VersioningTests.update(Int64(crew), [("notes", .string("crew \(crew)"))]), options: options, as: .anonymous)
                    let shared = try await core.applyEdits(service: service, layer: 0, VersioningTests.update(20, [("notes", .string("shared by \(crew)"))]), options: options, as: .anonymous)
                    precondition(own.succeeded && shared.succeeded)
                    var sawConflict = false
                    for _ in 0..<50 {
                        do {
                            let result = try await core.reconcile(service: service, version: name, withPost: true, as: .anonymous)
                            sawConflict = sawConflict || result.hasConflicts
                            if result.didPost { return (crew, sawConflict) }
                        } catch let error as ServiceError where error.message.contains("reconcile") {
                            continue
                        }
                    }
                    Issue.record("crew \(crew) never posted")
                    return (crew, sawConflict)
                }
            }
            var all: [(Int, Bool)] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.count == 8)
        #expect(outcomes.filter(\.1).count == 7)
        for crew in 1...8 {
            #expect(try await VersioningTests.value(core, Int64(crew), "notes") == .string("crew \(crew)"))
        }
        #expect(try await VersioningTests.value(core, 20, "notes")?.string?.hasPrefix("shared by ") == true)
    }
}
