import Foundation
import Testing
import Arcade

/// `FeatureSet(definition)` (https://developers.arcgis.com/arcade/function-reference/featureset_functions/#featureset,
/// formerly in data_functions): a FeatureSet from JSON, queried in memory by MapRules' own SQL.
@Suite struct FeatureSetJSONTests {
    /// The reference's example, as written there.
    static let referenceExample = """
    var features = FeatureSet('{"fields":[{"alias":"RANK","name":"RANK","type":"esriFieldTypeInteger"},{"alias":"ELEV_m","name":"ELEV_m","type":"esriFieldTypeInteger"}],"spatialReference":{"wkid":4326},"geometryType":"esriGeometryPoint","features":[{"geometry":{"spatialReference":{"wkid":4326},"x":-151.0063,"y":63.069},"attributes":{"RANK":1,"ELEV_m":6168}}]}')
    """

    static let trees = """
    var trees = FeatureSet({
      fields: [{ name: 'OBJECTID', type: 'esriFieldTypeOID' }, { name: 'TYPE', type: 'esriFieldTypeString' },
               { name: 'DBH', type: 'esriFieldTypeDouble' }, { name: 'PLANTED', type: 'esriFieldTypeDate' },
               { name: 'HEALTH', type: 'esriFieldTypeSmallInteger',
                 domain: { type: 'codedValue', codedValues: [{ name: 'Good', code: 1 }, { name: 'Poor', code: 2 }] } }],
      spatialReference: { wkid: 3857 },
      geometryType: 'esriGeometryPoint',
      features: [
        { attributes: { OBJECTID: 1, TYPE: 'Oak', DBH: 30, PLANTED: 946684800000, HEALTH: 1 }, geometry: { x: 1, y: 1 } },
        { attributes: { OBJECTID: 2, TYPE: 'Maple', DBH: 12, PLANTED: 1262304000000, HEALTH: 2 }, geometry: { x: 50, y: 50 } },
        { attributes: { OBJECTID: 3, TYPE: "O'Hara Pine", DBH: null, PLANTED: null, HEALTH: 1 }, geometry: { x: 2, y: 3 } },
        { attributes: { OBJECTID: 4, TYPE: 'Oak', DBH: 22, PLANTED: 1577836800000, HEALTH: 2 }, geometry: { x: 9, y: 9 } }
      ]
    });

    """

    static func json(_ source: String) throws -> String { try ArcadeEvaluator.evaluate(source).dataJSON }

    @Test func referenceExample() throws {
        #expect(try Self.json(Self.referenceExample + "\nCount(features)") == "1")
        #expect(try Self.json(Self.referenceExample + "\nvar f = First(features)\nreturn [f.RANK, f.ELEV_m, Geometry(f).x]")
            == "[1,6168,-151.0063]")
    }

    @Test(arguments: [
        ("Count(Filter(trees, \"TYPE = 'Oak'\"))", "2"),
        ("Count(Filter(trees, \"TYPE = 'Oak' AND DBH > 25\"))", "1"),
        ("Count(Filter(trees, 'DBH > 25 OR HEALTH = 2'))", "3"),
        ("Count(Filter(trees, 'DBH IS NULL'))", "1"),
        ("Count(Filter(trees, 'NOT DBH > 20'))", "1"), // null is unknown, not false
        ("Count(Filter(trees, \"TYPE IN ('Oak', 'Maple')\"))", "3"),
        ("Count(Filter(trees, \"TYPE LIKE 'O%'\"))", "3"),
        ("Count(Filter(trees, \"TYPE NOT LIKE '%k'\"))", "2"),
        ("Count(Filter(trees, \"TYPE LIKE 'O_k'\"))", "2"),
        ("Count(Filter(trees, \"TYPE LIKE '%a%e'\"))", "2"),
        ("Count(Filter(trees, \"TYPE LIKE 'Oak'\"))", "2"),
        ("Count(Filter(trees, 'DBH BETWEEN 12 AND 22'))", "2"),
        ("Count(Filter(trees, \"PLANTED >= timestamp '2010-01-01 00:00:00'\"))", "2"),
        ("var kind = \"O'Hara Pine\"\nFirst(Filter(trees, 'TYPE = @kind')).OBJECTID", "3"),
        ("var ids = [1, 4]\nCount(Filter(trees, 'OBJECTID IN @ids'))", "2"),
        ("var since = Date(2005, 0, 1)\nCount(Filter(trees, 'PLANTED > @since'))", "2"),
        ("var names = []\nfor (var t in OrderBy(trees, 'DBH DESC')) { Push(names, t.OBJECTID) }\nnames", "[1,4,2,3]"),
        ("var names = []\nfor (var t in Top(OrderBy(trees, 'TYPE ASC, OBJECTID DESC'), 3)) { Push(names, t.OBJECTID) }\nnames", "[2,3,4]"), // "O'H" < "Oa"
        ("Sum(trees, 'DBH')", "64"),
        ("Average(Filter(trees, \"TYPE = 'Oak'\"), 'DBH * 2')", "52"),
        ("Count(Intersects(trees, Extent({xmin: 0, ymin: 0, xmax: 10, ymax: 10})))", "3"),
        ("Count(Contains(Polygon({rings: [[[0,0],[0,10],[10,10],[10,0],[0,0]]]}), trees))", "3"),
        ("First(Within(Point({x: 2, y: 3}), trees)).OBJECTID", "3"),
        ("Count(EnvelopeIntersects(trees, Extent({xmin: 0, ymin: 0, xmax: 5, ymax: 5})))", "2"),
        ("Count(Filter(Contains(Extent({xmin: 0, ymin: 0, xmax: 10, ymax: 10}), trees), \"TYPE = 'Oak'\"))", "2"),
        ("DomainName(trees, 'HEALTH', 2)", "\"Poor\""),
        ("Schema(trees).objectIdField", "\"OBJECTID\""),
        ("TypeOf(First(trees).PLANTED)", "\"Date\""),
    ])
    func queries(source: String, expected: String) throws {
        #expect(try Self.json(Self.trees + source) == expected, "\(source)")
    }

    /// Distinct and GroupBy, after the reference's examples (Distinct($layer, 'Status'), GroupBy($layer, 'TreeType',
    /// { name: 'NumTrees', expression: '1', statistic: 'COUNT' }), ...), on the tree layer.
    @Test(arguments: [
        ("var d = Distinct(trees, 'TYPE')\nvar out = []\nfor (var f in d) { Push(out, f.TYPE) }\nout", #"["Oak","Maple","O'Hara Pine"]"#),
        ("Count(Distinct(trees, ['TYPE', 'HEALTH']))", "4"),
        ("var d = Distinct(trees, { name: 'Size', expression: 'DBH / 10' })\nvar out = []\nfor (var f in OrderBy(d, 'Size')) { Push(out, f.Size) }\nout",
         "[null,1.2,2.2,3]"),
        ("var stats = GroupBy(trees, 'TYPE', { name: 'NumTrees', expression: '1', statistic: 'COUNT' })\nFirst(Filter(stats, \"TYPE = 'Oak'\")).NumTrees", "2"),
        ("var stats = GroupBy(trees, [{ name: 'Kind', expression: 'TYPE' }], [{ name: 'Total', expression: '1', statistic: 'COUNT' }, { name: 'AvgDBH', expression: 'DBH', statistic: 'AVG' }, { name: 'MaxDBH', expression: 'DBH * 2', statistic: 'max' }, { name: 'Sd', expression: 'DBH', statistic: 'STDEV' }])\nvar oak = First(Filter(stats, \"Kind = 'Oak'\"))\nreturn [oak.Total, oak.AvgDBH, oak.MaxDBH, oak.Sd, Count(stats)]",
         "[2,26,60,4,3]"),
        ("var stats = GroupBy(trees, 'TYPE', { name: 'D', expression: 'DBH', statistic: 'SUM' })\nFirst(Filter(stats, \"TYPE LIKE 'O''H%'\")).D", "null"),
    ])
    func distinctAndGroupBy(source: String, expected: String) throws {
        #expect(try Self.json(Self.trees + source) == expected, "\(source)")
    }

    @Test func badDefinitionsAndClausesAreRunErrors() {
        for source in ["FeatureSet('{')", "FeatureSet('[1]')", "FeatureSet('{\"features\": []}')",
                       Self.trees + "Count(Filter(trees, 'DBH >'))", Self.trees + "Count(Filter(trees, 'NOPE = 1'))",
                       Self.trees + "Count(OrderBy(trees, 'DBH SIDEWAYS'))",
                       Self.trees + "GroupBy(trees, 'TYPE', { name: 'X', expression: '1', statistic: 'MEDIAN' })",
                       Self.trees + "Distinct(trees, 42)", Self.trees + "Distinct(trees, 'NOPE')",
                       Self.trees + "Count(Filter(trees, '" + String(repeating: "(", count: 5000) + "'))",
                       Self.trees + "Count(Filter(trees, 'DBH > 1" + String(repeating: " + 1", count: 100_000) + "'))",
                       Self.trees + "Count(Filter(trees, '" + String(repeating: "DBH > 1 AND ", count: 50_000) + "1 = 1'))"] {
            #expect(throws: ArcadeError.self, "\(source.suffix(60))") { try ArcadeEvaluator.evaluate(source) }
        }
    }
}
