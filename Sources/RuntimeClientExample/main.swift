import FeatureServiceModel
import Foundation
import Runtime
import WebMap

// An app's use of the editing runtime over HTTP, and the proof that it needs no storage engine: this executable
// links Runtime and FeatureServiceModel only (no GRDB, PostgresNIO or bcrypt; CLITests checks the binary).
//
//     swift run runtime-client-example http://127.0.0.1:8080/arcgis/rest/services/TreesOfPortland/FeatureServer
//
// prints each layer and table of the service with its feature count.
let arguments = CommandLine.arguments.dropFirst()
guard let url = arguments.first, arguments.count == 1 else {
    FileHandle.standardError.write(Data("usage: runtime-client-example FEATURE-SERVICE-URL\n".utf8))
    exit(2)
}
do {
    let service = try RemoteFeatureService(url: url, timeout: 30)
    let geodatabase = ServiceGeodatabase(service: service, map: nil)
    try await geodatabase.load()
    let description = try await service.describe()
    for (id, metadata) in description.layers {
        let count = try await service.queryCount(layer: id, QueryParameters())
        print("\(id)\t\(metadata["name"]?.string ?? "?")\t\(count) features")
    }
    try await service.shutdown()
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
