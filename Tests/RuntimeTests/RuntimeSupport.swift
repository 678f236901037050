import Foundation
import Runtime
import Service
import Testing
import WebMap
import FeatureServiceModel
import LocalFeatureService

/// In-process geodatabases over fresh in-memory copies of the samples.
enum Runtimes {
    static let editor01 = Credential.password(user: "editor01", password: "sample-editor01")
    static let editor02 = Credential.password(user: "editor02", password: "sample-editor02")
    static let admin = Credential.password(user: "admin", password: "sample-admin")

    static func service(_ sample: String, folder: String? = nil, credential: Credential? = editor01) async throws -> InProcessFeatureService {
        try await InProcessFeatureService.loading(folder: folder ?? Samples.folder + "/" + sample, usersFile: Samples.usersFile, credential: credential)
    }

    /// A loaded geodatabase of `sample`, with the sample's web map unless `withMap` is false.
    static func geodatabase(_ sample: String, folder: String? = nil, credential: Credential? = editor01, withMap: Bool = true,
                            map: WebMapDocument? = nil) async throws -> ServiceGeodatabase {
        let service = try await service(sample, folder: folder, credential: credential)
        let document = try map ?? (withMap ? webMap(Samples.folder + "/\(sample)/\(sample).json") : nil)
        let geodatabase = ServiceGeodatabase(service: service, map: document)
        try await geodatabase.load()
        return geodatabase
    }

    static func webMap(_ path: String) throws -> WebMapDocument {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try webMap(text: String(decoding: data, as: UTF8.self))
    }

    static func webMap(text: String) throws -> WebMapDocument {
        let source = SourceText(bytes: Array(text.utf8))
        let parsed = try JSONParser.parse(source)
        return try #require(WebMapDocument(root: parsed.root, source: source))
    }

    /// A copy of a sample folder in a temporary folder, its services snapshot changed by `edit`.
    static func modifiedSample(_ sample: String, _ edit: (inout [String: Any]) -> Void) throws -> String {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-runtime-\(UUID().uuidString)").appendingPathComponent(sample)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.folder + "/" + sample, toPath: target.path)
        let snapshot = target.appendingPathComponent("\(sample).services.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: snapshot)) as! [String: Any]
        edit(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: snapshot)
        return target.path
    }

    static let treesLayer = "https://maprules.example.com/arcgis/rest/services/TreesOfPortland/FeatureServer/0"
}

/// The error a throwing call fails with, as a `RuntimeError` (a test failure when it succeeds or throws another kind).
func runtimeError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> RuntimeError? {
    do {
        try await body()
        Issue.record("expected a RuntimeError, but the call succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as RuntimeError {
        return error
    } catch {
        Issue.record("expected a RuntimeError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Attributes from pairs.
func attrs(_ pairs: KeyValuePairs<String, AttributeValue>) -> Attributes { Attributes(pairs.map { ($0.key, $0.value) }) }

let point = { (x: Double, y: Double) in Geometry.point(Point(x: x, y: y)) }

/// The samples folder (`RemoteTestSupport.swift` finds it).
typealias Samples = RemoteSamples
let quietLogger = remoteTestLogger
