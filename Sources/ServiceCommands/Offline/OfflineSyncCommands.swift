import ArgumentParser
import Foundation
import Runtime
import Service
import LintCommands
import LocalFeatureService
import FeatureServiceModel
import WebMap

/// Opens the geodatabase at `path` (taking its lock), runs `body`, closes it.
func withGeodatabase<T: Sendable>(_ path: String, _ body: (OfflineGeodatabase) async throws -> T) async throws -> T {
    let geodatabase = try await OfflineGeodatabase.open(path)
    do {
        let result = try await body(geodatabase)
        geodatabase.close()
        return result
    } catch {
        geodatabase.close()
        throw error
    }
}

struct OfflineSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Upload the local edits since the last sync and download the service's changes (last in wins).",
        discussion: """
            Exit 1 when the service refused the upload (nothing is marked synced: fix and sync \
            again), 2 when it cannot be reached or the file cannot be used.

            Example:
              maprules offline sync trees.geodatabase --user editor01 --password sample-editor01
            """
    )

    @Argument(help: "The geodatabase file.")
    var file: String

    @Option(help: "bidirectional, upload or download.")
    var direction: DirectionChoice = .bidirectional

    @Flag(name: .customLong("no-rollback"), help: "Let the service keep the edits it accepts when others fail.")
    var noRollback = false

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var outputOptions: OfflineOutputOptions

    func run() async throws {
        let (file, direction, rollback, connection, options) = (file, direction.direction, !noRollback, connection, outputOptions)
        try await OfflineRun.run("Synchronizing \(file)") {
            let result = try await withGeodatabase(file) { geodatabase in
                let state = try await geodatabase.state()
                return try await connection.withService(state.serviceURL) { remote in
                    let bar = ProgressBar("syncing", enabled: options.showsProgress)
                    bar.update(0.05)
                    let outcome = try await SyncTask(service: remote).sync(geodatabase: geodatabase, direction: direction, rollbackOnFailure: rollback)
                    bar.update(1)
                    return outcome
                }
            }
            switch options.format {
            case .json:
                func counts(_ c: SyncResult.Counts) -> JSON {
                    .object([("adds", .int(c.adds)), ("updates", .int(c.updates)), ("deletes", .int(c.deletes)), ("attachments", .int(c.attachments))])
                }
                printJSON(.object([
                    ("uploaded", counts(result.uploaded)), ("downloaded", counts(result.downloaded)),
                    ("conflicts", .array(result.conflicts.map { .object([("layer", .int($0.layer)), ("globalId", .string($0.globalId)), ("winner", .string($0.winner.rawValue))]) })),
                    ("serverGen", .int(Int(result.serverGen))),
                ]))
            case .text:
                let up = result.uploaded, down = result.downloaded
                print("Synced \(file) (\(result.direction.rawValue)): uploaded \(up.adds) adds, \(up.updates) updates, \(up.deletes) deletes, \(up.attachments) attachment edits; "
                      + "downloaded \(down.adds) adds, \(down.updates) updates, \(down.deletes) deletes, \(down.attachments) attachment edits; generation \(result.serverGen)")
                for conflict in result.conflicts { print("  conflict: layer \(conflict.layer) feature \(conflict.globalId): the \(conflict.winner.rawValue) edit won") }
            }
        }
    }
}

struct OfflineStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show a geodatabase's service, replica, generation, last sync and pending local edits per layer."
    )

    @Argument(help: "The geodatabase file.")
    var file: String

    @OptionGroup var outputOptions: OfflineOutputOptions

    func run() async throws {
        let (file, options) = (file, outputOptions)
        try await OfflineRun.run("Reading \(file)") {
            let (state, pending) = try await withGeodatabase(file) { geodatabase in
                (try await geodatabase.state(), try await geodatabase.pendingEdits())
            }
            let total = pending.reduce(0) { $0 + $1.total }
            switch options.format {
            case .json:
                printJSON(.object([
                    ("file", .string(file)), ("service", .string(state.serviceURL)), ("replicaID", .string(state.replicaID)),
                    ("replicaName", .string(state.replicaName)), ("registered", .bool(state.isRegistered)),
                    ("serverGen", .int(Int(state.serverGen))), ("lastSync", state.lastSyncDate.map { .int(Int($0)) } ?? .null),
                    ("pendingEdits", .int(total)),
                    ("layers", .array(pending.map { .object([("id", .int($0.layer)), ("name", .string($0.name)), ("adds", .int($0.adds)),
                                                            ("updates", .int($0.updates)), ("deletes", .int($0.deletes)), ("attachments", .int($0.attachments))]) })),
                ]))
            case .text:
                let lastSync = state.lastSyncDate.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double($0) / 1000)) } ?? "never"
                print("\(file): replica \(state.replicaID) (\(state.replicaName))\(state.isRegistered ? "" : ", unregistered (read-only)")")
                print("  service     \(state.serviceURL)")
                print("  generation  \(state.serverGen)")
                print("  last sync   \(lastSync)")
                print("  pending     \(total == 0 ? "no local edits" : "\(total) local edits")")
                for layer in pending where layer.total > 0 {
                    print("    \(layer.layer) \(layer.name): \(layer.adds) adds, \(layer.updates) updates, \(layer.deletes) deletes, \(layer.attachments) attachment edits")
                }
            }
        }
    }
}

struct OfflineExportDeltaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-delta",
        abstract: "Write the local edits since the last sync to a delta file, changing nothing in the geodatabase."
    )

    @Argument(help: "The geodatabase file.")
    var file: String

    @Option(help: "The delta file to write.")
    var output: String

    @OptionGroup var outputOptions: OfflineOutputOptions

    func run() async throws {
        let (file, output, options) = (file, output, outputOptions)
        try await OfflineRun.run("Exporting the edits of \(file)") {
            let counts = try await withGeodatabase(file) { try await SyncTask.exportDelta(geodatabase: $0, to: output) }
            report(counts, verb: "Exported", file: output, options: options)
        }
    }
}

struct OfflineImportDeltaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-delta",
        abstract: "Apply a delta downloaded by other means (a synchronizeReplica answer for this replica)."
    )

    @Argument(help: "The geodatabase file.")
    var file: String

    @Argument(help: "The delta file.")
    var delta: String

    @OptionGroup var outputOptions: OfflineOutputOptions

    func run() async throws {
        let (file, delta, options) = (file, delta, outputOptions)
        try await OfflineRun.run("Importing \(delta) into \(file)") {
            let counts = try await withGeodatabase(file) { try await SyncTask.importDelta(geodatabase: $0, from: delta) }
            report(counts, verb: "Imported", file: delta, options: options)
        }
    }
}

private func report(_ counts: SyncResult.Counts, verb: String, file: String, options: OfflineOutputOptions) {
    switch options.format {
    case .json:
        printJSON(.object([("adds", .int(counts.adds)), ("updates", .int(counts.updates)), ("deletes", .int(counts.deletes)),
                           ("attachments", .int(counts.attachments))]))
    case .text:
        print("\(verb) \(file): \(counts.adds) adds, \(counts.updates) updates, \(counts.deletes) deletes, \(counts.attachments) attachment edits")
    }
}

struct OfflineRegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register a copy of a pre-planned geodatabase as a new replica (before its first sync).",
        discussion: """
            A file that is still registered (it got its replica here, from generate or register) is refused: \
            registering it again would leave its replica behind on the service. --force unregisters that replica \
            first. A copy of a registered file, found at another path, gets a replica of its own.

            Example: cp planned.geodatabase crew3.geodatabase && maprules offline register crew3.geodatabase --user editor01
            """
    )

    @Argument(help: "The geodatabase file (a copy).")
    var file: String

    @Flag(help: "Register a file that is still registered: unregister its replica from the service first.")
    var force = false

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var outputOptions: OfflineOutputOptions

    func run() async throws {
        let (file, connection, options, force) = (file, connection, outputOptions, force)
        try await OfflineRun.run("Registering \(file)") {
            let state = try await withGeodatabase(file) { geodatabase in
                let url = try await geodatabase.state().serviceURL
                return try await connection.withService(url) { try await SyncTask(service: $0).register(copy: geodatabase, force: force) }
            }
            switch options.format {
            case .json: printJSON(.object([("replicaID", .string(state.replicaID)), ("file", .string(file)), ("serverGen", .int(Int(state.serverGen)))]))
            case .text: print("Registered \(file) as replica \(state.replicaID) of \(state.serviceURL) at generation \(state.serverGen)")
            }
        }
    }
}

struct OfflineUnregisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unregister",
        abstract: "Remove a geodatabase's replica from its service; the file stays, read-only."
    )

    @Argument(help: "The geodatabase file.")
    var file: String

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var outputOptions: OfflineOutputOptions

    func run() async throws {
        let (file, connection, options) = (file, connection, outputOptions)
        try await OfflineRun.run("Unregistering \(file)") {
            let id = try await withGeodatabase(file) { geodatabase in
                let state = try await geodatabase.state()
                try await connection.withService(state.serviceURL) { try await SyncTask(service: $0).unregister(geodatabase: geodatabase) }
                return state.replicaID
            }
            switch options.format {
            case .json: printJSON(.object([("replicaID", .string(id)), ("file", .string(file)), ("registered", .bool(false))]))
            case .text: print("Unregistered replica \(id); \(file) stays, read-only")
            }
        }
    }
}
