// Validation-only throughput: parses JSON files once, then validates them against a schema several times and
// prints the best time. Parsing, reading and reporting are left out, to show what the JSON Schema validator
// itself costs. Used by Benchmarks/schema-throughput.sh; `maprules validate` measures the whole command.
//
//   swift run -c release SchemaBench --schema webmap --runs 5 FILE|DIR ...
//
// Prints one line: `seconds=S bytes=B files=N violations=V`.

import Foundation
import JSONSchema
import WebMap

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("SchemaBench: \(message)\n".utf8))
    exit(2)
}

var schemaName = "webmap"
var runs = 5
var paths: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--schema":
        guard let value = arguments.popFirst() else { fail("--schema needs a value") }
        schemaName = value
    case "--runs":
        guard let value = arguments.popFirst().flatMap({ Int($0) }) else { fail("--runs needs a number") }
        runs = value
    default: paths.append(argument)
    }
}
if paths.isEmpty { fail("usage: SchemaBench [--schema NAME|FILE] [--runs N] FILE|DIR ...") }

let schema: Schema
do { schema = try SchemaArgument.load(schemaName) } catch { fail("\(error)") }

var files: [String] = []
let manager = FileManager.default
for path in paths {
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { fail("no such file: \(path)") }
    if !isDirectory.boolValue { files.append(path); continue }
    let entries = (manager.enumerator(atPath: path)?.allObjects as? [String]) ?? []
    files += entries.filter { $0.hasSuffix(".json") && !$0.hasSuffix("services.json") }.sorted().map { path + "/" + $0 }
}

var documents: [ParsedJSON] = []
var bytes = 0
for file in files {
    guard let data = manager.contents(atPath: file) else { fail("cannot read \(file)") }
    bytes += data.count
    do { documents.append(try JSONParser.parse(SourceText(bytes: [UInt8](data)))) } catch { fail("\(file): \(error)") }
}

var best = Double.infinity
var violations = 0
for _ in 0..<max(1, runs) {
    let start = DispatchTime.now().uptimeNanoseconds
    var count = 0
    for document in documents { count += schema.validate(document).count }
    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    violations = count
}
print("seconds=\(String(format: "%.6f", best)) bytes=\(bytes) files=\(documents.count) violations=\(violations)")
