import Foundation
import WebMap

// Keywords of the validation vocabulary that look at one value: type, enum, const, numeric bounds,
// multipleOf, string length and pattern.

/// The set of JSON Schema types a `type` keyword allows.
struct TypeSet: OptionSet {
    let rawValue: UInt8
    static let null = TypeSet(rawValue: 1)
    static let boolean = TypeSet(rawValue: 2)
    static let object = TypeSet(rawValue: 4)
    static let array = TypeSet(rawValue: 8)
    static let number = TypeSet(rawValue: 16)
    static let string = TypeSet(rawValue: 32)
    static let integer = TypeSet(rawValue: 64)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(name: String) {
        switch name {
        case "null": self = .null
        case "boolean": self = .boolean
        case "object": self = .object
        case "array": self = .array
        case "number": self = .number
        case "string": self = .string
        case "integer": self = .integer
        default: return nil
        }
    }

    var names: [String] {
        var out: [String] = []
        if contains(.object) { out.append("object") }
        if contains(.array) { out.append("array") }
        if contains(.string) { out.append("string") }
        if contains(.number) { out.append("number") }
        if contains(.integer) { out.append("integer") }
        if contains(.boolean) { out.append("boolean") }
        if contains(.null) { out.append("null") }
        return out
    }

    @inline(__always)
    func allows(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return contains(.null)
        case .bool: return contains(.boolean)
        case .object: return contains(.object)
        case .array: return contains(.array)
        case .string: return contains(.string)
        case .number(let n): return contains(.number) || (contains(.integer) && Numbers.isInteger(n))
        }
    }
}

final class TypeKeyword: Keyword {
    let types: TypeSet

    init(types: TypeSet, location: String) {
        self.types = types
        super.init(name: "type", location: location)
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        if types.allows(instance.value) { return true }
        if c.detailed {
            let expected = Describe.alternatives(types.names)
            let found = Describe.typeName(instance.value)
            var detail = found
            switch instance.value {
            case .string, .number, .bool: detail += " " + Describe.quoted(instance.value)
            default: break
            }
            c.report(keyword: name, location: location, offset: instance.offset, expected: expected, found: found,
                     message: "\(c.subject) must be \(Self.article(expected)) — found \(detail).")
        }
        return false
    }

    static func article(_ typeList: String) -> String {
        let first = typeList.split(separator: " ").first.map(String.init) ?? typeList
        switch first.trimmingCharacters(in: .punctuationCharacters) {
        case "object", "array", "integer": return "an " + typeList
        case "string", "number", "boolean": return "a " + typeList
        default: return typeList
        }
    }
}

final class EnumKeyword: Keyword {
    let values: [JSONValue]
    /// The string values (most enums are all strings), checked without building JSON values.
    let strings: [String]
    /// `strings` by UTF-8 length: a string is allowed when it is `==` to one of them and as long.
    let stringIndex: KeyIndex

    init(values: [JSONValue], location: String) {
        self.values = values
        strings = values.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
        stringIndex = KeyIndex(strings)
        super.init(name: "enum", location: location)
    }

    @inline(__always)
    func contains(_ value: JSONValue) -> Bool {
        if case .string(let s) = value { return stringIndex.find(s) != nil }
        for candidate in values where JSONEquality.equal(candidate, value) { return true }
        return false
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        if contains(instance.value) { return true }
        if c.detailed {
            let allowed = values.map(Describe.allowed)
            let expected = "one of " + Describe.list(allowed)
            var message = values.count == 1
                ? "\(c.subject) must be \(Describe.quoted(values[0])) — found \(Describe.found(instance.value))."
                : "\(c.subject) must be \(expected) — found \(Describe.found(instance.value))."
            if case .string(let s) = instance.value, let suggestion = EditDistance.closest(to: s, in: strings) {
                message += " Did you mean '\(suggestion)'?"
            }
            c.report(keyword: name, location: location, offset: instance.offset, expected: expected,
                     found: Describe.found(instance.value), message: message)
        }
        return false
    }
}

final class ConstKeyword: Keyword {
    let value: JSONValue

    init(value: JSONValue, location: String) {
        self.value = value
        super.init(name: "const", location: location)
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        if case .string(let a) = value, case .string(let b) = instance.value {
            if a.utf8.count == b.utf8.count && a == b { return true }
        } else if JSONEquality.equal(value, instance.value) {
            return true
        }
        if c.detailed {
            var message = "\(c.subject) must be \(Describe.quoted(value)) — found \(Describe.found(instance.value))."
            if case .string(let a) = value, case .string(let b) = instance.value, EditDistance.closest(to: b, in: [a]) != nil {
                message += " Did you mean '\(a)'?"
            }
            c.report(keyword: name, location: location, offset: instance.offset, expected: Describe.quoted(value),
                     found: Describe.found(instance.value), message: message)
        }
        return false
    }
}

/// Number helpers with JSON Schema semantics: integers are numbers with no fractional part (1.0 included),
/// comparisons exact for integers.
enum Numbers {
    @inline(__always)
    static func isInteger(_ n: JSONNumber) -> Bool {
        n.int != nil || (n.double.isFinite && n.double.rounded(.towardZero) == n.double)
    }

    /// -1, 0 or 1.
    static func compare(_ a: JSONNumber, _ b: JSONNumber) -> Int {
        if let x = a.int, let y = b.int { return x < y ? -1 : (x == y ? 0 : 1) }
        if JSONEquality.numbersEqual(a, b) { return 0 }
        return a.double < b.double ? -1 : 1
    }

    /// True when `value` is an integer multiple of `divisor` (> 0), with care for binary fractions:
    /// 0.0075 is a multiple of 0.0001 although neither is exact in binary.
    static func isMultiple(_ value: JSONNumber, of divisor: JSONNumber) -> Bool {
        if let v = value.int, let d = divisor.int, d != 0 { return v % d == 0 }
        let x = value.double, d = divisor.double
        if x == 0 { return true }
        guard x.isFinite, d.isFinite, d != 0 else { return false }
        if x.truncatingRemainder(dividingBy: d) == 0 { return true }
        // Decimal arithmetic on the shortest decimal texts of both numbers.
        guard abs(x) < 1e120, abs(d) > 1e-120,
              let dx = Decimal(string: String(x)), let dd = Decimal(string: String(d)), !dd.isZero else { return false }
        var quotient = dx / dd
        var rounded = Decimal()
        NSDecimalRound(&rounded, &quotient, 0, .plain)
        return rounded == quotient
    }
}

/// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`.
final class BoundKeyword: Keyword {
    let limit: JSONNumber
    let isMaximum: Bool
    let isExclusive: Bool

    init(name: String, limit: JSONNumber, location: String) {
        self.limit = limit
        isMaximum = name.lowercased().contains("maximum")
        isExclusive = name.hasPrefix("exclusive")
        super.init(name: name, location: location)
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .number(let n) = instance.value else { return true }
        let order = Numbers.compare(n, limit)
        let ok: Bool
        switch (isMaximum, isExclusive) {
        case (true, false): ok = order <= 0
        case (true, true): ok = order < 0
        case (false, false): ok = order >= 0
        case (false, true): ok = order > 0
        }
        if ok { return true }
        if c.detailed {
            let bound = Describe.number(limit)
            let expected: String
            switch (isMaximum, isExclusive) {
            case (true, false): expected = "at most \(bound)"
            case (true, true): expected = "less than \(bound)"
            case (false, false): expected = "at least \(bound)"
            case (false, true): expected = "greater than \(bound)"
            }
            c.report(keyword: name, location: location, offset: instance.offset, expected: expected,
                     found: Describe.number(n), message: "\(c.subject) must be \(expected) — found \(Describe.number(n)).")
        }
        return false
    }
}

final class MultipleOfKeyword: Keyword {
    let divisor: JSONNumber

    init(divisor: JSONNumber, location: String) {
        self.divisor = divisor
        super.init(name: "multipleOf", location: location)
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .number(let n) = instance.value else { return true }
        if Numbers.isMultiple(n, of: divisor) { return true }
        if c.detailed {
            let expected = "a multiple of \(Describe.number(divisor))"
            c.report(keyword: name, location: location, offset: instance.offset, expected: expected,
                     found: Describe.number(n), message: "\(c.subject) must be \(expected) — found \(Describe.number(n)).")
        }
        return false
    }
}

/// `minLength` and `maxLength`, counting Unicode scalars (code points).
final class LengthKeyword: Keyword {
    let minimum: Int?
    let maximum: Int?
    let minimumLocation: String
    let maximumLocation: String

    init(minimum: Int?, maximum: Int?, minimumLocation: String, maximumLocation: String) {
        self.minimum = minimum
        self.maximum = maximum
        self.minimumLocation = minimumLocation
        self.maximumLocation = maximumLocation
        super.init(name: minimum != nil ? "minLength" : "maxLength", location: minimum != nil ? minimumLocation : maximumLocation)
    }

    static func scalarCount(_ s: String) -> Int {
        var count = 0
        for byte in s.utf8 where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .string(let s) = instance.value else { return true }
        let bytes = s.utf8.count
        // A string has at most as many scalars as bytes, and at least a quarter as many: count only when
        // the byte length cannot decide.
        var mustCount = false
        if let maximum, bytes > maximum { mustCount = true }
        if let minimum, bytes < minimum * 4 { mustCount = true }
        if !mustCount { return true }
        return check(Self.scalarCount(s), s, instance, c)
    }

    private func check(_ count: Int, _ s: String, _ instance: JSONNode, _ c: ValidationContext) -> Bool {
        var valid = true
        if let minimum, count < minimum {
            valid = false
            if c.detailed {
                let expected = "at least \(Describe.plural(minimum, "character")) long"
                c.report(keyword: "minLength", location: minimumLocation, offset: instance.offset, expected: expected,
                         found: Describe.plural(Self.scalarCount(s), "character"),
                         message: "\(c.subject) must be \(expected) — found '\(Describe.clip(s))' (\(Describe.plural(Self.scalarCount(s), "character"))).")
            }
        }
        if let maximum, count > maximum {
            valid = false
            if c.detailed {
                let expected = "at most \(Describe.plural(maximum, "character")) long"
                c.report(keyword: "maxLength", location: maximumLocation, offset: instance.offset, expected: expected,
                         found: Describe.plural(count, "character"),
                         message: "\(c.subject) must be \(expected) — found \(Describe.plural(count, "character")).")
            }
        }
        return valid
    }
}

final class PatternKeyword: Keyword {
    let regex: ECMARegex

    init(regex: ECMARegex, location: String) {
        self.regex = regex
        super.init(name: "pattern", location: location)
    }

    override func validate(_ instance: JSONNode, _ c: ValidationContext, _ evaluated: Evaluated?) -> Bool {
        guard case .string(let s) = instance.value else { return true }
        switch regex.match(s) {
        case .matched: return true
        case .notMatched: break
        case .gaveUp(let steps):
            c.reportGaveUp(keyword: name, location: location, offset: instance.offset, regex: regex, steps: steps, text: s)
            return false
        }
        if c.detailed {
            let expected = "text matching the pattern \(regex.source)"
            c.report(keyword: name, location: location, offset: instance.offset, expected: expected,
                     found: "'\(Describe.clip(s))'",
                     message: "\(c.subject) must match the pattern \(regex.source) — found '\(Describe.clip(s))'.")
        }
        return false
    }
}
