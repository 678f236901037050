import Foundation
import Testing
import Arcade

/// The array and dictionary examples of https://developers.arcgis.com/arcade/function-reference/array_functions/
/// and https://developers.arcgis.com/arcade/function-reference/dictionary_functions/ (as read in
/// https://developers.arcgis.com/arcade/function-reference/data_functions/), written as on the pages and evaluated
/// as whole expressions.
@Suite struct ArrayExpressionTests {
    static func json(_ source: String) throws -> String { try ArcadeEvaluator.evaluate(source).dataJSON }

    static let isEven = "function isEven(value) { return value % 2 == 0 }\n"

    @Test(arguments: [
        (isEven + "Any([1,2,3,4,5], isEven)", "true"),
        (isEven + "All([1,2,3,4,5], isEven)", "false"),
        (isEven + "None([1,2,3,4,5], isEven)", "false"),
        ("function isEven(i) { return i % 2 == 0 }\nFilter([1,2,3,4,5], isEven)", "[2,4]"),
        ("Array(5)", "[null,null,null,null,null]"),
        ("Array(3, 1)", "[1,1,1]"),
        ("var colors = ['orange', 'purple', 'gray']\nBack(colors)", "\"gray\""),
        ("Count([12,21,32,44,58,63])", "6"),
        ("Count('Graham County')", "13"),
        ("Distinct([1,1,2,1,1,2,2,3,4,5])", "[1,2,3,4,5]"),
        ("Distinct('high','medium','low',0,'high','high','low')", #"["high","medium","low",0]"#),
        ("var colors = ['orange', 'purple', 'gray']\nErase(colors, 1)\ncolors", #"["orange","gray"]"#),
        ("var colors = ['orange', 'purple', 'gray']\nErase(colors, -1)\ncolors", #"["orange","purple"]"#),
        ("First(['orange', 'purple', 'gray'])", "\"orange\""),
        ("Includes(['orange', 'purple', 'gray'], 'purple')", "true"),
        ("Includes(['orange', 'purple', 'gray'], 'red')", "false"),
        ("var num = [1,2,3,4];\nreturn indexof(num, 3);", "2"),
        ("var colors = ['orange', 'purple', 'gray']\nInsert(colors, 1, 'yellow')\ncolors", #"["orange","yellow","purple","gray"]"#),
        ("var colors = ['orange', 'purple', 'gray']\nInsert(colors, -1, 'yellow')\ncolors", #"["orange","purple","yellow","gray"]"#),
        ("Pop(['orange', 'purple', 'gray'])", "\"gray\""),
        ("Push(['orange', 'purple', 'gray'], 'red')", "4"),
        ("var colors = ['orange', 'purple', 'gray']\nResize(colors, 5)\nreturn colors", #"["orange","purple","gray",null,null]"#),
        ("var colors = ['orange', 'purple', 'gray']\nResize(colors, 5, 'red')\nreturn colors", #"["orange","purple","gray","red","red"]"#),
        ("var colors = ['orange', 'purple', 'gray']\nResize(colors, 1)\nreturn colors", #"["orange"]"#),
        ("Reverse(['orange', 'purple', 'gray'])", #"["gray","purple","orange"]"#),
        ("Slice(['orange', 'purple', 'gray', 'red', 'blue'], 1, 3)", #"["purple","gray"]"#),
        ("Slice(['orange', 'purple', 'gray', 'red', 'blue'], 3)", #"["red","blue"]"#),
        ("Slice(['orange', 'purple', 'gray', 'red', 'blue'])", #"["orange","purple","gray","red","blue"]"#),
        ("Slice(['orange', 'purple', 'gray', 'red', 'blue'], -1)", #"["blue"]"#),
        ("Sort([1, 'a', '$', 'A'])", #"["$",1,"A","a"]"#),
        ("Splice(['orange', 'purple'], 1, 2, 'red')", #"["orange","purple",1,2,"red"]"#),
        ("Splice([1,2], [3,4])", "[1,2,3,4]"),
        ("Top([ 43,32,19,0,3,55 ], 3)", "[43,32,19]"),
    ])
    func arrayExamples(source: String, expected: String) throws {
        #expect(try Self.json(source) == expected, "\(source)")
    }

    /// The page's toCelsius has one closing brace too many; here it is as the page means it.
    @Test func mapExamples() throws {
        let celsius = """
        function toCelsius(f) {
          return Round((f - 32) * 5/9, 2)
        }
        Map([82, 67, 96, 55, 34], toCelsius)
        """
        #expect(try Self.json(celsius) == "[27.78,19.44,35.56,12.78,1.11]")
        let dates = """
        var dates = [ Date(1996, 11, 10), Date(1995, 1, 6), Date(1992, 2, 27), Date(1990, 10, 2)];
        function formatDates(dateVal) { return Text(dateVal, 'MMM D, Y') }
        Map(dates, formatDates);
        """
        #expect(try Self.json(dates) == #"["Dec 10, 1996","Feb 6, 1995","Mar 27, 1992","Nov 2, 1990"]"#)
    }

    @Test func reduceExamples() throws {
        let cities = """
        var cities = [{ name: 'Columbus', pop: 913921 }, { name: 'Cincinnati', pop: 307266 },
                      { name: 'Dayton', pop: 140343 }, { name: 'Cleveland', pop: 376599 }];
        function mostPopulated(city1, city2) {
           iif (city1.pop > city2.pop, city1, city2)
        }
        """
        let withInitial = "var los_angeles = { name: 'Los Angeles', pop: 3898747 }\n"
            + "var largestCity = Reduce(cities, mostPopulated, los_angeles)\nlargestCity.name"
        // As on the page, mostPopulated has no `return`: a user function answers its last statement's value.
        let largest = try Self.json(cities + "var largestCity = Reduce(cities, mostPopulated)\nlargestCity.name")
        let withLosAngeles = try Self.json(cities + withInitial)
        #expect(largest == "\"Columbus\"")
        #expect(withLosAngeles == "\"Los Angeles\"")
        let returning = cities.replacingOccurrences(of: "   iif (", with: "   return iif (")
        #expect(try Self.json(returning + "var largestCity = Reduce(cities, mostPopulated)\nlargestCity.name") == "\"Columbus\"")
        #expect(try Self.json(returning + withInitial) == "\"Los Angeles\"")
    }

    @Test func sortWithAUserFunction() throws {
        let source = """
        var peopleArray = [{ 'NAME': 'Sam', 'AGE': 25 }, {'NAME': 'Bob', 'AGE': 27 },{ 'NAME': 'Emma', 'AGE': 24 }];
        function compareAge(a,b){
          if (a['AGE']<b['AGE'])
            return -1;
          if (a['AGE']>b['AGE'])
            return 1;
          return 0;
        }
        return Sort(peopleArray, compareAge);
        """
        #expect(try Self.json(source) == #"[{"NAME":"Emma","AGE":24},{"NAME":"Sam","AGE":25},{"NAME":"Bob","AGE":27}]"#)
    }

    @Test(arguments: [
        ("var d = Dictionary('field1', 1, 'field2', 2)\nreturn d.field1 + d.field2", "3"),
        ("var extraInfo = '{\"id\": 1, \"population\": 200, \"city\": \"Spencer, ID\"}'\nvar spencerIDdata = Dictionary(extraInfo)\nspencerIDdata.population", "200"),
        ("FromJSON(\"true\")", "true"),
        ("fromJSON(\"731.1\")", "731.1"),
        ("var d = fromJSON('{\"kids\": 3, \"adults\": 4 }')\nd.kids + d.adults", "7"),
        ("fromJSON('[\"one\", 2, \"three\", false]')", #"["one",2,"three",false]"#),
        ("fromJSON(\"null\")", "null"),
        ("var d = Dictionary('Port Hope', 16214,  'Grafton', '<1000', 'Cobourg', 18519);\nHasKey(d, 'Cobourg');", "true"),
        ("var dict = { hello:10 }\nvar p = point({x:10, y:20, spatialReference:{wkid:102100}})\nvar ftr1 = Feature(p,dict)\nvar ftr2 = Feature(ftr1)\nftr2.hello", "10"),
        ("var JSONString = \"{'geometry':{'x':10,'y':20,'spatialReference':{'wkid':102100}},'attributes':{'hello':10}}\"\nTypeOf(Feature(JSONString))", "\"Feature\""),
        ("Keys({ b: 1, a: 2 })", #"["b","a"]"#),
    ])
    func dictionaryExamples(source: String, expected: String) throws {
        #expect(try Self.json(source) == expected, "\(source)")
    }

    @Test(arguments: [
        ("var extentJSON = {\n  \"xmin\": -109.55, \"ymin\": 25.76, \"xmax\": -86.39, \"ymax\": 49.94,\n  \"spatialReference\": { \"wkid\": 3857 }\n};\nExtent(extentJSON);",
         #"{"xmin":-109.55,"ymin":25.76,"xmax":-86.39,"ymax":49.94,"spatialReference":{"wkid":3857}}"#),
        ("var pointJSON = {\"x\": -118.15, \"y\": 33.80, \"spatialReference\": { \"wkid\": 4326 } };\nGeometry(pointJSON);",
         #"{"x":-118.15,"y":33.8,"spatialReference":{"wkid":4326}}"#),
        ("var square = Polygon({rings: [[[0,0],[0,10],[10,10],[10,0],[0,0]]], spatialReference: {wkid: 3857}})\nreturn [Contains(square, Point({x: 5, y: 5})), Area(square, 'square-meters'), Length(square)]",
         "[true,100,40]"),
    ])
    func geometryExamples(source: String, expected: String) throws {
        // https://developers.arcgis.com/arcade/function-reference/geometry_functions/ (Extent, Geometry)
        #expect(try Self.json(source) == expected, "\(source)")
    }

    @Test func hostileSizesAreRunErrorsWithAPosition() {
        for source in ["Array(1e300)", "var a = []\nResize(a, 1e300)", "Back([])", "FromJSON('{')"] {
            #expect(throws: ArcadeError.self, "\(source)") { try ArcadeEvaluator.evaluate(source) }
        }
    }
}
