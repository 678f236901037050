import Foundation
import Testing
import Arcade

/// The examples of https://developers.arcgis.com/arcade/function-reference/math_functions/ as written on the
/// page, evaluated as whole expressions (the contract: expression in, documented value out).
@Suite struct MathExpressionTests {
    static func value(_ source: String) throws -> ArcadeValue { try ArcadeEvaluator.evaluate(source) }

    @Test(arguments: [
        ("Abs(-3)", 3.0), ("Ceil(2135.0905, 2)", 2135.1), ("Constrain(5, 0, 10)", 5), ("Constrain(-3, 0, 10)", 0),
        ("Constrain(553, 0, 10)", 10), ("Floor(2316.2562, 2)", 2316.25), ("Max([23,56,89])", 89),
        ("Max(23,5,120,43,9)", 120), ("Min([23,56,89])", 23), ("Min(23,5,120,43,9)", 5), ("Pow(3, 2)", 9),
        ("Round(2316.2562, 2)", 2316.26), ("Sqrt(9)", 3), ("Stdev(23,56,89,12,45,78)", 27.5),
        ("Sum(23,56,89,12,45,78)", 303), ("Variance(12,23,45,56,78,89)", 756.25),
        ("var values = [0,5,10]\nAverage(values)", 5),
        ("var values = [1,2,3,4,5,6,7,8,9];\nMean(values);", 5),
        ("var values = [0,10];\nMean(0,10,5,values);", 5),
    ])
    func exactExamples(source: String, expected: Double) throws {
        #expect(try Self.value(source).dataNumber == expected, "\(source)")
    }

    @Test(arguments: [
        ("Acos(0.3)", 1.266104, 6), ("Asin(0.3)", 0.304693, 6), ("Atan(1)", 0.785398, 6), ("Atan2(-1, -1)", -2.356194, 6),
        ("Cos(1)", 0.540302, 6), ("Exp(2)", 7.389056, 6), ("Log(10)", 2.302585, 6), ("Tan(0.521)", 0.57389, 5),
        ("Sin(1)", 0.841471, 6), // the page prints 0.841741, a transposition (docs/arcade.md)
    ])
    func printedExamples(source: String, printed: Double, places: Int) throws {
        #expect(dataRounded(try Self.value(source), places) == printed, "\(source)")
    }

    @Test func randomIsBetweenZeroAndOne() throws {
        let random = try #require(try Self.value("Random()").dataNumber)
        #expect(random >= 0 && random < 1)
    }

    @Test func hostileNumbersInExpressions() throws {
        #expect(try Self.value("Round(1/0)").dataNumber == .infinity)
        #expect(try Self.value("IsNan(Round(1/0, 2))").dataJSON == "true")
        #expect(try Self.value("IsNan(Sqrt(-1))").dataJSON == "true")
        #expect(try Self.value("Max(Infinity, -Infinity, 5)").dataNumber == .infinity)
        do {
            _ = try Self.value("var x = 1\nx + Pow(Infinity, 2) + Random(5)")
            Issue.record("no error")
        } catch let error as ArcadeError {
            #expect(error.line == 2) // a wrong arity, reported at its call
        }
    }
}
