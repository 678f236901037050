import Foundation
import FeatureServiceModel
import WebMap

/// The query's fast path for attributes: the stored attributes text written to the answer as it is (or
/// cut into the output fields' values), without parsing it into a tree and writing it again, in the one
/// case where that is provably the same text as decoding (`QueryPlan.feature`) then encoding
/// (`Attributes` through `OrderedJSONEncoder` or `FeatureSetText`) gives:
///
/// - every output field name is printable ASCII without `"` or `\` (so it is written as `"name"`, and no
///   other string is equal to it under Swift's canonical equivalence but ASCII itself), and no two are the same;
/// - the stored text is one compact object (no white space) whose keys are printable ASCII without escapes,
///   all different; so "the last member of that name" is the one member of that name;
/// - every value is written the way encoding its decoded value writes it: `null`; a string with no escape
///   and no control character, in valid UTF-8 (the text is read from SQLite as it is, where reading it as a
///   `String` would repair it, so text with non-ASCII bytes is checked); an integer
///   `-?(0|[1-9][0-9]{0,17})` other than `-0` (decoded as an Int, written back digit for digit); or a
///   number with a fraction or an exponent that is exactly `Double.description` of its value, finite and
///   not integral below 1e15 (decoded as that Double, written back with `description`). `true`, `false`,
///   arrays, objects, escapes and any other number form fall back to the slow path.
///
/// The result is the attributes object's bytes, `{"name":value,...}`, or nothing (use the slow path).

/// Finds the output fields among a stored object's members one after another. Stored objects hold each
/// field once, in field order: looking on from where the previous field was found (and wrapping round)
/// finds each in one step when the orders agree, and still finds it when they do not.
struct FieldOrderCursor {
    private var next = 0

    /// The index of the first of `count` members, from the cursor on, that `matches`; nil when none does.
    mutating func find(among count: Int, where matches: (Int) -> Bool) -> Int? {
        var k = next
        for _ in 0..<count {
            if k == count { k = 0 }
            if matches(k) {
                next = k + 1
                return k
            }
            k += 1
        }
        return nil
    }
}

struct StoredAttributesWriter: Sendable {
    /// `"name":` of each output field.
    private let keys: [[UInt8]]
    /// Each output field's name, as bytes.
    private let names: [[UInt8]]
    /// The position among the output fields of the one a GeoJSON feature's `id` comes from: where the decoded
    /// attributes' `subscript(objectIdField)` finds it (`Feature.geoJSON`). Nil when there is none.
    let objectIdPosition: Int?

    /// `objectIdField`: the layer's object id field, whose value `Scratch.objectIdValue` then locates.
    init?(outFields: [String], objectIdField: String? = nil) {
        var keys: [[UInt8]] = []
        var names: [[UInt8]] = []
        for name in outFields {
            let bytes = Array(name.utf8)
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else { return nil }
            names.append(bytes)
            keys.append([UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\""), UInt8(ascii: ":")])
        }
        // Two output fields of one name (a layer with a repeated field name) would both take the last stored
        // member of that name: not what writing the stored text gives.
        guard Set(names).count == names.count else { return nil }
        self.keys = keys
        self.names = names
        objectIdPosition = objectIdField.flatMap { Attributes.index(of: $0, in: outFields) }
    }

    /// The attributes object's bytes, or nil (use the slow path).
    func encode(_ text: String) -> [UInt8]? {
        var text = text
        var out: [UInt8] = []
        var scratch = Scratch()
        return text.withUTF8 { encode(bytes: $0, into: &out, scratch: &scratch) } ? out : nil
    }

    /// One member of the stored object: where its key (between the quotes) and its value are.
    struct Member {
        var keyStart: Int
        var keyEnd: Int
        var valueStart: Int
        var valueEnd: Int
    }

    /// Working storage kept from row to row of a page (no allocation per row).
    struct Scratch {
        var members: [Member] = []
        /// A number's text as the core's writer makes it (`canonicalNumber`, `RowStore.storedPoint`).
        var number: [UInt8] = []
        /// After a successful `encode`: where, in the stored bytes, the value of the output field at
        /// `objectIdPosition` is (nil when that field has no member: its value is null).
        var objectIdValue: Range<Int>?
    }

    /// Appends the attributes object to `out` and answers true; or answers false, `out` untouched (use the
    /// slow path).
    func encode(bytes s: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], scratch: inout Scratch) -> Bool {
        let n = s.count
        guard n >= 2, s[0] == UInt8(ascii: "{"), s[n - 1] == UInt8(ascii: "}") else { return false }
        scratch.members.removeAll(keepingCapacity: true)
        var nonASCII = false
        var p = 1
        if s[p] != UInt8(ascii: "}") {
            while true {
                // Key.
                guard p < n, s[p] == UInt8(ascii: "\"") else { return false }
                let keyStart: Int, keyEnd: Int
                let index = scratch.members.count
                if index < keys.count, Self.hasPrefix(s, at: p, keys[index]) {
                    // `"name":` of the output field of the same position (stored objects hold the fields in
                    // order): the bytes the loop below would have accepted, so it is skipped.
                    keyStart = p + 1
                    keyEnd = keyStart + names[index].count
                    p += keys[index].count
                } else {
                    p += 1
                    keyStart = p
                    while p < n, s[p] != UInt8(ascii: "\"") {
                        let b = s[p]
                        guard b >= 0x20, b < 0x7F, b != UInt8(ascii: "\\") else { return false }
                        p += 1
                    }
                    guard p < n else { return false }
                    keyEnd = p
                    p += 1
                    guard p < n, s[p] == UInt8(ascii: ":") else { return false }
                    p += 1
                }
                // Value.
                let valueStart = p
                guard p < n else { return false }
                switch s[p] {
                case UInt8(ascii: "n"):
                    guard p + 4 <= n, s[p + 1] == UInt8(ascii: "u"), s[p + 2] == UInt8(ascii: "l"), s[p + 3] == UInt8(ascii: "l") else { return false }
                    p += 4
                case UInt8(ascii: "\""):
                    p += 1
                    string: while true {
                        // Eight bytes at a time while none of them needs a look (`plainWord`).
                        while p + 8 <= n, Self.plainWord(UnsafeRawPointer(s.baseAddress! + p).loadUnaligned(as: UInt64.self)) { p += 8 }
                        // Then byte by byte to the end of the word (or of the text).
                        let end = min(p + 8, n)
                        guard p < end else { return false }
                        while p < end {
                            let b = s[p]
                            if b == UInt8(ascii: "\"") { break string }
                            guard b >= 0x20, b != UInt8(ascii: "\\") else { return false }
                            if b >= 0x80 { nonASCII = true }
                            p += 1
                        }
                    }
                    p += 1
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let end = Self.canonicalNumber(s, from: p, scratch: &scratch.number) else { return false }
                    p = end
                default:
                    return false
                }
                scratch.members.append(Member(keyStart: keyStart, keyEnd: keyEnd, valueStart: valueStart, valueEnd: p))
                guard p < n else { return false }
                if s[p] == UInt8(ascii: ",") { p += 1; continue }
                if s[p] == UInt8(ascii: "}") { break }
                return false
            }
        }
        guard p == n - 1 else { return false }
        if nonASCII && !Self.isValidUTF8(s) { return false }

        let members = scratch.members
        // The stored keys are exactly the output fields, in order: the text is the answer.
        if members.count == names.count && zip(members, names).allSatisfy({ Self.equal(s, $0.keyStart, $0.keyEnd, $1) }) {
            out.append(contentsOf: s)
            scratch.objectIdValue = objectIdPosition.map { members[$0].valueStart..<members[$0].valueEnd }
            return true
        }
        // Otherwise each output field takes its member's value (null when there is none); the keys must all
        // differ.
        for i in members.indices {
            for j in (i + 1)..<members.count where Self.equal(s, members[i], members[j]) { return false }
        }
        out.append(UInt8(ascii: "{"))
        scratch.objectIdValue = nil
        var cursor = FieldOrderCursor()
        for (index, name) in names.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: keys[index])
            if let k = cursor.find(among: members.count, where: { Self.equal(s, members[$0].keyStart, members[$0].keyEnd, name) }) {
                let found = members[k]
                out.append(contentsOf: UnsafeBufferPointer(rebasing: s[found.valueStart..<found.valueEnd]))
                if index == objectIdPosition { scratch.objectIdValue = found.valueStart..<found.valueEnd }
            } else {
                out.append(contentsOf: "null".utf8)
            }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// True when none of the eight bytes of `word` is `"`, `\`, a control character (below 0x20) or non-ASCII
    /// (0x80 and above): the string scan may pass them all. The tests for "some byte is zero" and "some byte is
    /// below n" (n <= 0x80) on a whole word, as in Hacker's Delight and Sean Anderson's "Bit Twiddling Hacks": exact
    /// for whether any byte matches (the borrows they propagate only mark bytes above a true match).
    @inline(__always)
    static func plainWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word) | word
        return special & high == 0
    }

    @inline(__always)
    private static func hasPrefix(_ s: UnsafeBufferPointer<UInt8>, at p: Int, _ prefix: [UInt8]) -> Bool {
        guard p + prefix.count <= s.count else { return false }
        return prefix.withUnsafeBufferPointer { b in memcmp(s.baseAddress! + p, b.baseAddress!, prefix.count) == 0 }
    }

    /// True when the bytes are well-formed UTF-8 (the standard library's decoder, which reading them as a
    /// `String` repairs with U+FFFD where it reports an error).
    static func isValidUTF8(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
        var iterator = s.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private static func equal(_ s: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ name: [UInt8]) -> Bool {
        guard end - start == name.count else { return false }
        return name.withUnsafeBufferPointer { b in name.isEmpty || memcmp(s.baseAddress! + start, b.baseAddress!, name.count) == 0 }
    }

    private static func equal(_ s: UnsafeBufferPointer<UInt8>, _ a: Member, _ b: Member) -> Bool {
        let count = a.keyEnd - a.keyStart
        guard b.keyEnd - b.keyStart == count else { return false }
        return count == 0 || memcmp(s.baseAddress! + a.keyStart, s.baseAddress! + b.keyStart, count) == 0
    }

    /// The end of the number at `start` when it is written exactly as encoding its decoded value writes it
    /// (see the type's comment); nil otherwise.
    /// `scratch` holds the number's text as the writer makes it (kept from call to call).
    static func canonicalNumber(_ s: UnsafeBufferPointer<UInt8>, from start: Int, scratch written: inout [UInt8]) -> Int? {
        var p = start
        let n = s.count
        var isInteger = true
        while p < n {
            let b = s[p]
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") || b == UInt8(ascii: "-") { p += 1; continue }
            if b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") || b == UInt8(ascii: "+") { isInteger = false; p += 1; continue }
            break
        }
        let token = UnsafeBufferPointer(rebasing: s[start..<p])
        guard !token.isEmpty else { return nil }
        if isInteger {
            // -?(0|[1-9][0-9]{0,17}), not -0.
            let negative = token[0] == UInt8(ascii: "-")
            let digits = UnsafeBufferPointer(rebasing: token[(negative ? 1 : 0)...])
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            if digits[0] == UInt8(ascii: "0") && (digits.count > 1 || negative) { return nil }
            return p
        }
        // A fraction or an exponent: the text must be exactly what the core's writer makes of the Double it
        // reads as (an integral value below 1e15 is written as an integer, so it never matches).
        guard token.count <= 32, let d = Double(String(decoding: token, as: UTF8.self)), d.isFinite else { return nil }
        written.removeAll(keepingCapacity: true)
        JSON.appendDouble(d, to: &written)
        guard written.elementsEqual(token) else { return nil }
        return p
    }
}
