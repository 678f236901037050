import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import Service
import FeatureServiceModel
import WebMap

/// The HTTP face of the service core: a Hummingbird router with the middleware chain
/// (request log → errors → parameters → authentication) and one route group per resource, run as an
/// `Application` under ServiceLifecycle (graceful shutdown on SIGINT/SIGTERM).
///
/// ```swift
/// let core = try await ServiceCore.open(.init(sampleFolders: ["Samples/TreesOfPortland"], usersFile: "Samples/users.json"))
/// let app = try MapRulesServer.application(core: core, options: .init(port: 0))
/// try await app.runService()
/// ```
public enum MapRulesServer {
    /// How to serve.
    public struct Options: Sendable {
        public var host: String
        /// 0 lets the system pick a free port (reported to `onRunning`).
        public var port: Int
        /// Serve HTTPS with a self-signed certificate made at start.
        public var tls: Bool
        /// Largest accepted request body, in bytes.
        public var bodyLimit: Int
        /// Sample folders (on disk or built in) whose web maps the portal facade serves as items.
        public var portalSamples: [SampleFiles]

        public static let defaultBodyLimit = 64 * 1024 * 1024

        /// `portalFolders` are folders on disk; `portalSamples` come after them.
        public init(host: String = "127.0.0.1", port: Int = 8080, tls: Bool = false, bodyLimit: Int = defaultBodyLimit, portalFolders: [String] = [],
                    portalSamples: [SampleFiles] = []) {
            self.host = host
            self.port = port
            self.tls = tls
            self.bodyLimit = bodyLimit
            self.portalSamples = portalFolders.map(SampleFiles.folder) + portalSamples
        }
    }

    /// The router with every route group and the middleware chain.
    public static func router(core: ServiceCore, site: SiteInfo, items: PortalItems, bodyLimit: Int = Options.defaultBodyLimit,
                              logger: Logger = Logger(label: "maprules.serve")) -> Router<MapRulesRequestContext> {
        let router = Router(context: MapRulesRequestContext.self, options: .caseInsensitive)
        router.add(middleware: RequestLogMiddleware(logger: logger))
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: ArgumentsMiddleware(bodyLimit: bodyLimit))
        router.add(middleware: AuthenticationMiddleware(core: core))
        ServicesDirectoryRoutes(core: core, site: site).register(on: router)
        SignInRoutes(core: core, site: site).register(on: router)
        Stylesheet.register(on: router)
        TokenRoutes(core: core, site: site).register(on: router)
        SharingRoutes(core: core, site: site, items: items).register(on: router)
        OAuthRoutes(core: core, site: site, signIns: OAuthSignIns()).register(on: router)
        FeatureServerRoutes(core: core).register(on: router)
        QueryRoutes(core: core).register(on: router)
        EditRoutes(core: core).register(on: router)
        AttachmentRoutes(core: core).register(on: router)
        VersionManagementRoutes(core: core).register(on: router)
        ReplicaRoutes(core: core, site: site).register(on: router)
        return router
    }

    /// What the server reports once it listens.
    public struct Running: Sendable {
        /// The port actually bound (the system's choice with `--port 0`).
        public var port: Int
        /// `http(s)://host:port/arcgis`.
        public var baseURL: String
        /// The self-signed certificate in use with `--tls`.
        public var certificate: SelfSignedCertificate?
    }

    /// The application: HTTP/1.1, or HTTPS with a fresh self-signed certificate; `router`'s routes, a layer's `query`
    /// reached without the router's trie when its path is in the usual form (`QueryRouteShortcut`).
    public static func application(core: ServiceCore, options: Options, logger: Logger = Logger(label: "maprules.serve"),
                                   onRunning: @escaping @Sendable (Running) async -> Void = { _ in }) throws
        -> Application<QueryRouteShortcut> {
        let urlHost = options.host.contains(":") ? "[\(options.host)]" : options.host
        let site = SiteInfo(tls: options.tls, fallbackAuthority: "\(urlHost):\(options.port)")
        let router = router(core: core, site: site, items: PortalItems.load(samples: options.portalSamples), bodyLimit: options.bodyLimit, logger: logger)
        let certificate = options.tls ? try SelfSignedCertificate.make(host: options.host) : nil
        let server: HTTPServerBuilder
        if let made = certificate {
            let configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(made.certificatePEM.utf8), format: .pem))],
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(made.privateKeyPEM.utf8), format: .pem)))
            server = try .tls(.http1OnEventLoops(), tlsConfiguration: configuration)
        } else {
            server = .http1OnEventLoops()
        }
        let scheme = options.tls ? "https" : "http"
        return Application(
            responder: QueryRouteShortcut(router: router, query: QueryRoutes(core: core).query),
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(options.host, port: options.port), serverName: "MapRules"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? options.port
                await onRunning(Running(port: port, baseURL: "\(scheme)://\(urlHost):\(port)/arcgis", certificate: certificate))
            },
            eventLoopGroupProvider: .shared(ServerEventLoops.group),
            logger: logger
        )
    }
}
