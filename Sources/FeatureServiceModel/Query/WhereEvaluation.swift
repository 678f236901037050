import Foundation
import WebMap
import FeatureServiceModel

/// A parsed `where` clause evaluated against one feature's attributes in memory, with the meaning the
/// compiled SQL has in the store (`QueryCompiler`): a comparison with null is not true, numbers compare as
/// numbers, LIKE ignores ASCII case, a string literal compared with a Date field is read as a date and one
/// compared with a GUID field as a braced GUID. The editing runtime uses it to tell whether its local edits
/// match a query, so that a query shows local adds and updates exactly where the service would.
extension WhereExpression {
    /// True when the feature with `attributes` matches; `field` answers a field's definition by name.
    public func matches(_ attributes: Attributes, field: (String) -> FieldDefinition?) -> Bool {
        evaluate(attributes, field) == true
    }

    /// SQL's three-valued logic: nil is "unknown".
    private func evaluate(_ attributes: Attributes, _ field: (String) -> FieldDefinition?) -> Bool? {
        switch self {
        case .and(let a, let b):
            let left = a.evaluate(attributes, field), right = b.evaluate(attributes, field)
            if left == false || right == false { return false }
            return (left == nil || right == nil) ? nil : true
        case .or(let a, let b):
            let left = a.evaluate(attributes, field), right = b.evaluate(attributes, field)
            if left == true || right == true { return true }
            return (left == nil || right == nil) ? nil : false
        case .not(let a):
            return a.evaluate(attributes, field).map { !$0 }
        case .compare(let l, let op, let r):
            guard let order = WhereValue.compare(l.value(attributes, peer: r, field), r.value(attributes, peer: l, field)) else { return nil }
            switch op {
            case .equal: return order == .orderedSame
            case .notEqual: return order != .orderedSame
            case .less: return order == .orderedAscending
            case .lessOrEqual: return order != .orderedDescending
            case .greater: return order == .orderedDescending
            case .greaterOrEqual: return order != .orderedAscending
            }
        case .inList(let l, let items, let negated):
            let value = l.value(attributes, peer: nil, field)
            if value == .null { return nil }
            var sawUnknown = false
            for item in items {
                switch WhereValue.compare(value, item.value(attributes, peer: l, field)) {
                case .orderedSame?: return !negated
                case nil: sawUnknown = true
                default: break
                }
            }
            return sawUnknown ? nil : negated
        case .between(let v, let low, let high, let negated):
            let value = v.value(attributes, peer: nil, field)
            guard let a = WhereValue.compare(value, low.value(attributes, peer: v, field)),
                  let b = WhereValue.compare(value, high.value(attributes, peer: v, field)) else { return nil }
            let inside = a != .orderedAscending && b != .orderedDescending
            return negated ? !inside : inside
        case .like(let v, let pattern, let escape, let negated):
            guard case .text(let text) = v.value(attributes, peer: nil, field).asText,
                  case .text(let p) = pattern.value(attributes, peer: nil, field).asText else { return nil }
            let result = WhereValue.like(text, pattern: p, escape: escape?.first)
            return negated ? !result : result
        case .isNull(let v, let negated):
            let isNull = v.value(attributes, peer: nil, field) == .null
            return negated ? !isNull : isNull
        }
    }
}

/// A value while evaluating: null, a number or a text.
enum WhereValue: Equatable {
    case null
    case number(Double)
    case text(String)

    init(_ value: AttributeValue?) {
        switch value {
        case .int(let i)?: self = .number(Double(i))
        case .double(let d)?: self = .number(d)
        case .string(let s)?: self = .text(s)
        default: self = .null
        }
    }

    var asText: WhereValue {
        switch self {
        case .number(let d): return .text(d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d))
        default: return self
        }
    }

    /// SQLite's order for mixed operands: a text that reads as a number compares as one.
    static func compare(_ a: WhereValue, _ b: WhereValue) -> ComparisonResult? {
        switch (a, b) {
        case (.null, _), (_, .null): return nil
        case (.number(let x), .number(let y)): return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        case (.text(let x), .text(let y)): return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        case (.number(let x), .text(let y)):
            guard let n = Double(y.trimmingCharacters(in: .whitespaces)) else { return .orderedAscending }
            return compare(.number(x), .number(n))
        case (.text, .number): return compare(b, a).map { $0 == .orderedAscending ? .orderedDescending : ($0 == .orderedDescending ? .orderedAscending : .orderedSame) }
        }
    }

    /// SQL LIKE: `%` any run, `_` one character, ASCII letters without regard to case.
    static func like(_ text: String, pattern: String, escape: Character?) -> Bool {
        let t = Array(text.lowercased()), p = Array(pattern.lowercased())
        // Iterative matching with backtracking to the last `%` (linear in practice, bounded by |t|·|p|).
        var ti = 0, pi = 0, starP = -1, starT = 0
        while ti < t.count {
            if pi < p.count, let escape, p[pi] == escape, pi + 1 < p.count {
                if p[pi + 1] == t[ti] { pi += 2; ti += 1; continue }
            } else if pi < p.count, p[pi] == "%" {
                starP = pi; starT = ti; pi += 1; continue
            } else if pi < p.count, p[pi] == "_" || p[pi] == t[ti] {
                pi += 1; ti += 1; continue
            }
            guard starP >= 0 else { return false }
            pi = starP + 1; starT += 1; ti = starT
        }
        while pi < p.count, p[pi] == "%" { pi += 1 }
        return pi == p.count
    }
}

extension WhereOperand {
    /// The operand's value; a string literal compared with a Date or GUID field takes that field's stored form.
    fileprivate func value(_ attributes: Attributes, peer: WhereOperand?, _ field: (String) -> FieldDefinition?) -> WhereValue {
        switch self {
        case .field(let name): return WhereValue(attributes[name])
        case .integer(let i): return .number(Double(i))
        case .real(let d): return .number(d)
        case .date(let ms): return .number(Double(ms))
        case .string(let s):
            if case .field(let name)? = peer, let definition = field(name) {
                switch definition.type {
                case .date:
                    if let ms = WhereParser.parseDate(s, timestamp: true) { return .number(Double(ms)) }
                case .guid, .globalID:
                    if let guid = GUIDText.normalize(s) { return .text(guid) }
                default: break
                }
            }
            return .text(s)
        case .upper(let inner):
            if case .text(let s) = inner.value(attributes, peer: nil, field).asText { return .text(s.uppercased()) }
            return .null
        case .lower(let inner):
            if case .text(let s) = inner.value(attributes, peer: nil, field).asText { return .text(s.lowercased()) }
            return .null
        }
    }
}

extension SpatialRelation {
    /// True when `feature` stands in this relation to `query` (planar, in the coordinates given).
    public func holds(feature: Geometry, query: Geometry) -> Bool { Spatial.holds(self, feature: feature, query: query) }
}
