import ArgumentParser
import Foundation
import Runtime
import Service
import LintCommands
import LocalFeatureService
import FeatureServiceModel
import WebMap

struct OfflineGenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Register a replica on a feature service and write its data to a new local geodatabase (one SQLite file).",
        discussion: """
            Without --layers every layer and table is taken; without --extent every feature. \
            The file appears only when complete (an existing file is never overwritten).

            Example:
              maprules offline generate --service http://127.0.0.1:8080/arcgis/rest/\\
            services/TreesOfPortland/FeatureServer --output trees.geodatabase \\
                --extent -122.70,45.50,-122.60,45.56 --user editor01 --password sample-editor01
            """
    )

    @Option(help: "The feature service URL (.../FeatureServer).")
    var service: String

    @Option(help: "The geodatabase file to write (must not exist).")
    var output: String

    @Option(help: "Layer and table ids, comma-separated (default: all).")
    var layers: String?

    // .unconditional: western and southern coordinates start with a minus, which would otherwise read as an option.
    @Option(parsing: .unconditional, help: "Only features intersecting XMIN,YMIN,XMAX,YMAX[,WKID] (default WKID 4326).")
    var extent: String?

    @Flag(name: .customLong("no-attachments"), help: "Leave attachments out.")
    var noAttachments = false

    @Option(name: .customLong("sync-model"), help: "per-replica or per-layer generations.")
    var syncModel: SyncModelChoice = .perReplica

    @Option(help: "bidirectional, upload or download.")
    var direction: DirectionChoice = .bidirectional

    @Option(name: .customLong("gdb-version"), help: "The version to take offline (branch-versioned services; default: the default version).")
    var gdbVersion: String?

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var outputOptions: OfflineOutputOptions

    enum SyncModelChoice: String, ExpressibleByArgument, CaseIterable {
        case perReplica = "per-replica", perLayer = "per-layer"
        var model: SyncModel { self == .perLayer ? .perLayer : .perReplica }
    }

    func validate() throws {
        if let layers { _ = try Self.layerIds(layers) }
        if let extent { _ = try Self.envelope(extent) }
    }

    static func layerIds(_ text: String) throws -> [Int] {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let ids = parts.compactMap { Int($0) }
        guard !parts.isEmpty, ids.count == parts.count, ids.allSatisfy({ $0 >= 0 }) else {
            throw ValidationError("--layers takes layer ids separated by commas (0,3), not '\(text)'.")
        }
        return ids
    }

    static func envelope(_ text: String) throws -> (Envelope, SpatialReference) {
        let numbers = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4 || numbers.count == 5, numbers.allSatisfy({ $0?.isFinite ?? false }) else {
            throw ValidationError("--extent takes XMIN,YMIN,XMAX,YMAX[,WKID] (numbers), not '\(text)'.")
        }
        let n = numbers.map { $0! }
        guard n[0] <= n[2], n[1] <= n[3] else { throw ValidationError("--extent: XMIN must not exceed XMAX, nor YMIN YMAX ('\(text)').") }
        let wkid = n.count == 5 ? Int(n[4]) : 4326
        return (Envelope(xmin: n[0], ymin: n[1], xmax: n[2], ymax: n[3]), SpatialReference(wkid: wkid))
    }

    func run() async throws {
        let (url, output, layersText, extentText) = (service, output, layers, extent)
        let (attachments, model, syncDirection, version) = (!noAttachments, syncModel.model, direction.direction, gdbVersion)
        let connection = connection, options = outputOptions
        try await OfflineRun.run("Generating \(output)") {
            guard !FileManager.default.fileExists(atPath: output) else {
                throw OfflineFailure(code: 2, message: "'\(output)' exists already: choose a new file (nothing was generated).")
            }
            let geodatabase = try await connection.withService(url) { remote in
                let task = SyncTask(service: remote)
                let area = try extentText.map(Self.envelope)
                var parameters = try await task.defaultGenerateParameters(extent: area?.0, spatialReference: area?.1)
                if let layersText { parameters.layers = try Self.layerIds(layersText) } else {
                    parameters.layers = try await remote.describe().layers.map(\.id)
                }
                parameters.returnAttachments = attachments
                parameters.syncModel = model
                if parameters.syncDirection != .download { parameters.syncDirection = syncDirection }
                parameters.gdbVersion = version
                let bar = ProgressBar("generating", enabled: options.showsProgress)
                let job = task.generateGeodatabase(parameters: parameters, to: output)
                let watcher = Task { for await value in job.progress { bar.update(value) } }
                do {
                    let made = try await job.result()
                    await watcher.value
                    bar.finish()
                    return made
                } catch {
                    await watcher.value
                    bar.finish()
                    throw error
                }
            }
            defer { geodatabase.close() }
            let state = try await geodatabase.state()
            let summaries = try await geodatabase.core.offlineLayerSummaries()
            switch options.format {
            case .json:
                printJSON(.object([
                    ("replicaID", .string(state.replicaID)), ("file", .string(output)),
                    ("layers", .array(summaries.map { .object([("id", .int($0.id)), ("name", .string($0.name)), ("features", .int($0.features)),
                                                              ("attachments", .int($0.attachments))]) })),
                    ("serverGen", .int(Int(state.serverGen))),
                ]))
            case .text:
                print("Generated \(output): replica \(state.replicaID) of \(state.serviceURL) at generation \(state.serverGen)")
                for layer in summaries { print("  \(layer.id) \(layer.name): \(layer.features) features, \(layer.attachments) attachments") }
            }
        }
    }
}

enum DirectionChoice: String, ExpressibleByArgument, CaseIterable {
    case bidirectional, upload, download
    var direction: SyncDirection { SyncDirection(rawValue: rawValue) ?? .bidirectional }
}
