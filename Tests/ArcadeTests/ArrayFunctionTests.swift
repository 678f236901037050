import Foundation
import Testing
import Arcade

/// The examples of the array functions' reference pages:
/// https://developers.arcgis.com/arcade/function-reference/array_functions/ (formerly part of
/// https://developers.arcgis.com/arcade/function-reference/data_functions/, where these examples were read).
@Suite struct ArrayFunctionReferenceExamples {
    static func colors() -> ArcadeValue { DV.texts("orange", "purple", "gray") }

    @Test func anyAllNone() throws {
        #expect(try callData("Any", DV.numbers(1, 2, 3, 4, 5), DV.isEven).dataJSON == "true")
        #expect(try callData("All", DV.numbers(1, 2, 3, 4, 5), DV.isEven).dataJSON == "false")
        #expect(try callData("None", DV.numbers(1, 2, 3, 4, 5), DV.isEven).dataJSON == "false")
        let fields = DV.a(DV.t("a"), .null, DV.t(""), DV.n(4)) // [$feature.field1, ...]
        #expect(try callData("All", fields, DV.isEmpty).dataJSON == "false")
        #expect(try callData("Any", fields, DV.isEmpty).dataJSON == "true")
        #expect(try callData("None", fields, DV.isEmpty).dataJSON == "false")
    }

    @Test func arrayConstructor() throws {
        #expect(try callData("Array", DV.n(5)).dataJSON == "[null,null,null,null,null]")
        #expect(try callData("Array", DV.n(3), DV.n(1)).dataJSON == "[1,1,1]")
    }

    @Test func backFirstFront() throws {
        #expect(try callData("Back", Self.colors()).dataJSON == "\"gray\"")
        #expect(try callData("First", Self.colors()).dataJSON == "\"orange\"")
        #expect(try callData("Front", Self.colors()).dataJSON == "\"orange\"")
        #expect(try callData("First", DV.a()).isNull) // "Returns null if the array is empty."
        #expect(throws: ArcadeFunctionError.self) { try callData("Back", DV.a()) } // "will cause the script evaluation to fail"
    }

    @Test func count() throws {
        #expect(try callData("Count", DV.numbers(12, 21, 32, 44, 58, 63)).dataNumber == 6)
        #expect(try callData("Count", DV.t("Graham County")).dataNumber == 13)
        #expect(try callData("Count", DV.d(("a", DV.n(1)), ("b", DV.n(2)))).dataNumber == 2)
    }

    @Test func distinct() throws {
        #expect(try callData("Distinct", DV.numbers(1, 1, 2, 1, 1, 2, 2, 3, 4, 5)).dataJSON == "[1,2,3,4,5]")
        let values = [DV.t("high"), DV.t("medium"), DV.t("low"), DV.n(0), DV.t("high"), DV.t("high"), DV.t("low")]
        #expect(try callData("Distinct", arguments: values).dataJSON == #"["high","medium","low",0]"#)
    }

    @Test func eraseAndInsert() throws {
        var colors = Self.colors()
        #expect(try callData("Erase", colors, DV.n(1)).isNull)
        #expect(colors.dataJSON == #"["orange","gray"]"#)
        colors = Self.colors()
        _ = try callData("Erase", colors, DV.n(-1))
        #expect(colors.dataJSON == #"["orange","purple"]"#)
        colors = Self.colors()
        _ = try callData("Insert", colors, DV.n(1), DV.t("yellow"))
        #expect(colors.dataJSON == #"["orange","yellow","purple","gray"]"#)
        colors = Self.colors()
        _ = try callData("Insert", colors, DV.n(-1), DV.t("yellow"))
        #expect(colors.dataJSON == #"["orange","purple","yellow","gray"]"#)
        // "An index greater than the size of the array will cause an error."
        #expect(throws: ArcadeFunctionError.self) { try callData("Insert", Self.colors(), DV.n(4), DV.t("x")) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Erase", Self.colors(), DV.n(3)) }
    }

    @Test func filterAndMap() throws {
        #expect(try callData("Filter", DV.numbers(1, 2, 3, 4, 5), DV.isEven).dataJSON == "[2,4]")
        let notEmpty = DV.function("isNotEmpty") { .boolean(!(try DV.isEmptyResult($0[0]))) }
        #expect(try callData("Filter", DV.a(DV.t("a"), .null, DV.t(""), DV.n(4)), notEmpty).dataJSON == #"["a",4]"#)
        let toCelsius = DV.function("toCelsius") { arguments in
            try callData("Round", DV.n((arguments[0].numberValue - 32) * 5 / 9), DV.n(2))
        }
        #expect(try callData("Map", DV.numbers(82, 67, 96, 55, 34), toCelsius).dataJSON == "[27.78,19.44,35.56,12.78,1.11]")
    }

    @Test func includesAndIndexOf() throws {
        #expect(try callData("Includes", Self.colors(), DV.t("purple")).dataJSON == "true")
        #expect(try callData("Includes", Self.colors(), DV.t("red")).dataJSON == "false")
        #expect(try callData("IndexOf", DV.numbers(1, 2, 3, 4), DV.n(3)).dataNumber == 2)
        #expect(try callData("IndexOf", DV.numbers(1, 2, 3, 4), DV.t("3")).dataNumber == -1) // no conversion, as ==
    }

    @Test func popAndPush() throws {
        let popped = Self.colors()
        #expect(try callData("Pop", popped).dataJSON == "\"gray\"")
        #expect(popped.dataJSON == #"["orange","purple"]"#)
        let pushed = Self.colors()
        #expect(try callData("Push", pushed, DV.t("red")).dataNumber == 4)
        #expect(pushed.dataJSON == #"["orange","purple","gray","red"]"#)
        #expect(throws: ArcadeFunctionError.self) { try callData("Pop", DV.a()) }
    }

    @Test func reduce() throws {
        func city(_ name: String, _ pop: Double) -> ArcadeValue { DV.d(("name", DV.t(name)), ("pop", DV.n(pop))) }
        let cities = DV.a(city("Columbus", 913921), city("Cincinnati", 307266), city("Dayton", 140343), city("Cleveland", 376599))
        let mostPopulated = DV.function("mostPopulated") { arguments in
            guard case .dictionary(let a) = arguments[0], case .dictionary(let b) = arguments[1] else { return .null }
            return a["pop"]!.numberValue > b["pop"]!.numberValue ? arguments[0] : arguments[1]
        }
        guard case .dictionary(let largest) = try callData("Reduce", cities, mostPopulated) else { Issue.record(); return }
        #expect(largest["name"]?.textValue == "Columbus")
        guard case .dictionary(let withInitial) = try callData("Reduce", cities, mostPopulated, city("Los Angeles", 3898747)) else {
            Issue.record(); return
        }
        #expect(withInitial["name"]?.textValue == "Los Angeles")
    }

    @Test func resize() throws {
        var colors = Self.colors()
        _ = try callData("Resize", colors, DV.n(5))
        #expect(colors.dataJSON == #"["orange","purple","gray",null,null]"#)
        colors = Self.colors()
        _ = try callData("Resize", colors, DV.n(5), DV.t("red"))
        #expect(colors.dataJSON == #"["orange","purple","gray","red","red"]"#)
        colors = Self.colors()
        _ = try callData("Resize", colors, DV.n(1))
        #expect(colors.dataJSON == #"["orange"]"#)
    }

    @Test func reverseSliceSplice() throws {
        #expect(try callData("Reverse", Self.colors()).dataJSON == #"["gray","purple","orange"]"#)
        let five = DV.texts("orange", "purple", "gray", "red", "blue")
        #expect(try callData("Slice", five, DV.n(1), DV.n(3)).dataJSON == #"["purple","gray"]"#)
        #expect(try callData("Slice", five, DV.n(3)).dataJSON == #"["red","blue"]"#)
        #expect(try callData("Slice", five).dataJSON == #"["orange","purple","gray","red","blue"]"#)
        #expect(try callData("Slice", five, DV.n(-1)).dataJSON == #"["blue"]"#)
        #expect(try callData("Splice", DV.texts("orange", "purple"), DV.n(1), DV.n(2), DV.t("red")).dataJSON
            == #"["orange","purple",1,2,"red"]"#)
        #expect(try callData("Splice", DV.numbers(1, 2), DV.numbers(3, 4)).dataJSON == "[1,2,3,4]")
    }

    @Test func sort() throws {
        #expect(try callData("Sort", DV.a(DV.n(1), DV.t("a"), DV.t("$"), DV.t("A"))).dataJSON == #"["$",1,"A","a"]"#)
        func person(_ name: String, _ age: Double) -> ArcadeValue { DV.d(("NAME", DV.t(name)), ("AGE", DV.n(age))) }
        let people = DV.a(person("Sam", 25), person("Bob", 27), person("Emma", 24))
        let compareAge = DV.function("compareAge") { arguments in
            guard case .dictionary(let a) = arguments[0], case .dictionary(let b) = arguments[1] else { return .null }
            let x = a["AGE"]!.numberValue, y = b["AGE"]!.numberValue
            return DV.n(x < y ? -1 : (x > y ? 1 : 0))
        }
        #expect(try callData("Sort", people, compareAge).dataJSON
            == #"[{"NAME":"Emma","AGE":24},{"NAME":"Sam","AGE":25},{"NAME":"Bob","AGE":27}]"#)
    }

    @Test func top() throws {
        #expect(try callData("Top", DV.numbers(43, 32, 19, 0, 3, 55), DV.n(3)).dataJSON == "[43,32,19]")
        #expect(try callData("Top", DV.numbers(43, 32), DV.n(3)).dataJSON == "[43,32]")
    }
}

extension DV {
    static func isEmptyResult(_ value: ArcadeValue) throws -> Bool {
        guard case .boolean(let empty) = try (DV.isEmptyFunction)([value]) else { return false }
        return empty
    }
    static let isEmptyFunction: ([ArcadeValue]) throws -> ArcadeValue = { arguments in
        if arguments[0].isNull { return .boolean(true) }
        if case .text(let t) = arguments[0] { return .boolean(t.isEmpty) }
        return .boolean(false)
    }
}

/// What the pages leave open, decided in docs/arcade.md ("Arrays"), and hostile sizes.
@Suite struct ArrayFunctionDecisions {
    @Test func sortWithoutFunctionByType() throws {
        #expect(try callData("Sort", DV.numbers(10, 9, 100, -1)).dataJSON == "[-1,9,10,100]")
        #expect(try callData("Sort", DV.texts("b", "B", "a")).dataJSON == #"["B","a","b"]"#)
        #expect(try callData("Sort", DV.a(DV.n(2), .null, DV.n(1))).dataJSON == "[1,2,null]")
        let withDictionaries = DV.a(DV.d(("a", DV.n(2))), DV.d(("a", DV.n(1))))
        #expect(try callData("Sort", withDictionaries).dataJSON == #"[{"a":2},{"a":1}]"#) // unsorted
        let input = DV.numbers(3, 1, 2)
        _ = try callData("Sort", input)
        #expect(input.dataJSON == "[3,1,2]") // a sorted copy; the input is unchanged
    }

    @Test func sortIsStableAndSurvivesABadComparator() throws {
        let pairs = DV.a(DV.numbers(1, 0), DV.numbers(0, 1), DV.numbers(1, 2), DV.numbers(0, 3))
        let byFirst = DV.function("byFirst") { arguments in
            guard case .array(let a) = arguments[0], case .array(let b) = arguments[1] else { return .null }
            return DV.n(a.values[0].numberValue - b.values[0].numberValue)
        }
        #expect(try callData("Sort", pairs, byFirst).dataJSON == "[[0,1],[0,3],[1,0],[1,2]]")
        var toggle = false
        let liar = DV.function("liar") { _ in toggle.toggle(); return DV.n(toggle ? 1 : -1) }
        let sorted = try callData("Sort", DV.numbers(5, 4, 3, 2, 1, 0, 9, 8), liar)
        guard case .array(let result) = sorted else { Issue.record(); return }
        #expect(result.values.map(\.numberValue).sorted() == [0, 1, 2, 3, 4, 5, 8, 9]) // a permutation
    }

    @Test func hugeSizesAreRunErrors() throws {
        #expect(throws: ArcadeFunctionError.self) { try callData("Array", DV.n(1e300)) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Array", DV.n(.nan)) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Array", DV.n(-1)) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Resize", DV.a(), DV.n(1e300)) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Resize", DV.a(), DV.n(.infinity)) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Top", DV.a(), DV.n(-1)) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Slice", DV.a(), DV.n(.nan)) }
        #expect(try callData("Slice", DV.numbers(1, 2, 3), DV.n(1), DV.n(1e15)).dataJSON == "[2,3]") // clamped
        #expect(try callData("Top", DV.numbers(1, 2, 3), DV.n(1e9)).dataJSON == "[1,2,3]")
    }

    @Test func stepsAreCountedForBigArrays() {
        let context = DataTestContext()
        context.stepLimit = 1000
        #expect(throws: DataTooLong.self) { try callData("Array", DV.n(5000), context: context) }
    }

    @Test func distinctOfManyValuesStaysWithinTheStepBound() throws {
        let many = ArcadeValue.array(ArcadeArray((0..<100_000).map { .number(Double($0 % 50_000)) }))
        guard case .array(let unique) = try callData("Distinct", many) else { Issue.record(); return }
        #expect(unique.values.count == 50_000)
        let shared = DV.numbers(1)
        #expect(try callData("Distinct", shared, DV.n(-0.0), DV.n(0), DV.t("0"), .null, .null).dataJSON == #"[1,0,"0",null]"#)
    }

    @Test func copiesAndSelfReference() throws {
        let inner = DV.numbers(1)
        let outer = DV.a(inner)
        let deep = try callData("Array", outer, DV.b(true))
        _ = try callData("Push", inner, DV.n(2))
        #expect(deep.dataJSON == "[[1]]")
        guard case .array(let loop) = DV.a() else { return }
        loop.values.append(.array(loop)) // an array that holds itself
        #expect(throws: ArcadeFunctionError.self) { try callData("Array", .array(loop), DV.b(true)) }
    }

    /// About 0.1 s in a debug build; a matcher or counter that is quadratic in the text would not end within
    /// the time limit (10^14 steps). The speed itself is `ArcadeBench`'s (hostile inputs), not a timed test's:
    /// a 1 s bound here failed on a loaded machine.
    @Test(.timeLimit(.minutes(5))) func tenMegabyteTexts() throws {
        let big = String(repeating: "a", count: 10_000_000)
        let quoted = DV.t("\"" + big + "\"")
        #expect(try callData("Count", DV.t(big)).dataNumber == 10_000_000)
        #expect(try callData("Includes", DV.t(big), DV.t("b")).dataJSON == "false")
        #expect(try callData("FromJSON", quoted).textValue.utf8.count == 10_000_000)
        #expect(throws: ArcadeFunctionError.self) { try callData("FromJSON", DV.t(big)) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Polygon", DV.t(big)) }
    }

    @Test func textForms() throws {
        #expect(try callData("Includes", DV.t("the quick fox"), DV.t("quick")).dataJSON == "true")
        for (text, part, found) in [("abc", "bc", true), ("abc", "cd", false), ("aab", "ab", true), ("ab", "abc", false),
                                    ("a🌉b", "🌉b", true), ("x", "", true), ("", "x", false)] {
            #expect(try callData("Includes", DV.t(text), DV.t(part)).dataJSON == (found ? "true" : "false"), "\(text) \(part)")
        }
        #expect(try callData("Reverse", DV.t("abc")).dataJSON == "\"cba\"")
        #expect(try callData("Count", DV.t("🌉")).dataNumber == 2) // UTF-16 code units, as the text functions
    }

    @Test func wrongTypesAreRunErrors() {
        #expect(throws: ArcadeFunctionError.self) { try callData("Push", DV.n(1), DV.n(2)) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Filter", DV.numbers(1), DV.n(2)) }
        #expect(throws: ArcadeFunctionError.self) { try callData("Count", DV.n(2)) }
    }
}
