// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Release builds on Linux take SQLite from its static library when one is installed (Debian's and Ubuntu's
/// libsqlite3-dev ship it): the linker script in Scripts/link turns GRDB's `-lsqlite3` into `libsqlite3.a`, so
/// the static binary needs only the C library, libm and zlib where it runs. Without a libsqlite3.a the link
/// stays as it was (libsqlite3.so.0 must then be installed where the binary runs).
let staticSQLiteFolders = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                           "/usr/local/lib"]
let linksSQLiteStatically = staticSQLiteFolders.contains {
    FileManager.default.fileExists(atPath: $0 + "/libsqlite3.a")
}
let staticSQLiteFlags = linksSQLiteStatically ? ["-L", Context.packageDirectory + "/Scripts/link"] : []

/// Start-up of the release binary (a CLI run many times a minute by editors, hooks and CI): a position-
/// dependent executable needs none of the ~200,000 relocations a PIE applies to its Swift metadata at
/// every start (half the page faults), and one that exports no symbols spares the loader and `dladdr`
/// a 60,000-entry table. Measured by Benchmarks/static-binary.sh (README, "Static binary").
/// Linked by GNU ld (`bfd`), not the toolchain's default gold: a position-dependent executable linked by
/// gold against the dynamic Swift runtime takes the address of two protected runtime functions (the
/// getters of `Character.isWhitespace` and `String.count`) through canonical PLT entries, and glibc then
/// warns on stderr at every start ("direct reference to protected function ... may break pointer
/// equality"); bfd links them through dynamic relocations (`readelf -r`: R_X86_64_64). Same start-up
/// (hyperfine, static: 8.3-10.2 ms with each of gold, lld and bfd).
let releaseLinkerSettings: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=bfd", "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic"] + staticSQLiteFlags,
                 .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "MapRules",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "WebMap", targets: ["WebMap"]),
        .library(name: "Arcade", targets: ["Arcade"]),
        .library(name: "JSONSchema", targets: ["JSONSchema"]),
        .library(name: "Rules", targets: ["Rules"]),
        .library(name: "Report", targets: ["Report"]),
        .library(name: "Service", targets: ["Service"]),
        .library(name: "Server", targets: ["Server"]),
        .library(name: "FeatureServiceModel", targets: ["FeatureServiceModel"]),
        .library(name: "Runtime", targets: ["Runtime"]),
        .library(name: "LocalFeatureService", targets: ["LocalFeatureService"]),
        // The lint-side commands; `serve`, `edit` and `offline` run `maprules-service` (README, "Install").
        .executable(name: "maprules", targets: ["maprules"]),
        // The complete command line, service commands included: what a single-file install ships as `maprules`.
        .executable(name: "maprules-service", targets: ["maprules-service"]),
        // The runtime over HTTP alone, as an app would use it: builds without GRDB, PostgresNIO or bcrypt.
        .executable(name: "runtime-client-example", targets: ["RuntimeClientExample"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/onevcat/Rainbow", from: "4.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.65.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.21.0"),
        // Templates that escape every value by default, for the HTML pages and reports.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        // The PostgreSQL backend of the service store (`maprules serve --postgres URL`).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.20.0"),
    ],
    targets: [
        .target(name: "WebMap"),
        // Arcade, the expression language of pop-ups and forms: parser (source positions), analysis, evaluator and
        // function library. Foundation only.
        .target(name: "Arcade"),
        // Hand-written JSON Schema (2020-12, draft-07) validator over WebMap's position-keeping JSON tree.
        .target(name: "JSONSchema", dependencies: ["WebMap"]),
        .target(name: "Rules", dependencies: ["WebMap", "JSONSchema", "Arcade"]),
        // The REST model of a feature service: the JSON value, features, geometry, queries, edits, versions and
        // replicas as the ArcGIS REST API writes them. Shared by the service core, its HTTP face and the runtime
        // (whose HTTP client needs nothing else: no storage engine).
        .target(name: "FeatureServiceModel", dependencies: ["WebMap"]),
        // `maprules lsp`: a Language Server over stdio (LSP 3.17) running the same rule catalogue.
        .target(name: "LanguageServer", dependencies: ["Rules", "WebMap"]),
        .target(name: "Report", dependencies: ["Rules", "WebMap", "Arcade", "Rainbow", .product(name: "Mustache", package: "swift-mustache")]),
        // The feature service core: catalogue, branch-versioned store, edits, versions, users (no HTTP).
        .target(
            name: "Service",
            dependencies: [
                "WebMap", "Rules", "FeatureServiceModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C interface, to read a page's text columns in place (`SQLiteStore`'s cursor).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // SHA-256 of tokens kept in a shared store.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The HTTP face of the service core (Hummingbird 2): routes per resource group, auth middleware,
        // request decoding, the portal facade, TLS with a generated self-signed certificate.
        .target(
            name: "Server",
            dependencies: [
                "Service", "FeatureServiceModel", "WebMap",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                // The HTML services directory's templates (escaping by default).
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // The editing runtime: rules enforced while editing, over a `FeatureService` (any ArcGIS REST feature
        // service over HTTP with AsyncHTTPClient, or the service core in-process from LocalFeatureService). No
        // storage engine: an app that edits over HTTP links neither GRDB nor PostgresNIO.
        .target(
            name: "Runtime",
            dependencies: [
                "WebMap", "Rules", "FeatureServiceModel", "JSONSchema", "Arcade",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The service core in-process as the runtime's `FeatureService` (the "mock"), offline geodatabases (a
        // service core in a file) and the sync that takes a service offline and back.
        .target(name: "LocalFeatureService", dependencies: ["Runtime", "Service", "FeatureServiceModel", "WebMap", "Rules"]),
        // The lint-side commands of the command line, over the web map, rules and reports only.
        .target(
            name: "LintCommands",
            dependencies: [
                "WebMap", "JSONSchema", "Rules", "Report", "Rainbow", "LanguageServer", "Arcade",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `serve`, `edit` and `offline`.
        .target(
            name: "ServiceCommands",
            dependencies: [
                "LintCommands", "WebMap", "Rules", "Report", "Rainbow", "FeatureServiceModel", "Server", "Service", "Runtime",
                "LocalFeatureService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "maprules",
            dependencies: ["LintCommands", "Report", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: releaseLinkerSettings
        ),
        .executableTarget(
            name: "maprules-service",
            dependencies: ["LintCommands", "ServiceCommands", "Report", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            linkerSettings: releaseLinkerSettings
        ),
        .executableTarget(name: "RuntimeClientExample", dependencies: ["Runtime", "FeatureServiceModel"]),
        // Validation-only throughput for Benchmarks/schema-throughput.sh.
        .executableTarget(name: "SchemaBench", dependencies: ["WebMap", "JSONSchema"]),
        // The editing runtime's throughput and memory (in-process adds, overlay queries, pending edits) for
        // Benchmarks/runtime-throughput.sh.
        .executableTarget(name: "RuntimeBench", dependencies: ["Runtime", "LocalFeatureService", "FeatureServiceModel", "Service", "WebMap"]),
        // libFuzzer harness over parse + lint (Benchmarks/fuzz.sh builds it with -sanitize=fuzzer -D FUZZING);
        // the plain build is a driver that replays inputs: `swift run FuzzLint FILE...`.
        // The libFuzzer driver and the replay driver every harness below shares.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzLint", dependencies: ["WebMap", "Rules", "FuzzSupport"]),
        // libFuzzer harness over Arcade's parser, analysis and evaluator (Benchmarks/fuzz-arcade.sh, same two builds).
        .executableTarget(name: "FuzzArcade", dependencies: ["Arcade", "FuzzSupport"]),
        // libFuzzer harnesses over the JSON Schema `pattern` engine and the configuration glob matcher
        // (Benchmarks/fuzz-engines.sh regex|glob, same two builds).
        .executableTarget(name: "FuzzRegex", dependencies: ["WebMap", "JSONSchema", "FuzzSupport"]),
        .executableTarget(name: "FuzzGlob", dependencies: ["Rules", "FuzzSupport"]),
        // Arcade's parse + check and evaluation throughput for Benchmarks/arcade-throughput.sh.
        .executableTarget(name: "ArcadeBench", dependencies: ["Arcade"]),
        .testTarget(name: "WebMapTests", dependencies: ["WebMap"]),
        .testTarget(name: "ArcadeTests", dependencies: ["Arcade"]),
        .testTarget(name: "JSONSchemaTests", dependencies: ["JSONSchema", "WebMap"]),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "WebMap"]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "Rules", "WebMap"]),
        .testTarget(name: "CLITests", dependencies: ["Report", "Rules", "WebMap", "JSONSchema", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "ServiceTests", dependencies: ["Service", "FeatureServiceModel", "Rules", "WebMap", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(
            name: "RuntimeTests",
            dependencies: [
                "Runtime", "LocalFeatureService", "FeatureServiceModel", "Service", "Server", "Rules", "WebMap",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Server", "Service", "FeatureServiceModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Pages checked in a real browser: headless Chromium driven over the DevTools protocol (a pipe, no port).
        .testTarget(
            name: "BrowserTests",
            dependencies: [
                "Report", "Rules", "WebMap", "Server", "Service", "FeatureServiceModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v5]
)
