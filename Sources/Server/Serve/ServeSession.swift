import Foundation
import Hummingbird
import Logging
import Service
import FeatureServiceModel
import WebMap

/// `maprules serve`: opens the core, prints where everything is, serves until SIGINT/SIGTERM, and
/// finishes in-flight requests before it returns.
public struct ServeSession: Sendable {
    /// What `maprules serve` was asked for.
    public struct Request: Sendable {
        /// The sample folders to serve, on disk or built in (`ShippedSamples.folders`).
        public var samples: [SampleFiles]
        public var database: String
        public var usersFile: String?
        /// Users already read (`ShippedSamples.users()`); when set, `usersFile` is not read.
        public var users: UsersFile?
        public var server: MapRulesServer.Options
        /// A PostgreSQL URL: the store is that database (shared with other servers) instead of `database`.
        public var postgres: String?
        public var postgresConnections = 8

        public init(samples: [SampleFiles], database: String, usersFile: String?, users: UsersFile? = nil, server: MapRulesServer.Options) {
            self.samples = samples
            self.database = database
            self.usersFile = usersFile
            self.users = users
            self.server = server
        }

        /// Folders on disk.
        public init(folders: [String], database: String, usersFile: String?, server: MapRulesServer.Options) {
            self.init(samples: folders.map(SampleFiles.folder), database: database, usersFile: usersFile, server: server)
        }
    }

    public let request: Request
    /// Where start-up lines go (standard output by default, unbuffered so scripts can read the port).
    public let print: @Sendable (String) -> Void

    public init(_ request: Request, print: @escaping @Sendable (String) -> Void = ServeSession.standardOutput) {
        self.request = request
        self.print = print
    }

    public static let standardOutput: @Sendable (String) -> Void = { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    public func run() async throws {
        if request.database != ":memory:" && request.postgres == nil {
            let directory = (request.database as NSString).deletingLastPathComponent
            if !directory.isEmpty { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        }
        var configuration = ServiceCore.Configuration(database: request.database, samples: request.samples,
                                                      usersFile: request.usersFile, users: request.users)
        configuration.postgres = request.postgres
        configuration.postgresPoolSize = request.postgresConnections
        let core = try await ServiceCore.open(configuration)
        var logger = Logger(label: "maprules.serve")
        logger.logLevel = .info
        let print = self.print
        let startup = core.startup
        let options = request.server
        let database = request.postgres.map(PostgresURLText.redacted) ?? request.database
        let loadedFrom = request.samples.allSatisfy(\.isEmbedded) ? "the built-in samples" : "their folders"
        let app = try MapRulesServer.application(core: core, options: options, logger: logger) { running in
            print("MapRules feature service: \(running.baseURL)")
            print("  port: \(running.port)")
            var notes: [String] = []
            if !startup.loaded.isEmpty { notes.append("loaded \(startup.loaded.joined(separator: ", ")) from \(loadedFrom)") }
            if !startup.reused.isEmpty { notes.append("kept \(startup.reused.joined(separator: ", ")) as stored") }
            print("  database: \(database)" + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"))
            for name in core.serviceNames {
                print("  \(name): \(running.baseURL)/rest/services/\(name)/FeatureServer")
                if (try? core.service(name).isBranchVersioned) == true {
                    print("  \(name): \(running.baseURL)/rest/services/\(name)/VersionManagementServer")
                }
            }
            print("  portal: \(running.baseURL)/sharing/rest (token: POST \(running.baseURL)/sharing/rest/generateToken)")
            if let certificate = running.certificate {
                print("  TLS: self-signed certificate, SHA-256 \(certificate.fingerprint) (clients must not verify it, e.g. verify_cert=False)")
            }
            for warning in startup.warnings { print("warning: \(warning)") }
            if options.host != "127.0.0.1" && options.host != "localhost" && options.host != "::1" && !core.requiresAuthentication {
                print("warning: listening on \(options.host) with anonymous full access: anyone who reaches this address may edit.")
            }
            print("Listening; one log line per request. Stop with Ctrl-C (SIGINT) or SIGTERM.")
        }
        defer { LogLineWriter.standardError.flush() }
        try await app.runService()
        LogLineWriter.standardError.flush()
        print("MapRules feature service stopped.")
    }
}

/// A one-line log format for `maprules serve`: `2026-01-01T12:00:00Z GET /path 200 1.2ms user=editor01`.
public struct ServeLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    /// The metadata (never written to the line), `hb.request.id` apart in `requestID`.
    public var metadata: Logger.Metadata {
        get {
            var all = otherMetadata
            if let requestID { all[Self.requestIDKey] = requestID }
            return all
        }
        set {
            var others = newValue
            requestID = others.removeValue(forKey: Self.requestIDKey)
            otherMetadata = others
        }
    }
    let label: String
    /// Where the lines go: standard error, written by its own thread.
    let lines: LogLineWriter
    /// Hummingbird gives each request's logger its `hb.request.id`: kept in its own field, so that giving it copies
    /// no dictionary (that copy and its hashing were about 1 % of a page's CPU).
    private var requestID: Logger.Metadata.Value?
    private var otherMetadata: Logger.Metadata = [:]
    private static let requestIDKey = "hb.request.id"

    public init(label: String, lines: LogLineWriter = .standardError) {
        self.label = label
        self.lines = lines
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { key == Self.requestIDKey ? requestID : otherMetadata[key] }
        set {
            if key == Self.requestIDKey { requestID = newValue } else { otherMetadata[key] = newValue }
        }
    }

    /// The whole line appended at once to `lines` (lines of concurrent requests never interleave; standard error's
    /// writer writes them from a thread of its own, `LogLineWriter`), the time written as `Date().ISO8601Format()`
    /// writes it (UTC, whole seconds) without Foundation's formatter, which was most of a request log line's cost.
    public func log(event: LogEvent) {
        let message = event.message.description
        let level = event.level
        lines.append { line in
            Self.appendTimestamp(time(nil), to: &line)
            line.append(UInt8(ascii: " "))
            if level >= .warning { line.append(contentsOf: "\(level): ".utf8) }
            line.append(contentsOf: message.utf8)
            line.append(UInt8(ascii: "\n"))
        }
    }

    /// The line `log(event:)` writes for the message `"\(method) \(path) \(status) \(tenths / 10).\(tenths % 10)ms
    /// user=\(user)"` at `info` (`RequestLogMiddleware`'s), its bytes appended without making the message.
    func logRequest(method: String, path: String, status: Int, tenths: Int, user: String) {
        lines.append { line in
            Self.appendTimestamp(time(nil), to: &line)
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: method.utf8)
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: path.utf8)
            line.append(UInt8(ascii: " "))
            Self.appendDecimal(status, to: &line)
            line.append(UInt8(ascii: " "))
            Self.appendDecimal(tenths / 10, to: &line)
            line.append(UInt8(ascii: "."))
            Self.appendDecimal(tenths % 10, to: &line)
            line.append(contentsOf: "ms user=".utf8)
            line.append(contentsOf: user.utf8)
            line.append(UInt8(ascii: "\n"))
        }
    }

    /// `value` in decimal digits as `"\(value)"` writes it.
    static func appendDecimal(_ value: Int, to line: inout [UInt8]) {
        guard value >= 0 else {
            line.append(contentsOf: String(value).utf8)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            line.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// `seconds` since 1970 as `yyyy-MM-ddTHH:mm:ssZ` (UTC).
    static func appendTimestamp(_ seconds: time_t, to line: inout [UInt8]) {
        var clock = seconds
        var parts = tm()
        gmtime_r(&clock, &parts)
        func digits(_ value: Int32, _ count: Int) {
            var divisor: Int32 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                line.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: (rest / divisor) % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(parts.tm_year + 1900, 4)
        line.append(UInt8(ascii: "-"))
        digits(parts.tm_mon + 1, 2)
        line.append(UInt8(ascii: "-"))
        digits(parts.tm_mday, 2)
        line.append(UInt8(ascii: "T"))
        digits(parts.tm_hour, 2)
        line.append(UInt8(ascii: ":"))
        digits(parts.tm_min, 2)
        line.append(UInt8(ascii: ":"))
        digits(parts.tm_sec, 2)
        line.append(UInt8(ascii: "Z"))
    }
}
