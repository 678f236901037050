import Foundation
import JSONSchema
import WebMap

let dir = CommandLine.arguments[1]
let t0 = Date()
let schema = try ShippedSchemas.schema(named: CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "webmap")
print("compile", Date().timeIntervalSince(t0))
var docs: [ParsedJSON] = []
var bytes = 0
let fm = FileManager.default
for sub in try fm.contentsOfDirectory(atPath: dir).sorted() {
    let d = dir + "/" + sub
    for f in (try? fm.contentsOfDirectory(atPath: d)) ?? [] where f.hasSuffix(".json") && !f.hasSuffix("services.json") {
        let data = fm.contents(atPath: d + "/" + f)!
        bytes += data.count
        docs.append(try JSONParser.parse(SourceText(bytes: [UInt8](data))))
    }
}
var best = Double.infinity
for _ in 0..<(Int(ProcessInfo.processInfo.environment["ITER"] ?? "5") ?? 5) {
    let t = Date()
    var n = 0
    for d in docs { n += schema.validate(d).count }
    let e = Date().timeIntervalSince(t)
    best = min(best, e)
    print(String(format: "%.3f s  %.0f MB/s  violations %d", e, Double(bytes) / e / 1e6, n))
}
