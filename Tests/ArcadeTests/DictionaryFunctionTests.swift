import Foundation
import Testing
import Arcade

/// The examples of https://developers.arcgis.com/arcade/function-reference/dictionary_functions/ and
/// https://developers.arcgis.com/arcade/function-reference/data_functions/ (Dictionary, FromJSON, HasKey, Feature,
/// Domain, DomainName, DomainCode, Expects, Schema).
@Suite struct DictionaryFunctionReferenceExamples {
    @Test func dictionaryFromPairsAndJSON() throws {
        guard case .dictionary(let d) = try callData("Dictionary", DV.t("field1"), DV.n(1), DV.t("field2"), DV.n(2)) else {
            Issue.record(); return
        }
        #expect(d["field1"]!.numberValue + d["field2"]!.numberValue == 3) // "prints 3"
        let extraInfo = #"{"id": 1, "population": 200, "city": "Spencer, ID"}"#
        guard case .dictionary(let spencer) = try callData("Dictionary", DV.t(extraInfo)) else { Issue.record(); return }
        #expect(spencer["population"]?.dataNumber == 200)
        #expect(spencer["city"]?.textValue == "Spencer, ID")
    }

    @Test func fromJSON() throws {
        #expect(try callData("FromJSON", DV.t("true")).dataJSON == "true")
        #expect(try callData("FromJSON", DV.t("731.1")).dataNumber == 731.1)
        guard case .dictionary(let family) = try callData("FromJSON", DV.t(#"{"kids": 3, "adults": 4 }"#)) else { Issue.record(); return }
        #expect(family["kids"]!.numberValue + family["adults"]!.numberValue == 7)
        #expect(try callData("FromJSON", DV.t(#"["one", 2, "three", false]"#)).dataJSON == #"["one",2,"three",false]"#)
        #expect(try callData("FromJSON", DV.t("null")).isNull)
    }

    @Test func hasKey() throws {
        let d = try callData("Dictionary", DV.t("Port Hope"), DV.n(16214), DV.t("Grafton"), DV.t("<1000"), DV.t("Cobourg"), DV.n(18519))
        #expect(try callData("HasKey", d, DV.t("Cobourg")).dataJSON == "true")
        #expect(try callData("HasKey", d, DV.t("Toronto")).dataJSON == "false")
    }

    @Test func featureConstructors() throws {
        let point = try callData("Point", DV.d(("x", DV.n(10)), ("y", DV.n(20)), ("spatialReference", DV.d(("wkid", DV.n(102100))))))
        guard case .feature(let spokane) = try callData("Feature", point, DV.t("city_name"), DV.t("Spokane"),
                                                        DV.t("population"), DV.n(210721)) else { Issue.record(); return }
        #expect(spokane.attributes["population"]?.dataNumber == 210721)
        guard case .feature(let ftr1) = try callData("Feature", point, DV.d(("hello", DV.n(10)))) else { Issue.record(); return }
        guard case .feature(let ftr2) = try callData("Feature", .feature(ftr1)) else { Issue.record(); return }
        #expect(ftr2.attributes["hello"]?.dataNumber == 10)
        #expect(ftr2 !== ftr1)
        let json = "{'geometry':{'x':10,'y':20,'spatialReference':{'wkid':102100}},'attributes':{'hello':10}}"
        guard case .feature(let fromText) = try callData("Feature", DV.t(json)) else { Issue.record(); return }
        #expect(fromText.attributes["hello"]?.dataNumber == 10)
        #expect(ArcadeValue.geometry(fromText.geometry!).dataJSON == #"{"x":10,"y":20,"spatialReference":{"wkid":102100}}"#)
    }

    static func pole() -> ArcadeValue {
        let codes: [(code: ArcadeValue, name: String)] = [(DV.n(0), "Unknown"), (DV.n(1), "Wood"), (DV.n(2), "Steel")]
        let schema = ArcadeLayerSchema(fields: [
            .init(name: "OBJECTID", type: "esriFieldTypeOID"),
            .init(name: "poleType", type: "esriFieldTypeInteger", alias: "Pole type", codedValues: codes),
            .init(name: "Enabled", type: "esriFieldTypeSmallInteger", codedValues: [(DV.n(1), "True"), (DV.n(0), "False")]),
        ], objectIdField: "OBJECTID", geometryType: "esriGeometryPoint")
        return .feature(ArcadeFeature(attributes: ArcadeDictionary([("OBJECTID", DV.n(7)), ("poleType", DV.n(1)), ("Enabled", DV.n(1))]),
                                      schema: schema))
    }

    @Test func domainOfAField() throws {
        #expect(try callData("Domain", Self.pole(), DV.t("poleType")).dataJSON
            == #"{"type":"codedValue","name":"poleType","dataType":"esriFieldTypeInteger","codedValues":[{"name":"Unknown","code":0},{"name":"Wood","code":1},{"name":"Steel","code":2}]}"#)
        #expect(try callData("Domain", Self.pole(), DV.t("OBJECTID")).isNull)
    }

    @Test func domainNameAndCode() throws {
        #expect(try callData("DomainName", Self.pole(), DV.t("poleType")).dataJSON == "\"Wood\"")
        #expect(try callData("DomainName", Self.pole(), DV.t("poleType"), DV.n(2)).dataJSON == "\"Steel\"")
        #expect(try callData("DomainCode", Self.pole(), DV.t("Enabled"), DV.t("True")).dataNumber == 1)
        #expect(try callData("DomainCode", Self.pole(), DV.t("poleType"), DV.t("Concrete")).isNull)
        #expect(throws: ArcadeFunctionError.self) { try callData("DomainName", Self.pole(), DV.t("nope")) }
    }

    @Test func expectsHasNoEffect() throws {
        #expect(try callData("Expects", Self.pole(), DV.t("POP_2020"), DV.t("POP_2010")).isNull)
        #expect(try callData("Expects", Self.pole(), DV.t("*")).isNull)
    }

    @Test func schemaOfAFeature() throws {
        guard case .dictionary(let schema) = try callData("Schema", Self.pole()) else { Issue.record(); return }
        #expect(schema["objectIdField"]?.textValue == "OBJECTID")
        #expect(schema["geometryType"]?.textValue == "esriGeometryPoint")
        guard case .array(let fields)? = schema["fields"], case .dictionary(let second) = fields.values[1] else { Issue.record(); return }
        #expect(second["alias"]?.textValue == "Pole type")
        #expect(second["type"]?.textValue == "esriFieldTypeInteger")
    }
}

@Suite struct DictionaryFunctionDecisions {
    @Test func keysAndHasValue() throws {
        let d = DV.d(("a", DV.n(1)), ("B", .null), ("c", DV.d(("list", DV.numbers(5, 6)))))
        #expect(try callData("Keys", d).dataJSON == #"["a","B","c"]"#)
        #expect(try callData("HasValue", d, DV.t("a")).dataJSON == "true")
        #expect(try callData("HasValue", d, DV.t("b")).dataJSON == "false") // present but null
        #expect(try callData("HasValue", d, DV.t("z")).dataJSON == "false")
        #expect(try callData("HasValue", d, DV.a(DV.t("c"), DV.t("list"), DV.n(1))).dataJSON == "true")
        #expect(try callData("HasValue", d, DV.a(DV.t("c"), DV.t("list"), DV.n(2))).dataJSON == "false")
        #expect(try callData("HasValue", DV.n(3), DV.t("a")).dataJSON == "false")
    }

    @Test func emptyAndCopiedDictionaries() throws {
        #expect(try callData("Dictionary").dataJSON == "{}")
        let inner = DV.d(("x", DV.n(1)))
        let original = DV.d(("inner", inner))
        let deep = try callData("Dictionary", original, DV.b(true))
        guard case .dictionary(let innerDictionary) = inner else { return }
        innerDictionary["x"] = DV.n(2)
        #expect(deep.dataJSON == #"{"inner":{"x":1}}"#)
    }

    @Test func badJSONIsARunErrorNeverACrash() {
        for bad in ["{", "[1,", "{\"a\" 1}", "tru", "'single'", "1 2", "\"\\u12\"", String(repeating: "[", count: 100_000)] {
            #expect(throws: ArcadeFunctionError.self, "\(bad.prefix(20))") { try callData("FromJSON", DV.t(bad)) }
        }
        #expect(throws: ArcadeFunctionError.self) { try callData("Dictionary", DV.t("[1, 2]")) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Dictionary", DV.t("a"), DV.n(1), DV.t("b")) }
    }

    @Test func jsonEscapes() throws {
        #expect(try callData("FromJSON", DV.t(#""a\n\u00e9\ud83c\udf09""#)).textValue == "a\né🌉")
    }
}
