/// How YAML 1.2's core schema (YAML 1.2.2, section 10.3.2) reads a plain (unquoted) scalar: null, a boolean,
/// an integer, a float, or nil for a string.
///
/// Yams resolves plain scalars by YAML 1.1's rules, in which `Yes`, `on` and `off` are booleans and `10:20:30` is
/// the base-60 integer 37230 (and its integer reading of `http://x.org/a` is 0), so an unquoted URL or time of
/// day in an edit script changed silently. YAML 1.2, the version edit scripts and users files are read by, has
/// none of that: those are strings. Hand-written because Yams offers no 1.2 resolver for composed nodes.
public enum YAMLCoreScalar: Equatable, Sendable {
    case null
    case bool(Bool)
    /// An integer, as JSON number text (`+7` → `7`, `0x1F` → `31`, leading zeros dropped).
    case integer(String)
    case float(Double)

    /// The core schema's reading of `text`, a plain scalar; nil when it is a string.
    public init?(plain text: String) {
        switch text {
        case "", "~", "null", "Null", "NULL": self = .null; return
        case "true", "True", "TRUE": self = .bool(true); return
        case "false", "False", "FALSE": self = .bool(false); return
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": self = .float(.infinity); return
        case "-.inf", "-.Inf", "-.INF": self = .float(-.infinity); return
        case ".nan", ".NaN", ".NAN": self = .float(.nan); return
        default: break
        }
        let bytes = Array(text.utf8)
        if let integer = Self.integer(bytes) { self = integer; return }
        if Self.isFloat(bytes), let value = Double(text) { self = .float(value); return }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`.
    private static func integer(_ bytes: [UInt8]) -> YAMLCoreScalar? {
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x") {
            let radix: UInt64 = bytes[1] == UInt8(ascii: "o") ? 8 : 16
            var value: UInt64 = 0
            var overflowed = false
            for byte in bytes.dropFirst(2) {
                guard let digit = hexValue(byte), UInt64(digit) < radix else { return nil }
                let (shifted, o1) = value.multipliedReportingOverflow(by: radix)
                let (sum, o2) = shifted.addingReportingOverflow(UInt64(digit))
                overflowed = overflowed || o1 || o2
                value = sum
            }
            if overflowed {
                var approximate = 0.0
                for byte in bytes.dropFirst(2) { approximate = approximate * Double(radix) + Double(hexValue(byte)!) }
                return .float(approximate)
            }
            return .integer(String(value))
        }
        var digits = bytes[...]
        var negative = false
        if let first = digits.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return nil }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        if significant.isEmpty { return .integer("0") }
        return .integer((negative ? "-" : "") + String(decoding: significant, as: UTF8.self))
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    /// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
    private static func isFloat(_ bytes: [UInt8]) -> Bool {
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            return i - start
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        } else {
            guard digits() > 0 else { return false }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") { i += 1; _ = digits() }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == bytes.count
    }
}
