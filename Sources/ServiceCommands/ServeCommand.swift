import ArgumentParser
import Foundation
import Logging
import Server
import Service
import LintCommands
import FeatureServiceModel
import WebMap

public struct ServeCommand: AsyncParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve sample folders as ArcGIS feature services (with branch versioning, tokens and a minimal portal).",
        discussion: """
            With no DIR it serves the shipped samples TreesOfPortland and DamageAssessment, with the sample \
            users (editor01, editor02, admin; development only), from the copy built into the binary: it works \
            from any folder. It prints the base URL, the port and every service URL, logs one line per \
            request, and stops on Ctrl-C.

            Examples:
              maprules serve --port 0
              maprules serve --tls --database :memory:
              maprules serve MyFolder --users users.yaml --database my.sqlite
              maprules serve --postgres postgres://maprules@127.0.0.1:5432/maprules

            With --postgres the service lives in that PostgreSQL database instead of a SQLite file (created \
            when missing, loaded on first start, reused after): run several `maprules serve --postgres` \
            processes on one database, on one machine or several behind a load balancer, and they act as one \
            service (tokens, versions, locks and object ids are shared; writes are serialized in the database).

            Then, with the port it printed (the trees with esri2geojson, from PyPI's esridump):
              curl 'http://127.0.0.1:PORT/arcgis/rest/services?f=pjson'
              esri2geojson http://127.0.0.1:PORT/arcgis/rest/services/\\
            TreesOfPortland/FeatureServer/0 trees.geojson
            """
    )

    @Argument(help: "Sample folders to serve (service metadata + features); default: the shipped samples.")
    var directories: [String] = []

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one and prints it.")
    var port = 8080

    @Option(help: "SQLite database file (created and loaded on first start), or :memory:.")
    var database = ".maprules/service.sqlite"

    @Option(help: ArgumentHelp("PostgreSQL URL, postgres://user[:password]@host[:port]/database (or ?host=/socket/folder): store the service there instead of --database.",
                               valueName: "url"))
    var postgres: String?

    @Option(name: .customLong("postgres-connections"), help: "Connections this process opens to PostgreSQL.")
    var postgresConnections = 8

    @Option(help: "Users file, JSON or YAML (.yaml/.yml); default with no DIR: the shipped sample users; otherwise none (anonymous full access).")
    var users: String?

    @Flag(help: "Serve HTTPS with a self-signed certificate made at start.")
    var tls = false

    @Option(name: .customLong("body-limit"), help: "Largest accepted request body: bytes, or with a K/M/G suffix.")
    var bodyLimit = "64M"

    public func run() async throws {
        guard (1...64).contains(postgresConnections) else {
            throw CommandFailure("--postgres-connections must be between 1 and 64, not \(postgresConnections).")
        }
        guard (0...65535).contains(port) else { throw CommandFailure("--port must be between 0 and 65535, not \(port).") }
        guard let limit = Self.byteCount(bodyLimit), limit > 0 else {
            throw CommandFailure("--body-limit must be a positive byte count such as 1048576, 512K or 64M, not '\(bodyLimit)'.")
        }
        for folder in directories where !FileManager.default.fileExists(atPath: folder) {
            throw CommandFailure("cannot read the folder '\(folder)'.")
        }
        // No DIR: the samples built into the binary, with their sample users unless --users names others.
        let samples = directories.isEmpty ? ShippedSamples.folders : directories.map(SampleFiles.folder)
        let shippedUsers = directories.isEmpty && users == nil ? try ShippedSamples.users() : nil

        LoggingSystem.bootstrap { ServeLogHandler(label: $0) }
        var request = ServeSession.Request(samples: samples, database: database, usersFile: users, users: shippedUsers,
                                           server: .init(host: host, port: port, tls: tls, bodyLimit: limit, portalSamples: samples))
        request.postgres = postgres
        request.postgresConnections = postgresConnections
        let session = ServeSession(request)
        do { try await session.run() } catch { throw CommandFailure(String(describing: error)) }
    }

    /// `1048576`, `512K`, `64M`, `1G` (binary multiples).
    static func byteCount(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased().replacingOccurrences(of: "B", with: "")
        let multipliers: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let last = trimmed.last, let multiplier = multipliers[last] {
            return Int(trimmed.dropLast()).map { $0 * multiplier }
        }
        return Int(trimmed)
    }
}
