import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import Server
import Service
import FeatureServiceModel
import WebMap

/// The repository's Samples folder, found from this file's path.
enum Fixtures {
    static let samples: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("Samples")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("users.json").path) { return candidate.path }
        }
        return "Samples"
    }()

    static var folders: [String] { [samples + "/TreesOfPortland", samples + "/DamageAssessment"] }
    static var usersFile: String { samples + "/users.json" }

    static func core(users: Bool = true) async throws -> ServiceCore {
        try await ServiceCore.open(.init(database: ":memory:", sampleFolders: folders, usersFile: users ? usersFile : nil))
    }

    /// The server's router over a fresh in-memory core with both samples.
    static func app(users: Bool = true, bodyLimit: Int = MapRulesServer.Options.defaultBodyLimit,
                    logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) async throws
        -> some ApplicationProtocol {
        let core = try await core(users: users)
        let router = MapRulesServer.router(core: core, site: SiteInfo(tls: false, fallbackAuthority: "127.0.0.1:8080"),
                                           items: PortalItems.load(folders: folders), bodyLimit: bodyLimit, logger: logger)
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
    }
}

/// `application/x-www-form-urlencoded` bodies and headers.
enum Form {
    static let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    static func body(_ pairs: [(String, String)]) -> ByteBuffer {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let text = pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&")
        return ByteBuffer(string: text)
    }

    static func query(_ pairs: [(String, String)]) -> String { String(buffer: body(pairs)) }

    /// A `multipart/form-data` body: text fields, and optionally one file part.
    static func multipart(_ fields: [(String, String)], file: (name: String, filename: String, type: String, data: Data)? = nil)
        -> (HTTPFields, ByteBuffer) {
        let boundary = "----maprules-test-\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        if let file {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: \(file.type)\r\n\r\n".utf8))
            body.append(file.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return ([.contentType: "multipart/form-data; boundary=\(boundary)"], ByteBuffer(bytes: body))
    }
}

extension TestResponse {
    /// The body parsed as JSON (a test failure when it is not).
    var json: JSON {
        get throws { try JSON.parse(String(buffer: body)) }
    }

    var text: String { String(buffer: body) }
}

extension JSON {
    /// `{"error": {"code": N}}` → N.
    var errorCode: Int? { self["error"]?["code"]?.int }

    subscript(index: Int) -> JSON? {
        guard let items = array, items.indices.contains(index) else { return nil }
        return items[index]
    }
}

extension TestClientProtocol {
    /// Signs in through `/arcgis/sharing/rest/generateToken` and answers the token.
    func token(_ username: String = "editor01", _ password: String? = nil) async throws -> String {
        let response = try await execute(uri: "/arcgis/sharing/rest/generateToken", method: .post, headers: Form.headers,
                                         body: Form.body([("username", username), ("password", password ?? "sample-\(username)"), ("f", "json")]))
        let token = try response.json["token"]?.string
        #expect(token != nil, "generateToken answered \(response.text)")
        return token ?? ""
    }

    /// POSTs a form and answers the parsed JSON.
    func post(_ uri: String, _ pairs: [(String, String)], headers: HTTPFields = [:]) async throws -> JSON {
        var all = Form.headers
        all.append(contentsOf: headers)
        let response = try await execute(uri: uri, method: .post, headers: all, body: Form.body(pairs))
        #expect(response.status == .ok, "\(uri): HTTP \(response.status)")
        return try response.json
    }

    /// GETs with query parameters and answers the parsed JSON.
    func get(_ uri: String, _ pairs: [(String, String)] = [], headers: HTTPFields = [:]) async throws -> JSON {
        let response = try await execute(uri: pairs.isEmpty ? uri : "\(uri)?\(Form.query(pairs))", method: .get, headers: headers)
        return try response.json
    }
}

/// A log handler that keeps every line, to check what the request log says (and never says).
final class CapturedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _lines: [String] = []
    var lines: [String] { lock.withLock { _lines } }
    func append(_ line: String) { lock.withLock { _lines.append(line) } }

    var logger: Logger {
        Logger(label: "capture") { _ in CapturingHandler(log: self) }
    }

    struct CapturingHandler: LogHandler {
        let log: CapturedLog
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { log.append(event.message.description) }
    }
}
