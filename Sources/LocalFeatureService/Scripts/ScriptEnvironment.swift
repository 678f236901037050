import Foundation
import Service
import WebMap
import FeatureServiceModel
import Runtime

/// Where an edit script runs (docs/edit-scripts.md "Where it runs"): `--service URL` talks HTTP to any ArcGIS REST
/// feature service; `--service DIR`, a folder in the format `maprules serve` reads, runs in-process against the
/// service core on a fresh in-memory database (the "mock"); `--service FILE.geodatabase` edits an offline
/// geodatabase made by `maprules offline generate` (no network; the edits stay in the file until a sync).
public struct ScriptEnvironment: Sendable {
    public var service: any FeatureService
    public var geodatabase: ServiceGeodatabase
    /// Called when the run is over (closes HTTP connections).
    public var close: @Sendable () async -> Void

    /// The target cannot be used: a missing folder, an unreadable map, a service that cannot be reached.
    public struct SetupError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Makes the service and the geodatabase for `script`: `target` (the `--service` value, else the script's
    /// `service`), credentials, the users file of an in-process run, the timeout of every request in seconds.
    public static func prepare(script: EditScript, target: String?, credential: Credential?, usersFile: String?,
                               timeout: Double) async throws -> ScriptEnvironment {
        guard let target = target ?? script.service else {
            throw SetupError(message: "No service: give --service URL|DIR, or `service:` in the script.")
        }
        let environment = try await prepare(target: target, map: script.map, credential: credential, usersFile: usersFile, timeout: timeout)
        await environment.geodatabase.setDefaultVersionPolicy(script.defaultVersionEdits)
        for behaviour in script.behaviours { await environment.geodatabase.register(behaviour) }
        return environment
    }

    /// Makes the service and the geodatabase of `target`: a feature service URL, an offline geodatabase file or
    /// a sample folder (run in-process), with the web map at `map` (nil: the service's own names).
    public static func prepare(target: String, map mapPath: String?, credential: Credential?, usersFile: String?,
                               timeout: Double) async throws -> ScriptEnvironment {
        let service: any FeatureService
        var close: @Sendable () async -> Void = {}
        if target.lowercased().hasPrefix("http://") || target.lowercased().hasPrefix("https://") {
            let remote: RemoteFeatureService
            do { remote = try RemoteFeatureService(url: target, credential: credential, timeout: timeout) } catch {
                throw SetupError(message: "\(target): \(error)")
            }
            service = remote
            close = { try? await remote.shutdown() }
        } else if Self.isFile(target) {
            // An offline geodatabase (`maprules offline generate`): edits stay in the file until a sync.
            let offline: OfflineGeodatabase
            do { offline = try await OfflineGeodatabase.open(target) } catch let error as RuntimeError {
                throw SetupError(message: error.message)
            }
            service = offline.featureService
            close = { offline.close() }
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory), isDirectory.boolValue else {
                if target.lowercased().hasSuffix(".geodatabase") {
                    throw SetupError(message: "\(target): no such geodatabase file (make one with `maprules offline generate`).")
                }
                throw SetupError(message: "\(target): not a feature service URL (http:// or https://), an offline geodatabase file, nor a sample folder (a folder with <Name>.services.json, as `maprules serve` reads); nothing of that name exists.")
            }
            if let usersFile, !FileManager.default.fileExists(atPath: usersFile) { throw SetupError(message: "\(usersFile): no such users file.") }
            do {
                let local = try await InProcessFeatureService.loading(folder: target, usersFile: usersFile)
                if let credential { try await local.signIn(credential) }
                service = local
            } catch let error as RuntimeError {
                throw SetupError(message: "\(target): \(error.message)")
            }
        }
        let map = try mapPath.map(Self.readMap)
        let geodatabase = ServiceGeodatabase(service: service, map: map)
        return ScriptEnvironment(service: service, geodatabase: geodatabase, close: close)
    }

    /// Signs in (remote credentials are exchanged at the first request) and loads the service's metadata.
    public func load(credential: Credential?) async throws {
        if credential != nil, service is RemoteFeatureService { try await service.signIn(credential) }
        try await geodatabase.load()
    }

    static func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    static func readMap(_ path: String) throws -> WebMapDocument {
        guard let data = FileManager.default.contents(atPath: path) else { throw SetupError(message: "\(path): cannot read the web map.") }
        let text = SourceText(bytes: [UInt8](data))
        let parsed: ParsedJSON
        do { parsed = try JSONParser.parse(text) } catch {
            let p = text.position(ofOffset: error.offset)
            throw SetupError(message: "\(path):\(p.line):\(p.column): the web map is not valid JSON: \(error.message)")
        }
        guard let document = WebMapDocument(root: parsed.root, source: text) else {
            throw SetupError(message: "\(path): not a web map (no operationalLayers, baseMap or itemData).")
        }
        return document
    }
}
