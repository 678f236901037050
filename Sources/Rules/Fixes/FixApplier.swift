import Foundation
import WebMap

/// Applies fixes to a file's bytes as text edits, and runs the lint-fix loop of `maprules lint --fix`.
public enum FixApplier {
    /// `bytes` with the edits of `fixes` made, and the fixes that were. A fix whose edits overlap an edit of
    /// a fix taken before it (in file order) is left for the next pass: both were computed against the same
    /// text, and after the first one lands the second may no longer apply (or may no longer be needed).
    public static func apply(_ fixes: [Fix], to bytes: [UInt8]) -> (bytes: [UInt8], applied: [Fix]) {
        var taken: [Fix] = []
        var ranges: [Range<Int>] = []
        let ordered = fixes.filter { !$0.edits.isEmpty }.sorted { ($0.edits.map(\.offset).min() ?? 0) < ($1.edits.map(\.offset).min() ?? 0) }
        for fix in ordered {
            let valid = fix.edits.allSatisfy { $0.offset >= 0 && $0.offset + $0.length <= bytes.count && $0.length >= 0 }
            let clashes = fix.edits.contains { edit in ranges.contains { Self.overlap($0, edit.range) } }
            guard valid, !clashes, !taken.contains(fix) else { continue }
            taken.append(fix)
            ranges += fix.edits.map(\.range)
        }
        let edits = taken.flatMap(\.edits).sorted { $0.offset > $1.offset }
        var result = bytes
        for edit in edits { result.replaceSubrange(edit.range, with: Array(edit.text.utf8)) }
        return (result, taken)
    }

    /// The patches of fixes taken together in one pass, as one patch whose operations apply in sequence. Each
    /// fix's patch stands alone against the same text, so the fixes go from the last place in the document to
    /// the first (deepest and highest array index first), each fix's operations together: then no fix moves
    /// the target of another.
    public static func sequentialPatch(_ fixes: [Fix]) -> [PatchOperation] {
        // Each fix's operations stay together and in their order (a fix may remove an element and add others in
        // its place: form/nested-group); fixes go from the last place in the document to the first, so that no
        // fix moves the array indexes another one names. The same removal twice is kept once.
        func tokens(_ path: String) -> [String] { path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init) }
        func later(_ a: [String], _ b: [String]) -> Bool {
            for (x, y) in zip(a, b) where x != y {
                if let i = Int(x), let j = Int(y) { return i > j }
                return x > y
            }
            return a.count > b.count
        }
        var seen = Set<String>()
        let units = fixes.map(\.patch).filter { !$0.isEmpty }.filter { unit in
            guard unit.count == 1, unit[0].op == .remove else { return true }
            return seen.insert(unit[0].path).inserted
        }
        let ordered = units.enumerated().sorted { a, b in
            let (x, y) = (tokens(a.element[0].path), tokens(b.element[0].path))
            if later(x, y) { return true }
            if later(y, x) { return false }
            return a.offset < b.offset
        }
        return ordered.flatMap(\.element)
    }

    /// Two ranges overlap, or are both insertions (or an insertion and a range) at the same place.
    private static func overlap(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        if a.isEmpty || b.isEmpty { return a.lowerBound >= b.lowerBound && a.lowerBound <= b.upperBound || b.lowerBound >= a.lowerBound && b.lowerBound <= a.upperBound }
        return a.overlaps(b)
    }
}

/// The outcome of fixing one file.
public struct FileFixResult: Sendable {
    /// The file's path as given.
    public var path: String
    public var original: [UInt8]
    public var fixed: [UInt8]
    /// Every fix applied, over all passes, in the order they were applied.
    public var applied: [Fix]
    /// The whole change as one RFC 6902 JSON Patch against `original`, its operations to be applied in order
    /// (`--fix-dry-run --format json`).
    public var patch: [PatchOperation]
    /// The report of the fixed text: what remains.
    public var report: FileReport

    public var changed: Bool { original != fixed }
}

extension Linter {
    /// Lints the file at `path`, applies the fixes of its diagnostics, and lints again, until no fix is left
    /// that applies (at most `maximumPasses` times; fixes that overlap land in later passes). Writes nothing:
    /// the caller decides (`--fix` writes `fixed`, `--fix-dry-run` shows the diff). A pass whose result would
    /// not parse as JSON is not taken (a fix must never break the file; none should). Returns nil for a file
    /// found in a directory that is not a map.
    public func fix(path: String, displayPath: String? = nil, isExplicit: Bool, maximumPasses: Int = 8) throws -> FileFixResult? {
        let original = try SourceFile.read(path: path).text.bytes
        var bytes = original
        var applied: [Fix] = []
        var patch: [PatchOperation] = []
        guard var report = try lint(path: path, displayPath: displayPath, text: SourceText(bytes: bytes), isExplicit: isExplicit) else { return nil }
        for _ in 0..<maximumPasses {
            let fixes = report.diagnostics.compactMap(\.fix)
            guard !fixes.isEmpty else { break }
            let (next, taken) = FixApplier.apply(fixes, to: bytes)
            guard !taken.isEmpty, next != bytes, (try? JSONParser.parse(SourceText(bytes: next))) != nil,
                  let relinted = try lint(path: path, displayPath: displayPath, text: SourceText(bytes: next), isExplicit: isExplicit) else { break }
            bytes = next
            applied += taken
            patch += FixApplier.sequentialPatch(taken)
            report = relinted
        }
        return FileFixResult(path: displayPath ?? path, original: original, fixed: bytes, applied: applied, patch: patch, report: report)
    }
}
