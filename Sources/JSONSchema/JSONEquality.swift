import WebMap

/// Equality of JSON values as JSON Schema defines it (`const`, `enum`, `uniqueItems`): numbers are equal when
/// their mathematical values are (1.0 == 1), objects when they have the same members in any order, arrays
/// element by element. Repeated object keys count once, the last occurrence winning, as everywhere else.
enum JSONEquality {
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)): return numbersEqual(x, y)
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return false }
            for i in 0..<x.count where !equal(x[i].value, y[i].value) { return false }
            return true
        case (.object(let x), .object(let y)):
            let xm = x.uniqueMembers, ym = y.uniqueMembers
            guard xm.count == ym.count else { return false }
            for member in xm {
                guard let other = y[member.key], equal(member.value.value, other.value) else { return false }
            }
            return true
        default:
            return false
        }
    }

    static func numbersEqual(_ x: JSONNumber, _ y: JSONNumber) -> Bool {
        if let a = x.int, let b = y.int { return a == b }
        if let a = x.int { return intEqualsDouble(a, y.double) }
        if let b = y.int { return intEqualsDouble(b, x.double) }
        return x.double == y.double
    }

    /// Exact comparison of an integer with a double (no rounding of the integer to 53 bits).
    static func intEqualsDouble(_ i: Int, _ d: Double) -> Bool {
        guard d.rounded(.towardZero) == d, d >= -9.223372036854775808e18, d < 9.223372036854775808e18 else { return false }
        return Int(d) == i
    }

    /// A hash consistent with `equal` (used to find repeated items in large arrays).
    static func hash(_ value: JSONValue, into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .string(let s): hasher.combine(2); hasher.combine(s)
        case .number(let n):
            hasher.combine(3)
            // Integral values hash as their Double so that 1 and 1.0 collide; equality then decides exactly.
            hasher.combine(n.double)
        case .array(let elements):
            hasher.combine(4)
            hasher.combine(elements.count)
            for e in elements { hash(e.value, into: &hasher) }
        case .object(let object):
            hasher.combine(5)
            // Order-independent: combine member hashes commutatively.
            var sum = 0
            let members = object.uniqueMembers
            for m in members {
                var h = Hasher()
                h.combine(m.key)
                hash(m.value.value, into: &h)
                sum = sum &+ h.finalize()
            }
            hasher.combine(members.count)
            hasher.combine(sum)
        }
    }
}

/// A JSON value usable as a dictionary key under JSON Schema equality.
struct HashableJSON: Hashable {
    var value: JSONValue
    static func == (a: HashableJSON, b: HashableJSON) -> Bool { JSONEquality.equal(a.value, b.value) }
    func hash(into hasher: inout Hasher) { JSONEquality.hash(value, into: &hasher) }
}
