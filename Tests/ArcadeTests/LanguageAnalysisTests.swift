import Arcade
import Testing

/// ArcadeAnalysis: calls, field reads, profile variables and FeatureSet names with their ranges.
@Suite struct LanguageAnalysisTests {
    func analysis(_ source: String) throws -> ArcadeAnalysis {
        try ArcadeAnalysis.analyze(source).get()
    }

    /// The text a range covers, in Unicode scalars.
    func slice(_ source: String, _ range: ArcadeSourceRange) -> String {
        let scalars = Array(source.unicodeScalars)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range.start..<range.end])
        return String(view)
    }

    @Test func callsWithTheirNames() throws {
        let source = "var x = iif(IsEmpty($feature.A), 1, 2)\nfunction mine(v) { return v }\nmine(Left('é', 1))"
        let result = try analysis(source)
        #expect(result.calls.map(\.name) == ["iif", "IsEmpty", "mine", "Left"])
        let left = result.calls[3]
        #expect(slice(source, left.nameRange) == "Left" && left.nameRange.line == 3 && left.nameRange.column == 6)
        #expect(slice(source, left.range) == "Left('é', 1)")
        #expect(result.calls[2].isDeclaredInExpression && !result.calls[0].isDeclaredInExpression)
        #expect(result.calls[0].argumentCount == 3)
    }

    @Test func fieldReadsWithTheNamesRange() throws {
        let source = #"$feature.Status + $FEATURE["Inspector"] + $feature['Ünit'] + $originalFeature.Old + $feature[x]"#
        let result = try analysis(source)
        #expect(result.fieldReads.map(\.name) == ["Status", "Inspector", "Ünit", "Old"])
        #expect(result.fieldReads.map { slice(source, $0.range) } == ["Status", #""Inspector""#, "'Ünit'", "Old"])
        #expect(result.fieldReads[3].profileVariable == "$originalFeature")
        let expects = try analysis("Expects($feature, 'A', \"B\", '*')\n$feature.C")
        #expect(expects.fieldReads.map(\.name) == ["A", "B", "C"])
        #expect(expects.fieldReads.map(\.isExpected) == [true, true, false])
    }

    @Test func namesDeclaredLaterStillCount() throws {
        let result = try analysis("helper(1)\nfunction helper(x) { return Expects(x) }\nfunction Expects(v) { return v }\nExpects($feature, 'A')")
        #expect(result.calls.map(\.isDeclaredInExpression) == [true, true, true])
        #expect(result.fieldReads.isEmpty)
    }

    @Test func profileVariables() throws {
        let source = "var f = $feature; $originalFeature.A; $editcontext.editType; FeatureSetByName($map, 'X'); $layer; $datastore"
        let result = try analysis(source)
        #expect(result.profileVariables.map(\.name) == ["$feature", "$originalFeature", "$editcontext", "$map", "$layer", "$datastore"])
        #expect(slice(source, result.profileVariables[3].range) == "$map")
    }

    @Test func literalLayerAndRelationshipNames() throws {
        let source = "var a = FeatureSetByName($map, \"Hydrants\", ['*'], false)\nvar b = FeatureSetByRelationshipName($feature, 'inspections')\nvar c = FeatureSetByName($map, 'Hy' + 'drants')\nvar d = FeatureSetByName($datastore, `Valves`)"
        let result = try analysis(source)
        #expect(result.layerNames.map(\.name) == ["Hydrants", "Valves"])
        #expect(slice(source, result.layerNames[0].range) == "\"Hydrants\"")
        #expect(result.layerNames[0].source == "$map" && result.layerNames[1].source == "$datastore")
        #expect(result.relationshipNames.map(\.name) == ["inspections"])
        #expect(result.relationshipNames[0].range.line == 2)
    }

    @Test func syntaxErrorsInsteadOfAnAnalysis() {
        guard case .failure(let errors) = ArcadeAnalysis.analyze("Left(") else { Issue.record("parsed"); return }
        #expect(errors.errors.first?.ruleId == "arcade/syntax")
    }

    @Test func catalogueKnowsEveryReferenceName() {
        #expect(ArcadeFunctionCatalog.isKnown("iif"))
        #expect(ArcadeFunctionCatalog.isKnown("FeatureSetByPortalItem"))
        #expect(ArcadeFunctionCatalog.isKnown("TrackSpeedWindow"))
        #expect(!ArcadeFunctionCatalog.isKnown("Lenght"))
        #expect(ArcadeFunctionCatalog.suggestion(for: "Lenght") == "Length")
        #expect(ArcadeFunctionCatalog.suggestion(for: "isempty2") == "IsEmpty")
        #expect(ArcadeFunctionCatalog.suggestion(for: "Zzzzzzzzzz") == nil)
        // Every function the library evaluates is a reference function.
        for name in ArcadeFunctionLibrary.all.values.map(\.name) {
            #expect(ArcadeFunctionCatalog.isKnown(name), "\(name) is not in the catalogue")
        }
    }

    @Test func catalogueLookupIgnoresCaseOnly() {
        for (_, names) in ArcadeFunctionCatalog.categories {
            for name in names {
                #expect(ArcadeFunctionCatalog.isKnown(name.uppercased()) && ArcadeFunctionCatalog.isKnown(name.lowercased()), "\(name)")
                // Near misses agree with the catalogue's table (`Atan` without its `2` is a name too).
                for variant in [name + "s", String(name.dropLast()), String(name.dropFirst()), "x" + name] {
                    #expect(ArcadeFunctionCatalog.isKnown(variant) == (ArcadeFunctionCatalog.referenceName(of: variant) != nil), "\(variant)")
                }
            }
        }
        for name in ["", "$feature", "İif", "Ⅰif", "iif\u{0}", "1Left", String(repeating: "a", count: 100_000), "ΙΙf", "Lefț"] {
            #expect(!ArcadeFunctionCatalog.isKnown(name), "\(name.prefix(10))")
        }
    }
}
