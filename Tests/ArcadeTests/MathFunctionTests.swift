import Foundation
import Testing
import Arcade

/// The examples of https://developers.arcgis.com/arcade/function-reference/math_functions/ ("prints 1.266104" is
/// compared at the page's six decimals), then Arcade's rounding and hostile numbers.
@Suite struct MathFunctionReferenceExamples {
    @Test func absAndTrigonometry() throws {
        #expect(try callData("Abs", DV.n(-3)).dataNumber == 3)
        #expect(try callData("Abs", .null).dataNumber == 0) // "If the input is null, then it returns 0."
        #expect(dataRounded(try callData("Acos", DV.n(0.3)), 6) == 1.266104)
        #expect(dataRounded(try callData("Asin", DV.n(0.3)), 6) == 0.304693)
        #expect(dataRounded(try callData("Atan", DV.n(1)), 6) == 0.785398)
        #expect(dataRounded(try callData("Atan2", DV.n(-1), DV.n(-1)), 6) == -2.356194)
        #expect(dataRounded(try callData("Cos", DV.n(1)), 6) == 0.540302)
        // The page prints 0.841741 for Sin(1): a transposition of sin(1) = 0.841471 (docs/arcade.md).
        #expect(dataRounded(try callData("Sin", DV.n(1)), 6) == 0.841471)
        #expect(dataRounded(try callData("Tan", DV.n(0.521)), 5) == 0.57389)
        #expect(try callData("Acos", DV.n(2)).dataNumber!.isNaN) // outside +/- 1: NaN
    }

    @Test func exponentsAndRoots() throws {
        #expect(dataRounded(try callData("Exp", DV.n(2)), 6) == 7.389056)
        #expect(dataRounded(try callData("Log", DV.n(10)), 6) == 2.302585)
        #expect(try callData("Pow", DV.n(3), DV.n(2)).dataNumber == 9)
        #expect(try callData("Sqrt", DV.n(9)).dataNumber == 3)
    }

    @Test func roundingWithPlaces() throws {
        #expect(try callData("Ceil", DV.n(2135.0905), DV.n(2)).dataNumber == 2135.1)
        #expect(try callData("Floor", DV.n(2316.2562), DV.n(2)).dataNumber == 2316.25)
        #expect(try callData("Round", DV.n(2316.2562), DV.n(2)).dataNumber == 2316.26)
        #expect(try callData("Ceil", DV.n(2.1)).dataNumber == 3)
        #expect(try callData("Floor", DV.n(-2.1)).dataNumber == -3)
    }

    @Test func constrain() throws {
        #expect(try callData("Constrain", DV.n(5), DV.n(0), DV.n(10)).dataNumber == 5)
        #expect(try callData("Constrain", DV.n(-3), DV.n(0), DV.n(10)).dataNumber == 0)
        #expect(try callData("Constrain", DV.n(553), DV.n(0), DV.n(10)).dataNumber == 10)
        #expect(try callData("Constrain", DV.n(10), DV.n(50), DV.n(100)).dataNumber == 50) // the page's sentence
    }

    @Test func statisticsOverNumbers() throws {
        #expect(try callData("Average", DV.numbers(0, 5, 10)).dataNumber == 5)
        #expect(try callData("Max", DV.numbers(23, 56, 89)).dataNumber == 89)
        #expect(try callData("Max", DV.n(23), DV.n(5), DV.n(120), DV.n(43), DV.n(9)).dataNumber == 120)
        #expect(try callData("Min", DV.numbers(23, 56, 89)).dataNumber == 23)
        #expect(try callData("Min", DV.n(23), DV.n(5), DV.n(120), DV.n(43), DV.n(9)).dataNumber == 5)
        #expect(try callData("Mean", DV.numbers(1, 2, 3, 4, 5, 6, 7, 8, 9)).dataNumber == 5)
        #expect(try callData("Mean", DV.n(0), DV.n(10), DV.n(5), DV.numbers(0, 10)).dataNumber == 5)
        let six = [23, 56, 89, 12, 45, 78].map { DV.n($0) }
        #expect(try callData("Stdev", arguments: six).dataNumber == 27.5)
        #expect(try callData("Sum", arguments: six).dataNumber == 303)
        #expect(try callData("Variance", arguments: [12, 23, 45, 56, 78, 89].map { DV.n($0) }).dataNumber == 756.25)
    }

    @Test func randomComesFromTheContext() throws {
        let context = DataTestContext()
        context.randomValue = 0.75
        #expect(try callData("Random", context: context).dataNumber == 0.75)
    }
}

@Suite struct MathFunctionDecisions {
    /// Arcade moves the decimal point on the decimal digits and rounds halves up, as JavaScript's Math.round
    /// (docs/arcade.md, "Math").
    @Test func roundingOnDecimalDigits() throws {
        #expect(try callData("Round", DV.n(1.005), DV.n(2)).dataNumber == 1.01)
        #expect(try callData("Round", DV.n(2.5)).dataNumber == 3)
        #expect(try callData("Round", DV.n(-2.5)).dataNumber == -2)
        #expect(try callData("Round", DV.n(1234.5678), DV.n(-2)).dataNumber == 1200)
        #expect(try callData("Round", DV.n(1e-7), DV.n(7)).dataNumber == 1e-7)
        #expect(try callData("Round", DV.n(1e300), DV.n(2)).dataNumber == 1e300)
        #expect(try callData("Round", DV.t("2.345"), DV.n(2)).dataNumber == 2.35) // numbers through Number()
    }

    /// As Arcade's implementation (decimal adjustment): NaN places count as 0; places that are not whole, or
    /// that push the number out of the finite range, give NaN.
    @Test func oddPlaces() throws {
        #expect(try callData("Round", DV.n(1.5), DV.n(.nan)).dataNumber == 2)
        #expect(try callData("Round", DV.n(1.25), DV.n(1.5)).dataNumber!.isNaN)
        #expect(try callData("Round", DV.n(2.5), DV.n(400)).dataNumber!.isNaN)
        #expect(try callData("Round", DV.n(1), DV.n(1e300)).dataNumber!.isNaN)
        #expect(try callData("Ceil", DV.n(1), DV.n(-.infinity)).dataNumber!.isNaN)
        #expect(try callData("Round", DV.n(2.5), DV.n(-400)).dataNumber == 0)
        #expect(try callData("Round", DV.n(.infinity)).dataNumber == .infinity)
        #expect(try callData("Round", DV.n(.infinity), DV.n(2)).dataNumber!.isNaN)
        #expect(try callData("Round", DV.n(2.345), DV.t("2")).dataNumber == 2.35)
    }

    @Test func constrainWithCrossedBoundsIsNaN() throws {
        #expect(try callData("Constrain", DV.n(5), DV.n(10), DV.n(0)).dataNumber!.isNaN)
        #expect(try callData("Constrain", DV.n(.nan), DV.n(0), DV.n(10)).dataNumber!.isNaN)
        #expect(try callData("Constrain", DV.n(.infinity), DV.n(0), DV.n(10)).dataNumber == 10)
    }

    @Test func median() throws {
        #expect(try callData("Median", DV.numbers(5, 1, 3)).dataNumber == 3)
        #expect(try callData("Median", DV.n(4), DV.numbers(1, 3, 2)).dataNumber == 2.5)
        #expect(try callData("Median", DV.numbers(1, .nan)).dataNumber!.isNaN)
        #expect(try callData("Median", .featureSet(ArcadeFeatureSet(source: DataSamples.counties())), DV.t("AREA")).dataNumber == 1500)
    }

    @Test func emptyStatistics() throws {
        #expect(try callData("Sum", DV.a()).dataNumber == 0)
        #expect(try callData("Max", DV.a()).dataNumber!.isNaN)
        #expect(try callData("Mean", DV.a()).dataNumber!.isNaN)
    }

    /// NaN and both infinities in every math function: a number or a run error, never a crash.
    @Test func hostileNumbersInEveryMathFunction() throws {
        let names = ["Abs", "Acos", "Asin", "Atan", "Atan2", "Average", "Ceil", "Constrain", "Cos", "Exp", "Floor", "Log",
                     "Max", "Mean", "Median", "Min", "Pow", "Random", "Round", "Sin", "Sqrt", "Stdev", "Sum", "Tan", "Variance"]
        for name in names {
            let function = try #require(ArcadeFunctionLibrary.function(named: name), "\(name) is missing")
            for hostile in [Double.nan, .infinity, -.infinity, 1e308, -0.0] {
                for count in function.arity.lowerBound...min(function.arity.upperBound, 3) {
                    let arguments = Array(repeating: ArcadeValue.number(hostile), count: count)
                    do {
                        let value = try callData(name, arguments: arguments)
                        #expect(value.dataNumber != nil, "\(name)(\(hostile)) gave \(value.typeName)")
                    } catch is ArcadeFunctionError {
                        // a clear run error is fine
                    }
                }
            }
        }
        #expect(try callData("Sqrt", DV.n(-1)).dataNumber!.isNaN)
        #expect(try callData("Log", DV.n(0)).dataNumber == -.infinity)
        #expect(try callData("Max", DV.n(1), DV.n(.nan)).dataNumber!.isNaN)
    }
}
