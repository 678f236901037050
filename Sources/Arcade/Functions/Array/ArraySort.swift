import Foundation

/// `Sort` (https://developers.arcgis.com/arcade/function-reference/array_functions/#sort). It returns a sorted
/// copy; the input array is left as it was. The sort is stable (equal elements keep their order), also with a
/// comparator, which answers a number: above 0 puts `b` before `a`, below 0 or 0 keeps them (NaN counts as 0).
/// A comparator that answers inconsistently gives some order, never a crash or an endless sort.
///
/// Without a comparator, as the page says: elements of one type are sorted by that type's order (numbers by value,
/// text by UTF-16 code units as ASCII order extends, dates by instant, false before true); elements of different
/// types are compared as their `Text()` (`Sort([1, 'a', '$', 'A'])` is `['$', 1, 'A', 'a']`); an array holding
/// dictionaries, arrays, features or geometries is returned unsorted. Nulls go last.
enum ArraySort {
    static func sortedWithoutFunction(_ values: [ArcadeValue], call: ArcadeCall) throws -> [ArcadeValue] {
        let present = values.filter { !$0.isNull }
        let nulls = values.filter(\.isNull)
        for value in present {
            switch value {
            case .array, .dictionary, .feature, .featureSet, .geometry, .function: return values
            default: continue
            }
        }
        let oneType = Set(present.map(\.typeName)).count <= 1
        let sorted = try stableSorted(present, call: call) { a, b in
            switch (a, b) {
            case (.number(let x), .number(let y)) where oneType: return x < y ? -1 : (x > y ? 1 : 0)
            case (.date(let x), .date(let y)) where oneType:
                return x.epochMilliseconds < y.epochMilliseconds ? -1 : (x.epochMilliseconds > y.epochMilliseconds ? 1 : 0)
            case (.boolean(let x), .boolean(let y)) where oneType: return x == y ? 0 : (x ? 1 : -1)
            default: return compareUTF16(a.textValue, b.textValue)
            }
        }
        return sorted + nulls
    }

    static func compareUTF16(_ a: String, _ b: String) -> Double {
        var left = a.utf16.makeIterator(), right = b.utf16.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }

    /// A merge sort: stable, O(n log n) comparisons whatever the comparator answers.
    static func stableSorted(_ values: [ArcadeValue], call: ArcadeCall,
                             _ compare: (ArcadeValue, ArcadeValue) throws -> Double) throws -> [ArcadeValue] {
        var items = values
        var buffer = values
        var width = 1
        let count = items.count
        while width < count {
            var start = 0
            while start < count {
                let middle = min(start + width, count), end = min(start + 2 * width, count)
                var i = start, j = middle, k = start
                while i < middle && j < end {
                    try call.context.step(1)
                    // Take from the right only when the comparator says b goes before a (> 0).
                    if try compare(items[i], items[j]) > 0 { buffer[k] = items[j]; j += 1 } else { buffer[k] = items[i]; i += 1 }
                    k += 1
                }
                while i < middle { buffer[k] = items[i]; i += 1; k += 1 }
                while j < end { buffer[k] = items[j]; j += 1; k += 1 }
                start = end
            }
            swap(&items, &buffer)
            width *= 2
        }
        return items
    }
}
