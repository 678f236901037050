import Foundation

/// `Round`, `Ceil` and `Floor` with a number of decimal places, as Arcade computes them: the decimal point is moved
/// in the number's shortest decimal writing (not by multiplying by a power of ten), so `Round(1.005, 2)` is 1.01 and
/// `Round(2316.2562, 2)` is 2316.26; halves round up, toward +Infinity (`Round(2.5)` is 3, `Round(-2.5)` is -2),
/// as JavaScript's `Math.round` does. As in Arcade's own implementation (the "decimal adjustment" of JavaScript
/// references): places NaN count as 0; places that are not whole, a value that is not finite with places, or a
/// shift that leaves the finite numbers (`Round(2.5, 400)`) give NaN.
enum DecimalRounding {
    static func apply(_ operation: (Double) -> Double, to value: Double, places: Double) -> Double {
        if places.isNaN || places == 0 { return operation(value) }
        guard value.isFinite, places.isFinite, places == places.rounded(), abs(places) < 100_000 else { return .nan }
        let whole = Int(places)
        let shifted = shift(value, by: whole)
        guard shifted.isFinite else { return .nan }
        return shift(operation(shifted), by: -whole)
    }

    /// value × 10^places, computed on the decimal digits.
    static func shift(_ value: Double, by places: Int) -> Double {
        let written = "\(value)" // shortest digits that read back to value, e.g. "1.005", "1e-07"
        let parts = written.lowercased().split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? (Int(parts[1]) ?? 0) : 0
        return Double("\(parts[0])e\(exponent + places)") ?? value * Foundation.pow(10, Double(places))
    }

    /// The closest whole number; a half goes up (toward +Infinity).
    static func roundHalfUp(_ value: Double) -> Double {
        let floor = value.rounded(.down)
        return value - floor >= 0.5 ? floor + 1 : floor
    }
}
