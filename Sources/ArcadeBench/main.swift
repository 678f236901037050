import Arcade
import Foundation

// Arcade throughput for Benchmarks/arcade-throughput.sh (release build, one thread):
//   1. parse + check 1 MB of pop-up and form expressions of the kind field maps carry: every expression parsed,
//      walked by the analysis, every call looked up in the function catalogue (what the arcade/ rules do);
//   2. evaluations per second of the constraint `$feature.Status == 'Damaged' && !IsEmpty($feature.Inspector)`;
//   3. a 20-expression form re-evaluated in full (visibility, required, editable, values) on one feature.
// Prints one line per measure: the best of `--repeat` runs.

let templates: [String] = [
    "IIf($feature.DBH > 20, 'big', 'small')",
    "var condition = DefaultValue($feature.Condition, 'unknown')\nreturn `${condition} (${$feature.Address})`",
    "// inspection summary\nvar d = $feature.Inspected_Date\nif (IsEmpty(d)) { return 'never inspected' }\nreturn 'inspected ' + Text(d, 'MMMM D, Y') + ' by ' + Proper($feature.Inspector)",
    "Decode($feature.Status, 'D', 'Damaged', 'I', 'Intact', 'Unknown')",
    "var total = 0\nfor (var i = 0; i < 10; i++) { total += i * $feature.Count }\nreturn Round(total / 3, 2)",
    "When($feature.Height > 30, 'tall', $feature.Height > 10, 'medium', 'short')",
    "var related = FeatureSetByRelationshipName($feature, 'Trees_Inspections', ['Condition'], false)\nreturn Count(Filter(related, \"Condition = 'Poor'\"))",
    "$feature.Status == 'Damaged' && !IsEmpty($feature.Inspector)",
    "function label(text) {\n  return Upper(Left(Trim(text), 12))\n}\nreturn label($feature.Name) + ' #' + $feature.OBJECTID",
    "var parts = Split($feature.Address, ' ')\nreturn Concatenate(Reverse(parts), ', ')",
    "Expects($feature, 'Status', 'Priority')\nvar p = Number($feature.Priority)\nreturn IIf(IsNan(p), 0, Constrain(p, 1, 5))",
    "var counts = {'Good': 0, 'Fair': 0, 'Poor': 0}\nfor (var k in counts) { counts[k] = Count(k) }\nreturn Text(counts)",
]

func corpus(bytes: Int) -> [String] {
    var result: [String] = []
    var size = 0
    var i = 0
    while size < bytes {
        let text = templates[i % templates.count] + "\n// expression \(i)"
        result.append(text)
        size += text.utf8.count
        i += 1
    }
    return result
}

func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

let arguments = CommandLine.arguments
let repeats = arguments.firstIndex(of: "--repeat").flatMap { Int(arguments[$0 + 1]) } ?? 5
// `--only parse|constraint|form|hostile`: one measure (for profiling).
let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
func measures(_ name: String) -> Bool { only == nil || only == name }

// 1. Parse + check.
if measures("parse") {
let expressions = corpus(bytes: 1 << 20)
let totalBytes = expressions.reduce(0) { $0 + $1.utf8.count }
var best = Double.infinity
var checked = 0
for _ in 0..<repeats {
    var unknown = 0
    let time = seconds {
        for text in expressions {
            guard case .success(let script) = ArcadeParser.parse(text) else { fatalError("a benchmark expression does not parse: \(text)") }
            let analysis = ArcadeAnalysis(script)
            for call in analysis.calls where !call.isDeclaredInExpression && !ArcadeFunctionCatalog.isKnown(call.name) { unknown += 1 }
        }
    }
    precondition(unknown == 0, "unknown functions in the benchmark corpus")
    checked = expressions.count
    best = min(best, time)
}
print(String(format: "parse+check: %d expressions, %.2f MB in %.1f ms (%.1f MB/s)", checked, Double(totalBytes) / 1_048_576,
             best * 1000, Double(totalBytes) / 1_048_576 / best))
}

// 2. A constraint evaluated again and again.
let constraint = try ArcadeProgram("$feature.Status == 'Damaged' && !IsEmpty($feature.Inspector)")
let feature = ArcadeFeature(attributes: ArcadeDictionary([("Status", .text("Damaged")), ("Inspector", .text("J. Doe")),
                                                          ("DBH", .number(25)), ("Count", .number(3))]))
let context = ArcadeEvaluationContext(profile: .formConstraint, feature: feature, now: 1_700_000_000_000)
let evaluations = 2_000_000
var bestRate = 0.0
for _ in 0..<(measures("constraint") ? repeats : 0) {
    var trues = 0
    let time = seconds {
        for _ in 0..<evaluations {
            if case .boolean(true) = try! constraint.evaluate(context) { trues += 1 }
        }
    }
    precondition(trues == evaluations, "the constraint did not evaluate to true")
    bestRate = max(bestRate, Double(evaluations) / time)
}
if measures("constraint") { print(String(format: "constraint: %.0f evaluations/s (%.0f ns each)", bestRate, 1e9 / bestRate)) }

// 3. A 20-element form: 20 expressions (constraints and calculations) re-evaluated in full.
let form: [(ArcadeProgram, ArcadeProfile)] = try (0..<20).map { i in
    switch i % 4 {
    case 0: return (try ArcadeProgram("$feature.Status == 'Damaged' && !IsEmpty($feature.Inspector)"), .formConstraint)
    case 1: return (try ArcadeProgram("$feature.DBH > \(i)"), .formConstraint)
    case 2: return (try ArcadeProgram("Upper(Left($feature.Inspector, 3)) + '-\(i)'"), .formCalculation)
    default: return (try ArcadeProgram("Round($feature.DBH * \(i) / 3, 1)"), .formCalculation)
    }
}
let passes = 20_000
var bestPass = Double.infinity
for _ in 0..<(measures("form") ? repeats : 0) {
    let time = seconds {
        for _ in 0..<passes {
            for (program, profile) in form {
                var c = context
                c.profile = profile
                _ = try! program.evaluate(c)
            }
        }
    }
    bestPass = min(bestPass, time / Double(passes))
}
if measures("form") { print(String(format: "form: 20 expressions re-evaluated in %.1f µs", bestPass * 1e6)) }

// 4. Hostile input, each timed alone: a clear error or a result within a second (release build).
let hostile: [(String, String)] = !measures("hostile") ? [] : [
    ("1 MB of '('", String(repeating: "(", count: 1 << 20)),
    ("a 100,000-iteration loop", "var n = 0; for (var i = 0; i < 100000; i++) { n += i }; n"),
    ("deep recursion", "function f(n) { return f(n + 1) }; f(0)"),
    ("an endless loop", "while (true) { }"),
    ("a 10 MB text literal", "Count('" + String(repeating: "abcdefghij", count: 1_000_000) + "')"),
]
let big = "var s = 'ab'; for (var i = 0; i < 22; i++) { s += s }; "  // 8 MB, doubled once more by some calls
let bigCalls = ["Count(Upper(s))", "Count(Lower(s))", "Find('abc', s)", "Count(Replace(s, 'ab', 'x'))", "Count(Left(s, 1e300))",
                "Count(Right(s, 1e300))", "Count(Mid(s, 1, 1e300))", "Count(Split(s, 'b'))", "Count(Trim(s))", "Count(Proper(s))",
                "Count(Reverse(Split(s, '')))", "Count(Concatenate([s, s]))", "Count(Text(s))", "Count(ToCharCode(s))",
                "Count(s + s)", "Count(`${s}${s}`)", "Includes(s, 'abc')", "Count(Split(s, ''))", "Count(Replace(s, '', '-'))",
                "Count(UrlEncode(s))", "Count(FromJSON(Text([s])))", "Count(Distinct(Split(s, '')))", "Count(Sort(Split(Left(s, 100000), '')))",
                "Count(StandardizeGuid(s, 'digits'))", "Count(Mid(s, 4000000, 10))", "Count(Text(Number(s)))", "Count(Guid())"]
var slowest = 0.0
for (name, text) in (measures("hostile") ? hostile + bigCalls.map { ("8 MB text: " + $0, big + $0) } : []) {
    var outcome = ""
    let time = seconds {
        do { outcome = try ArcadeEvaluator.evaluate(text).textValue }
        catch let error as ArcadeError { outcome = error.ruleId }
        catch { outcome = "\(error)" }
    }
    slowest = max(slowest, time)
    print(String(format: "hostile: %@ -> %@ in %.3f s%@", name, String(outcome.prefix(40)), time, time >= 1 ? "  (over 1 s)" : ""))
}
if measures("hostile") { print(String(format: "hostile: slowest %.3f s", slowest)) }
