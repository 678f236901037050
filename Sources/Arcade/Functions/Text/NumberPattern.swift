import Foundation

/// A number pattern as `Text(number, pattern)` and `Number(text, pattern)` read it (the reference's table: `0` a
/// digit, `#` a digit without leading or trailing zeros, `,` grouping, `.` the decimal point, `%` times 100, and
/// `positive;negative` subpatterns whose negative part only gives the negative prefix and suffix). Arcade's
/// formatting follows Dojo's: when the integer part has no `#`, it has exactly as many digits as the pattern
/// (`Text(123, '00')` is "23"); fractions round half away from zero.
struct NumberPattern {
    var positivePrefix = "", positiveSuffix = ""
    var negativePrefix = "-", negativeSuffix = ""
    /// Integer digits padded to (from the first `0` of the integer part to its end).
    var minimumIntegerDigits = 0
    /// Whether the integer part is cut to `minimumIntegerDigits` (no `#` in it).
    var truncatesInteger = false
    var minimumFractionDigits = 0
    var maximumFractionDigits = 0
    var primaryGroup: Int?
    var secondaryGroup: Int?
    var multiplier: Double = 1

    /// Longest pattern part read; longer ones are cut (a pattern is a few characters in practice).
    static let maximumDigits = 340

    init(_ pattern: String) throws {
        let subpatterns = pattern.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let positive = NumberPattern.split(subpatterns[0])
        positivePrefix = positive.prefix
        positiveSuffix = positive.suffix
        if subpatterns.count > 1 {
            let negative = NumberPattern.split(subpatterns[1])
            negativePrefix = negative.prefix
            negativeSuffix = negative.suffix
        } else {
            negativePrefix = "-" + positivePrefix
            negativeSuffix = positiveSuffix
        }
        if (positivePrefix + positiveSuffix).contains("%") { multiplier = 100 }
        if (positivePrefix + positiveSuffix).contains("‰") { multiplier = 1000 }

        let number = positive.number
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integerPart = String(parts[0])
        let fractionPart = parts.count > 1 ? String(parts[1]) : ""
        let integerDigits = integerPart.filter { $0 != "," }
        if let firstZero = integerDigits.firstIndex(of: "0") {
            minimumIntegerDigits = min(integerDigits.distance(from: firstZero, to: integerDigits.endIndex), NumberPattern.maximumDigits)
        }
        truncatesInteger = !integerDigits.contains("#") && !integerDigits.isEmpty
        let fractionDigits = fractionPart.filter { $0 == "0" || $0 == "#" }
        minimumFractionDigits = min(fractionDigits.filter { $0 == "0" }.count, NumberPattern.maximumDigits)
        maximumFractionDigits = min(max(fractionDigits.count, minimumFractionDigits), NumberPattern.maximumDigits)
        let groups = integerPart.split(separator: ",", omittingEmptySubsequences: false)
        if groups.count > 1 {
            primaryGroup = groups[groups.count - 1].count
            if groups.count > 2 { secondaryGroup = groups[groups.count - 2].count }
            if primaryGroup == 0 { primaryGroup = nil }
            if secondaryGroup == 0 { secondaryGroup = nil }
        }
    }

    /// A subpattern's prefix, number part (`#`, `0`, `,`, `.`) and suffix; text in single quotes is literal.
    static func split(_ subpattern: String) -> (prefix: String, number: String, suffix: String) {
        var prefix = "", number = "", suffix = ""
        var inQuote = false
        var stage = 0   // 0 prefix, 1 number, 2 suffix
        for character in subpattern {
            if character == "'" { inQuote.toggle(); continue }
            let isNumberCharacter = !inQuote && "#0,.".contains(character)
            if stage == 0 && isNumberCharacter { stage = 1 }
            if stage == 1 && !isNumberCharacter { stage = 2 }
            switch stage {
            case 0: prefix.append(character)
            case 1: number.append(character)
            default: suffix.append(character)
            }
        }
        return (prefix, number, suffix)
    }

    /// `Text(number, pattern)`; the number must be finite.
    func format(_ value: Double) -> String {
        let scaled = abs(value) * multiplier
        let digits = NumberPattern.fixedDigits(scaled, fractionDigits: maximumFractionDigits)
        var integer = digits.integer
        var fraction = digits.fraction
        while fraction.count > minimumFractionDigits && fraction.hasSuffix("0") { fraction.removeLast() }
        if integer.count < minimumIntegerDigits {
            integer = String(repeating: "0", count: minimumIntegerDigits - integer.count) + integer
        }
        if truncatesInteger && integer.count > minimumIntegerDigits {
            integer = String(integer.suffix(minimumIntegerDigits))
        }
        if integer.isEmpty && fraction.isEmpty { integer = "0" }
        if let primary = primaryGroup { integer = NumberPattern.group(integer, primary, secondaryGroup ?? primary) }
        let body = fraction.isEmpty ? integer : integer + "." + fraction
        let isNegative = value < 0 && body.contains { $0.isNumber && $0 != "0" }
        return isNegative ? negativePrefix + body + negativeSuffix : positivePrefix + body + positiveSuffix
    }

    /// The digits of a non-negative number rounded half away from zero to `fractionDigits` places.
    static func fixedDigits(_ value: Double, fractionDigits: Int) -> (integer: String, fraction: String) {
        var rounded = value
        let factor = pow(10, Double(fractionDigits))
        if value * factor < 1e17 && factor.isFinite {
            // Round the way JavaScript's Math.round does on the scaled value, so 0.125 -> 0.13 at two places.
            rounded = (value * factor).rounded(.toNearestOrAwayFromZero) / factor
        }
        let text = String(format: "%.\(fractionDigits)f", rounded)
        let parts = text.split(separator: ".", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }

    static func group(_ integer: String, _ primary: Int, _ secondary: Int) -> String {
        var groups: [Substring] = []
        var rest = Substring(integer)
        var size = primary
        while rest.count > size {
            groups.insert(rest.suffix(size), at: 0)
            rest = rest.dropLast(size)
            size = secondary
        }
        groups.insert(rest, at: 0)
        return groups.joined(separator: ",")
    }

    /// `Number(text, pattern)`: the text must match the pattern (its prefix and suffix, at least as many integer
    /// and fraction digits as the pattern's `0`s, at most as many fraction digits as its `0`s and `#`s, grouping
    /// separators where the pattern groups); NaN otherwise.
    func parse(_ text: String) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.utf8.count > 4096 { return .nan }
        let candidates = [(negativePrefix, negativeSuffix, -1.0), (positivePrefix, positiveSuffix, 1.0)]
            .sorted { $0.0.count + $0.1.count > $1.0.count + $1.1.count }
        for (prefix, suffix, sign) in candidates {
            guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(suffix), trimmed.count >= prefix.count + suffix.count
            else { continue }
            let body = trimmed.dropFirst(prefix.count).dropLast(suffix.count)
            if let value = parseBody(body) { return sign * value }
        }
        return .nan
    }

    private func parseBody(_ body: Substring) -> Double? {
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        if integer.contains(",") && primaryGroup == nil { return nil }
        let integerDigits = integer.filter { $0 != "," }
        guard integerDigits.allSatisfy({ $0.isASCII && $0.isNumber }), fraction.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        if integerDigits.isEmpty && fraction.isEmpty { return nil }
        if integerDigits.count < minimumIntegerDigits { return nil }
        if parts.count > 1 && (fraction.count < minimumFractionDigits || fraction.count > maximumFractionDigits) {
            return nil
        }
        if parts.count == 1 && minimumFractionDigits > 0 { return nil }
        // Divide by 100 for % (1000 for ‰) in decimal, so "99.99%" is exactly 0.9999.
        let exponent = multiplier == 100 ? "e-2" : multiplier == 1000 ? "e-3" : ""
        return Double((integerDigits.isEmpty ? "0" : integerDigits) + "." + (fraction.isEmpty ? "0" : fraction) + exponent)
    }
}
