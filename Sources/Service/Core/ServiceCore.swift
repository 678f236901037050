import Foundation
import Rules
import WebMap
import FeatureServiceModel

/// The feature service core: a catalogue of feature services loaded from sample folders into a store
/// (SQLite through GRDB, or PostgreSQL), a branch-versioned store, edit semantics, version management, users and tokens. No HTTP.
///
/// Every endpoint of docs/service.md maps to one method taking typed parameters and a `Caller`, and answering
/// a `Codable` value; refusals throw `ServiceError` (with the Esri code), per-feature edit failures are
/// `EditError`s inside the results. The HTTP face (Sources/Server) decodes requests into these calls; the
/// runtime calls the same methods in-process as its "mock" service.
///
/// ```swift
/// let core = try await ServiceCore.open(.init(database: ":memory:",
///                                             sampleFolders: ["Samples/TreesOfPortland"],
///                                             usersFile: "Samples/users.json"))
/// let editor = try await core.signIn(username: "editor01", password: "sample-editor01")
/// let trees = try await core.query(service: "TreesOfPortland", layer: 0, QueryParameters(where: "DBH > 10"), as: editor)
/// ```
public final class ServiceCore: Sendable {
    /// How to open the core.
    public struct Configuration: Sendable {
        /// A database file path, or ":memory:".
        public var database: String
        /// Sample folders on disk to load on first start (a service already in the database is not reloaded).
        public var sampleFolders: [String]
        /// More samples to load after `sampleFolders`, from disk or built in (`ShippedSamples.folders`).
        public var samples: [SampleFiles]
        /// The users file; nil for anonymous full access (unless `users` is given).
        public var usersFile: String?
        /// Users already read (`ShippedSamples.users()`); when set, `usersFile` is not read.
        public var users: UsersFile?
        /// Token lifetime when the caller does not ask for one, and the longest allowed, in minutes.
        public var defaultTokenMinutes: Int
        public var maximumTokenMinutes: Int
        /// One connection and a rollback journal instead of a pool in WAL mode: a file that stays one file
        /// (no `-wal` / `-shm` beside it) for a single process, such as an offline geodatabase.
        public var singleConnection = false
        /// A PostgreSQL URL (`postgres://user:password@host:port/database`): the store is that database, which
        /// several servers may share, instead of `database`.
        public var postgres: String?
        /// Connections each process opens to PostgreSQL.
        public var postgresPoolSize = 8

        public init(database: String = ":memory:", sampleFolders: [String] = [], samples: [SampleFiles] = [], usersFile: String? = nil,
                    users: UsersFile? = nil, defaultTokenMinutes: Int = 60, maximumTokenMinutes: Int = 21_600) {
            self.database = database
            self.sampleFolders = sampleFolders
            self.samples = samples
            self.usersFile = usersFile
            self.users = users
            self.defaultTokenMinutes = defaultTokenMinutes
            self.maximumTokenMinutes = maximumTokenMinutes
        }
    }

    /// What opening did, for the start-up log.
    public struct StartupReport: Sendable {
        /// Services loaded from their folders by this start (empty when all were already in the database).
        public var loaded: [String]
        /// Services that were already in the database.
        public var reused: [String]
        /// Warnings to print: anonymous full access, sample credentials in use.
        public var warnings: [String]
    }

    let database: any Store
    let directory: Directory
    let configuration: Configuration
    let sessions: SessionRegistry
    let pageAnchors = PageAnchors()
    public let startup: StartupReport
    private let catalogue: [String: ServiceModel]

    private init(database: any Store, directory: Directory, configuration: Configuration,
                 catalogue: [String: ServiceModel], startup: StartupReport) {
        self.database = database
        self.sessions = SessionRegistry(store: database)
        self.directory = directory
        self.configuration = configuration
        self.catalogue = catalogue
        self.startup = startup
    }

    /// Opens (creating or migrating) the database, loads the sample folders that are not in it yet, and
    /// reads the users file.
    public static func open(_ configuration: Configuration) async throws -> ServiceCore {
        let store = try await configuration.openStore()

        let usersFile = try configuration.users ?? configuration.usersFile.map(UsersFile.load(path:))
        let directory = Directory(file: usersFile, shared: store.sharesSessionsBetweenServers ? store : nil)

        var loaded: [String] = []
        var reused: [String] = []
        for files in configuration.sampleFolders.map(SampleFiles.folder) + configuration.samples {
            let sample = try SampleFolder.read(files)
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            // Checked and inserted in one write: two servers starting on one database load a sample once.
            let inserted = try await store.write { db in
                guard try db.fetchValue("SELECT 1 FROM service WHERE lower(name) = lower(\(sample.name))", as: Int64.self) == nil else {
                    return false
                }
                try sample.insert(into: db, now: now)
                return true
            }
            if inserted { loaded.append(sample.name) } else { reused.append(sample.name) }
        }
        if !loaded.isEmpty, let refresh = store.dialect.refreshStatistics {
            // Statistics of the rows just loaded, at once: until autovacuum gets to them, PostgreSQL plans
            // pages with guesses (measured: 640-730 paged queries/s on a fresh 100,000-row load, 1,020-1,220 after
            // VACUUM ANALYZE; ANALYZE alone, all a transaction allows, was not measured apart).
            try await store.write { db in try db.execute(refresh) }
        }

        let catalogue = try await store.read { db in try Self.readCatalogue(db) }
        var warnings: [String] = []
        if usersFile == nil {
            warnings.append("No users file: every caller has anonymous full access (queries, edits and version management).")
        } else if let usersFile, usersFile.hasSampleCredentials {
            let source = configuration.users == nil ? configuration.usersFile ?? "" : ShippedSamples.usersLocation
            warnings.append("Using the sample credentials of \(source) (editor01, editor02, admin): never use them outside development.")
        }
        return ServiceCore(database: store, directory: directory, configuration: configuration, catalogue: catalogue,
                           startup: StartupReport(loaded: loaded, reused: reused, warnings: warnings))
    }

    private static func readCatalogue(_ db: any StoreConnection) throws -> [String: ServiceModel] {
        var result: [String: ServiceModel] = [:]
        for service in try db.fetchRecords(ServiceRecord.self, "SELECT * FROM service ORDER BY name") {
            let root = try JSON.parse(service.root)
            let rootNode = try JSONParser.parse(service.root).root
            let settings = try JSONDecoder().decode(ServiceSettings.self, from: Data(service.settings.utf8))
            let serviceMax = settings.maxRecordCount ?? root["maxRecordCount"]?.int ?? 2000
            let layers = try db.fetchRecords(LayerRecord.self, "SELECT * FROM layer WHERE service = \(service.name) ORDER BY layerId").map { record in
                LayerModel(key: record.key!, id: record.layerId, json: try JSON.parse(record.metadata),
                           metadata: LayerMetadata(try JSONParser.parse(record.metadata).root), serviceMaxRecordCount: serviceMax)
            }
            result[service.name.lowercased()] = ServiceModel(name: service.name, root: root, rootMetadata: ServiceRootMetadata(rootNode),
                                                              settings: settings, layers: layers)
        }
        return result
    }

    // MARK: Catalogue

    /// The names of the loaded services, sorted.
    public var serviceNames: [String] { catalogue.values.map(\.name).sorted() }

    /// A loaded service by name (case-insensitive).
    public func service(_ name: String) throws -> ServiceModel {
        guard let model = catalogue[name.lowercased()] else { throw ServiceError.serviceNotFound(name) }
        return model
    }

    /// True when a users file is in force (anonymous callers then only query).
    public var requiresAuthentication: Bool { directory.isEnabled }

    /// The users of the users file (no hashes).
    public var users: [User] { directory.allUsers }

    /// The owners of a service named by the users file (the owner of `sde.DEFAULT`).
    public func owners(of service: String) -> [String] { directory.owners(of: service) }

    // MARK: Time

    static func nowMillis() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// A new moment for `service`: epoch milliseconds, strictly greater than every earlier moment.
    static func nextMoment(_ db: any StoreConnection, service: String) throws -> Int64 {
        guard let last = try db.fetchValue("SELECT lastMoment FROM service WHERE lower(name) = lower(\(service))", as: Int64.self) else {
            throw ServiceError.serviceNotFound(service)
        }
        let moment = max(nowMillis(), last + 1)
        try db.execute("UPDATE service SET lastMoment = \(moment) WHERE lower(name) = lower(\(service))")
        return moment
    }
}
