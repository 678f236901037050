// The editing runtime's in-process figures for Benchmarks/runtime-throughput.sh (issue 12 item 7): a
// ServiceGeodatabase over InProcessFeatureService (the service core on a fresh in-memory database loaded from a
// sample folder), editing layer 0 in a version of its own, as a crew would (editor01 by default).
//
//   swift run -c release RuntimeBench throughput --folder Benchmarks/generated-runtime/folders/Bench100k \
//       --users Samples/users.json [--runs 3] [--adds 10000] [--updates 5000] [--overlay-adds 5000]
//   swift run -c release RuntimeBench memory --folder ... --users ... [--edits 100000] [--updates 0]
//
// `throughput` measures
//   (a) `applyEdits()` sending N local adds (made with createFeature + add) in one service-level apply; each run
//       in a new version; prints the time of the adds and of the apply;
//   (b) with U local updates (rows spread evenly over the layer) and A local adds pending, queries of the
//       layer through `FeatureTable.queryFeatures` (the service's answer with the local edits overlaid): the
//       first page of 100 (no orderBy: object id order, local adds last), a filter matching about 1 % of the
//       rows, 100 object ids, a page at offset 50,000, and a count; best of the runs after one untimed warm-up;
//       each answer is checked (a wrong first page stops the run; the others' are reported with ok=0).
// `updates` opens the folder's service over `--database` (a file a first run loads; Benchmarks/runtime-throughput.sh
// grows its layer to 1,000,000 rows in SQLite between the two runs), and times U local updates of rows spread over
// the layer, one by one, each the read of the feature by object id and the update (`--updates`, default 200): the
// median and the slowest, after 10 untimed ones.
// `memory` loads the folder, notes the resident size, makes N pending local edits (U of them updates, the rest
// adds) and prints the resident size then and the process's peak (VmHWM; getrusage elsewhere). Run it in a
// process of its own, so that nothing else raises the peak.
//
// Output, one line per figure, `key=value` words (the first word names the figure), e.g.
//   adds run=1 features=10000 add_seconds=0.412 apply_seconds=0.318 rows_before=100000 rows_after=110000
//   query name=page seconds=0.0123 returned=100 ok=1 edits=10000 rows=100000
//   memory edits=100000 updates=0 adds=100000 edit_seconds=3.2 baseline_kb=81234 after_kb=201234 peak_kb=205000
//   updates rows=1000000 updates=200 median_ms=0.412 max_ms=1.230 total_seconds=0.090
// Progress goes to standard error. Exit 0 measured; 2 could not run (a wrong answer included).

import Foundation
import Runtime
import Service
import WebMap
#if canImport(Glibc)
import Glibc
import FeatureServiceModel
import LocalFeatureService
#endif

func say(_ message: String) {
    FileHandle.standardError.write(Data("RuntimeBench: \(message)\n".utf8))
}

func fail(_ message: String) -> Never {
    say(message)
    exit(2)
}

// MARK: Arguments

var mode = ""
var folder = ""
var usersFile: String?
var user = "editor01"
var password = "sample-editor01"
var runs = 3
var addCount = 10_000
var updateCount = 5_000
var overlayAddCount = 5_000
var memoryEdits = 100_000
/// The core's database: ":memory:", or a file that a first run loads and later runs reuse.
var databasePath = ":memory:"
var memoryUpdates = 0
var layerID = 0
/// `offline-edits`: the offline geodatabase to edit.
var offlineFile = ""

var arguments = CommandLine.arguments.dropFirst()
func value(_ name: String) -> String {
    guard let value = arguments.popFirst() else { fail("\(name) needs a value") }
    return value
}
func number(_ name: String) -> Int {
    guard let number = Int(value(name)), number >= 0 else { fail("\(name) needs a whole number") }
    return number
}
while let argument = arguments.popFirst() {
    switch argument {
    case "throughput", "memory", "offline-edits", "updates": mode = argument
    case "--file": offlineFile = value(argument)
    case "--folder": folder = value(argument)
    case "--users": usersFile = value(argument)
    case "--database": databasePath = value(argument)
    case "--user": user = value(argument)
    case "--password": password = value(argument)
    case "--runs": runs = max(1, number(argument))
    case "--adds": addCount = number(argument)
    case "--updates": updateCount = number(argument); memoryUpdates = updateCount
    case "--overlay-adds": overlayAddCount = number(argument)
    case "--edits": memoryEdits = number(argument)
    case "--layer": layerID = number(argument)
    case "-h", "--help":
        print("usage: RuntimeBench throughput|memory|updates --folder DIR [--users FILE] [--user U --password P] [--runs N] "
              + "[--adds N] [--updates N] [--overlay-adds N] [--edits N] [--layer ID]")
        exit(0)
    default: fail("unknown argument '\(argument)' (try --help)")
    }
}
if mode.isEmpty || (folder.isEmpty && mode != "offline-edits") || (mode == "offline-edits" && offlineFile.isEmpty) { fail("usage: RuntimeBench throughput|memory --folder DIR [--users FILE] ... (try --help)") }

// MARK: Helpers

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func seconds(since start: UInt64) -> Double { Double(now() - start) / 1e9 }
func format(_ value: Double, _ digits: Int = 6) -> String { String(format: "%.\(digits)f", value) }

/// A field of /proc/self/status in kB (VmRSS, VmHWM); getrusage's peak where there is no /proc.
func residentKB(_ field: String) -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
       let kb = Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty }?.trimmingCharacters(in: .whitespaces) ?? "") {
        return kb
    }
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss)
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss) / 1024
    #endif
}

/// A deterministic generator (the same edits every run).
struct Generator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

let damageTypes = ["Destroyed", "Major", "Minor", "Affected", "Inaccessible"]

/// The attributes and place of the i-th benchmark add (a point near the generated rows, in WGS84).
func newFeature(_ i: Int, _ generator: inout Generator, tag: String) -> (Attributes, Geometry) {
    let attributes = Attributes([
        ("incidentid", .string("BENCH-\(tag)")), ("placename", .string("Bench add \(i)")), ("fulladdr", .string("1 Main St, Naperville, IL 60540")),
        ("typdamage", .string(damageTypes[i % damageTypes.count])), ("primcause", .string("Wind")), ("inspdate", .int(1_721_499_180_000)),
        ("numstories", .int(Int64(1 + i % 3))), ("estloss", .double(Double(1000 + generator.next() % 499_000))),
        ("notes", .string("Added by RuntimeBench.")),
    ])
    let point = Point(x: -88.25 + generator.unit() * 0.2, y: 41.70 + generator.unit() * 0.2)
    return (attributes, .point(point))
}

@MainActor
func attempt<T>(_ what: String, _ body: () async throws -> T) async -> T {
    do { return try await body() } catch { fail("\(what): \(error)") }
}

/// The folder's service in-process, a geodatabase over it, loaded, in a new version of its own.
@MainActor
func openGeodatabase(versionName: String) async -> (ServiceGeodatabase, FeatureTable, Double) {
    let start = now()
    let service = await attempt("loading \(folder)") {
        try await InProcessFeatureService.loading(folder: folder, usersFile: usersFile, credential: .password(user: user, password: password),
                                                  database: databasePath)
    }
    let geodatabase = ServiceGeodatabase(service: service)
    await attempt("loading the geodatabase") { try await geodatabase.load() }
    let loadSeconds = seconds(since: start)
    await switchToNewVersion(geodatabase, versionName)
    let table = await attempt("opening layer \(layerID)") { try await geodatabase.table(layerID: layerID) }
    return (geodatabase, table, loadSeconds)
}

@MainActor
func switchToNewVersion(_ geodatabase: ServiceGeodatabase, _ name: String) async {
    if await attempt("reading the versioning", { try await geodatabase.supportsBranchVersioning }) {
        // A database file kept from an earlier run may hold the version already: a new name each time.
        let unique = databasePath == ":memory:" ? name : name + "_" + String(UInt32.random(in: 0...0xFFFFFF), radix: 16)
        let version = await attempt("creating the version \(unique)") { try await geodatabase.createVersion(name: unique, access: "private") }
        await attempt("switching to \(version.versionName)") { try await geodatabase.switchVersion(to: version.versionName) }
    } else {
        await geodatabase.setDefaultVersionPolicy(.allow)
    }
}

/// Makes `count` local adds; answers the seconds it took.
@MainActor
func makeAdds(_ table: FeatureTable, count: Int, tag: String, seed: UInt64) async -> Double {
    var generator = Generator(state: seed)
    let start = now()
    for i in 0..<count {
        let (attributes, geometry) = newFeature(i, &generator, tag: tag)
        let feature = await table.createFeature(attributes: attributes, geometry: geometry, spatialReference: .wgs84)
        _ = await attempt("adding feature \(i)") { try await table.add(feature) }
    }
    return seconds(since: start)
}

/// Makes `count` local updates of rows spread over the layer (object ids 1, 1 + rows / count, ...); answers the seconds.
@MainActor
func makeUpdates(_ table: FeatureTable, count: Int, rows: Int, seed: UInt64) async -> Double {
    var generator = Generator(state: seed)
    let step = max(1, rows / max(1, count))
    let start = now()
    for k in 0..<count {
        let objectId = Int64(1 + (k * step) % rows)
        var feature = await attempt("reading feature \(objectId)") { try await table.feature(objectId: objectId) }
        feature["estloss"] = .double(Double(1000 + generator.next() % 499_000))
        feature["notes"] = .string("Updated by RuntimeBench \(k).")
        await attempt("updating feature \(objectId)") { try await table.update(feature) }
    }
    return seconds(since: start)
}

// MARK: throughput


@MainActor
func throughput() async {
    let (geodatabase, table, loadSeconds) = await openGeodatabase(versionName: "BenchAdds0")
    let rows = await attempt("counting") { try await table.count() }
    say("loaded \(folder): \(rows) rows in layer \(layerID) (\(format(loadSeconds, 1)) s)")
    print("load rows=\(rows) seconds=\(format(loadSeconds, 3))")

    // (a) N local adds, one applyEdits; every run in a version of its own.
    for run in 1...runs {
        if run > 1 { await switchToNewVersion(geodatabase, "BenchAdds\(run)") }
        let before = await attempt("counting") { try await table.count() }
        let addSeconds = await makeAdds(table, count: addCount, tag: "A\(run)", seed: UInt64(run))
        let pending = await geodatabase.localEditCount
        guard pending == addCount else { fail("(a) \(pending) local edits pending, \(addCount) expected") }
        let start = now()
        let results = await attempt("(a) applyEdits") { try await geodatabase.applyEdits() }
        let applySeconds = seconds(since: start)
        let added = results.reduce(0) { $0 + $1.adds.filter { $0.success && ($0.objectId ?? 0) > 0 }.count }
        let after = await attempt("counting") { try await table.count() }
        guard added == addCount, after - before == addCount, await !geodatabase.hasLocalEdits else {
            fail("(a) applyEdits added \(added) features, the layer grew from \(before) to \(after); \(addCount) expected")
        }
        say("(a) run \(run): \(addCount) local adds in \(format(addSeconds, 3)) s, applyEdits in \(format(applySeconds, 3)) s")
        print("adds run=\(run) features=\(addCount) add_seconds=\(format(addSeconds)) apply_seconds=\(format(applySeconds)) rows_before=\(before) rows_after=\(after)")
    }

    // (b) U updates and A adds pending, in a version of their own, over the layer as it now is.
    await switchToNewVersion(geodatabase, "BenchOverlay")
    let total = await attempt("counting") { try await table.count() }
    let updateSeconds = await makeUpdates(table, count: updateCount, rows: rows, seed: 99)
    let overlayAddSeconds = await makeAdds(table, count: overlayAddCount, tag: "B", seed: 77)
    let edits = await geodatabase.localEditCount
    guard edits == updateCount + overlayAddCount else { fail("(b) \(edits) local edits pending, \(updateCount + overlayAddCount) expected") }
    say("(b) \(updateCount) local updates in \(format(updateSeconds, 3)) s, \(overlayAddCount) local adds in \(format(overlayAddSeconds, 3)) s, over \(total) rows")
    print("overlay rows=\(total) updates=\(updateCount) adds=\(overlayAddCount) update_seconds=\(format(updateSeconds)) add_seconds=\(format(overlayAddSeconds))")

    let step = max(1, rows / max(1, updateCount))
    let updatedIds = Set((0..<updateCount).map { Int64(1 + ($0 * step) % rows) })
    // 100 ids: half of them updated locally, half not.
    let someIds: [Int64] = (0..<100).map { k in k % 2 == 0 ? Int64(1 + (k * 977 * step) % rows) : Int64(2 + (k * 977 * step) % rows) }
    struct Shape {
        let name: String
        let query: FeatureQuery?
        let check: ([TableFeature]) -> String?
        /// A wrong answer of the target's query stops the benchmark; the others' are reported (`ok=0`).
        var isTarget = false
        var target: Shape {
            var shape = self
            shape.isTarget = true
            return shape
        }
    }
    let shapes: [Shape] = [
        Shape(name: "page", query: FeatureQuery(offset: 0, limit: 100)) { features in
            let ids = features.compactMap(\.objectId)
            if ids != (1...100).map(Int64.init) { return "first page: object ids \(ids.prefix(3))...\(ids.suffix(3)), 1...100 expected" }
            if let one = features.first(where: { updatedIds.contains($0.objectId ?? 0) }), one["notes"]?.string?.hasPrefix("Updated by RuntimeBench") != true {
                return "first page: feature \(one.objectId ?? 0) does not show its local update"
            }
            return nil
        }.target,
        Shape(name: "where", query: FeatureQuery(where: "estloss >= 495000")) { features in
            if features.isEmpty { return "estloss >= 495000 matched nothing" }
            if let bad = features.first(where: { ($0["estloss"]?.double ?? 0) < 495_000 }) { return "feature \(bad.objectId ?? 0) does not match estloss >= 495000" }
            if !features.contains(where: { ($0.objectId ?? 0) < 0 }) || !features.contains(where: { updatedIds.contains($0.objectId ?? 0) }) {
                return "estloss >= 495000: no local add or local update among \(features.count) features"
            }
            return nil
        },
        Shape(name: "ids", query: FeatureQuery(objectIds: someIds)) { features in
            features.count == Set(someIds).count ? nil : "100 object ids answered \(features.count) features"
        },
        Shape(name: "deep-page", query: FeatureQuery(offset: 50_000, limit: 100)) { features in
            let ids = features.compactMap(\.objectId)
            return ids == (50_001...50_100).map(Int64.init) ? nil : "page at 50,000: object ids \(ids.prefix(3))...\(ids.suffix(3))"
        },
        Shape(name: "count", query: nil) { _ in nil },
    ]
    for shape in shapes {
        var best = Double.infinity
        var returned = 0
        var problem: String?
        for run in 0...runs {  // run 0 is the warm-up
            let start = now()
            if let query = shape.query {
                let features = await attempt("(b) query \(shape.name)") { try await table.queryFeatures(query) }
                let elapsed = seconds(since: start)
                problem = problem ?? shape.check(features)
                returned = features.count
                if run > 0 { best = min(best, elapsed) }
            } else {
                let count = await attempt("(b) count") { try await table.count() }
                let elapsed = seconds(since: start)
                if count != total + overlayAddCount { problem = problem ?? "count answered \(count), \(total + overlayAddCount) expected" }
                returned = count
                if run > 0 { best = min(best, elapsed) }
            }
            if let problem, shape.isTarget { fail("(b) \(problem)") }
        }
        if let problem { say("(b) \(shape.name): WRONG ANSWER: \(problem)") }
        say("(b) \(shape.name): \(format(best * 1000, 2)) ms (best of \(runs)), \(returned) features")
        print("query name=\(shape.name) seconds=\(format(best)) returned=\(returned) ok=\(problem == nil ? 1 : 0) edits=\(edits) rows=\(total)")
    }
}

// MARK: updates

/// `updates --folder F --database DB --updates U`: U local updates, one at a time, each timed on its own.
@MainActor
func updateLatency() async {
    let (geodatabase, table, loadSeconds) = await openGeodatabase(versionName: "BenchUpdates")
    let rows = await attempt("counting") { try await table.count() }
    say("loaded \(folder) over \(databasePath): \(rows) rows in layer \(layerID) (\(format(loadSeconds, 1)) s)")
    let count = max(1, updateCount)
    let warmUp = 10
    let step = max(1, rows / (count + warmUp))
    var generator = Generator(state: 17)
    var times: [Double] = []
    for k in 0..<(warmUp + count) {
        let objectId = Int64(1 + (k * step) % rows)
        let start = now()
        var feature = await attempt("reading feature \(objectId)") { try await table.feature(objectId: objectId) }
        feature["estloss"] = .double(Double(1000 + generator.next() % 499_000))
        feature["notes"] = .string("Updated by RuntimeBench updates \(k).")
        await attempt("updating feature \(objectId)") { try await table.update(feature) }
        if k >= warmUp { times.append(seconds(since: start)) }
    }
    let pending = await geodatabase.localEditCount
    guard pending == warmUp + count else { fail("updates: \(pending) local edits pending, \(warmUp + count) expected") }
    // The last update reads back as it was made.
    let lastId = Int64(1 + ((warmUp + count - 1) * step) % rows)
    let last = await attempt("reading feature \(lastId) back") { try await table.feature(objectId: lastId) }
    guard last["notes"]?.string == "Updated by RuntimeBench updates \(warmUp + count - 1)." else { fail("updates: feature \(lastId) does not show its update") }
    let sorted = times.sorted()
    let median = sorted[sorted.count / 2]
    say("updates: \(count) local updates over \(rows) rows: median \(format(median * 1000, 3)) ms, slowest \(format(sorted.last! * 1000, 3)) ms")
    print("updates rows=\(rows) updates=\(count) median_ms=\(format(median * 1000, 3)) max_ms=\(format(sorted.last! * 1000, 3)) "
          + "total_seconds=\(format(times.reduce(0, +), 3))")
}

// MARK: memory

@MainActor
func memory() async {
    let (geodatabase, table, loadSeconds) = await openGeodatabase(versionName: "BenchMemory")
    let rows = await attempt("counting") { try await table.count() }
    let baseline = residentKB("VmRSS")
    let baselinePeak = residentKB("VmHWM")
    say("loaded \(folder): \(rows) rows (\(format(loadSeconds, 1)) s), resident \(baseline / 1024) MB (peak so far \(baselinePeak / 1024) MB)")
    let updates = min(memoryUpdates, memoryEdits)
    let start = now()
    if updates > 0 { _ = await makeUpdates(table, count: updates, rows: rows, seed: 5) }
    _ = await makeAdds(table, count: memoryEdits - updates, tag: "M", seed: 6)
    let editSeconds = seconds(since: start)
    let pending = await geodatabase.localEditCount
    guard pending == memoryEdits else { fail("memory: \(pending) local edits pending, \(memoryEdits) expected") }
    let after = residentKB("VmRSS")
    let peak = residentKB("VmHWM")
    say("memory: \(pending) pending local edits (\(updates) updates) made in \(format(editSeconds, 1)) s: resident \(after / 1024) MB, peak \(peak / 1024) MB")
    print("memory edits=\(pending) updates=\(updates) adds=\(pending - updates) rows=\(rows) edit_seconds=\(format(editSeconds, 3)) "
          + "baseline_kb=\(baseline) baseline_peak_kb=\(baselinePeak) after_kb=\(after) peak_kb=\(peak)")
    withExtendedLifetime(geodatabase) {}
}

// MARK: offline edits

/// `offline-edits --file F --adds N`: N local adds written into an offline geodatabase (made by `maprules offline
/// generate` of Bench100k), for Benchmarks/offline-sync.sh to sync.
@MainActor
func offlineEdits() async {
    let file = await attempt("opening \(offlineFile)") { try await OfflineGeodatabase.open(offlineFile) }
    let geodatabase = ServiceGeodatabase(service: file.featureService)
    await attempt("loading the geodatabase") { try await geodatabase.load() }
    let table = await attempt("opening layer \(layerID)") { try await geodatabase.table(layerID: layerID) }
    let addSeconds = await makeAdds(table, count: addCount, tag: "OFF", seed: 41)
    let start = now()
    _ = await attempt("applyEdits") { try await geodatabase.applyEdits() }
    let applySeconds = seconds(since: start)
    let pending = await attempt("counting pending edits") { try await file.pendingEdits().reduce(0) { $0 + $1.total } }
    guard pending == addCount else { fail("offline-edits: \(pending) edits pending in the file, \(addCount) expected") }
    file.close()
    say("offline-edits: \(addCount) adds in \(format(addSeconds, 3)) s, written into the file in \(format(applySeconds, 3)) s")
    print("offline-edits adds=\(addCount) add_seconds=\(format(addSeconds)) apply_seconds=\(format(applySeconds)) pending=\(pending)")
}

switch mode {
case "throughput": await throughput()
case "offline-edits": await offlineEdits()
case "updates": await updateLatency()
default: await memory()
}
