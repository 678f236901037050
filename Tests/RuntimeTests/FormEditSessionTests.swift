import FeatureServiceModel
import Foundation
import Runtime
import Testing

/// Form edit sessions (forms.md, "Runtime: form edit sessions") on the shipped samples' forms, in-process.
@Suite struct FormEditSessionTests {
    private func damage() async throws -> (ServiceGeodatabase, FeatureTable) {
        let geodatabase = try await Runtimes.geodatabase("DamageAssessment")
        await geodatabase.setDefaultVersionPolicy(.allow)
        return (geodatabase, try await geodatabase.table(layerID: 0))
    }

    @Test func stateFollowsEverySetValue() async throws {
        let (_, table) = try await damage()
        let session = try FormEditSession(feature: try await table.feature(objectId: 12), table: table)
        // Not assessed yet: the Damage group is hidden.
        #expect(await session.element("estloss")?.isVisible == false)
        #expect(await session.element("typdamage")?.isEditable == true)
        #expect(await session.element("incidentid")?.isCalculated == true)
        try await session.setValue(.string("Major"), for: "typdamage")
        let estloss = try #require(await session.element("estloss"))
        #expect(estloss.isVisible && estloss.isRequired && estloss.isEditable)
        #expect(estloss.validationErrors.map(\.identifier) == [RuntimeError.Identifier.formRequired])
        try await session.setValue(.string("Minor"), for: "typdamage")
        #expect(await session.element("estloss")?.isRequired == false)
        #expect(await session.element("estloss")?.validationErrors.isEmpty == true)
    }

    @Test func refusalsCarryTheFormsIdentifiers() async throws {
        let (_, table) = try await damage()
        let session = try FormEditSession(feature: try await table.feature(objectId: 12), table: table)
        await #expect(throws: RuntimeError.self) { try await session.setValue(.string("x"), for: "notes") }   // hidden
        do {
            try await session.setValue(.string("NAP-1"), for: "incidentid")
            Issue.record("a calculated field was set")
        } catch let error as RuntimeError {
            #expect(error.identifier == RuntimeError.Identifier.fieldNotEditable)
        }
        do {
            try await session.setValue(.string("x"), for: "nosuchfield")
            Issue.record("an unknown field was set")
        } catch let error as RuntimeError {
            #expect(error.identifier == RuntimeError.Identifier.unknownField)
        }
        try await session.setValue(.string("Destroyed"), for: "typdamage")
        do {
            try await session.finish()
            Issue.record("a required field without a value was saved")
        } catch let error as RuntimeError {
            #expect(error.matches(RuntimeError.Identifier.formRequired))
        }
        // Nothing was written.
        #expect(try await table.feature(objectId: 12)["typdamage"] == .string("Default"))
        // An invalid code keeps its problem (11007) and is answered.
        let problem = try await session.setValue(.string("Catastrophic"), for: "typdamage")
        #expect(problem?.identifier == "11007")
    }

    @Test func finishWritesCalculatedValuesAndClearsHiddenOnes() async throws {
        let (_, table) = try await damage()
        let session = try FormEditSession(feature: try await table.feature(objectId: 12), table: table)
        try await session.setValue(.string("Destroyed"), for: "typdamage")
        try await session.setValue(.double(250_000), for: "estloss")
        try await session.setValue(.string("2026-05-01T10:00:00Z"), for: "inspdate")
        #expect(await session.element("incidentid")?.value == .string("NAP-SVR-2026-05-01"))
        let saved = try await session.finish()
        #expect(saved["incidentid"] == .string("NAP-SVR-2026-05-01"))
        #expect(saved["estloss"]?.double == 250_000)

        let minor = try await table.feature(objectId: 1)
        #expect(minor["notes"] != .null && minor["estloss"] != .null)
        let hide = try FormEditSession(feature: minor, table: table)
        try await hide.setValue(.string("Inaccessible"), for: "typdamage")
        let cleared = try await hide.finish()
        #expect(cleared["notes"] == .null && cleared["estloss"] == .null && cleared["primcause"] == .null)
    }

    /// FeatureSet functions in value expressions read the session's own geodatabase, local edits included: a
    /// boundary corrected locally (not applied) is what the new tree's calculation sees.
    @Test func calculationsSeeLocalEdits() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let neighborhoods = try await geodatabase.table(layerID: 1)
        let trees = try await geodatabase.table(layerID: 0)
        let outside = try await geodatabase.addFeatureThroughForm(to: trees, at: .point(Point(x: -122.70, y: 45.55)),
                                                                  spatialReference: SpatialReference(wkid: 4326))
        #expect(await outside.element("Neighborhood")?.value == .null, "no neighborhood contains the point yet")
        var kerns = try await neighborhoods.feature(objectId: 1)
        kerns.attributes = Attributes()
        kerns.geometry = .polygon([[Point(x: -122.71, y: 45.54), Point(x: -122.69, y: 45.54), Point(x: -122.69, y: 45.56),
                                     Point(x: -122.71, y: 45.56), Point(x: -122.71, y: 45.54)]])
        kerns.spatialReference = SpatialReference(wkid: 4326)
        try await neighborhoods.update(kerns)
        let flow = try await geodatabase.addFeatureThroughForm(to: trees, at: .point(Point(x: -122.70, y: 45.55)),
                                                               spatialReference: SpatialReference(wkid: 4326))
        #expect(await flow.element("Neighborhood")?.value == .string("Kerns"))
        try await flow.setValue(.string("4 Form St"), for: "Address")
        let added = try await flow.finish()
        #expect(added["Neighborhood"] == .string("Kerns"))
    }

    @Test func aLayerWithoutAFormIsRefused() async throws {
        let geodatabase = try await Runtimes.geodatabase("TreesOfPortland")
        let inspections = try await geodatabase.table(layerID: 3)
        #expect(!inspections.hasForm)
        #expect(throws: RuntimeError.self) { try FormEditSession(feature: TableFeature(tableID: 3, objectId: nil, attributes: Attributes()), table: inspections) }
    }
}
