// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MapRules",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "WebMap", targets: ["WebMap"]),
        .library(name: "JSONSchema", targets: ["JSONSchema"]),
        .library(name: "Rules", targets: ["Rules"]),
        .library(name: "Report", targets: ["Report"]),
        .library(name: "Service", targets: ["Service"]),
        .executable(name: "maprules", targets: ["maprules"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/onevcat/Rainbow", from: "4.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.0.0"),
    ],
    targets: [
        .target(name: "WebMap"),
        // Hand-written JSON Schema (2020-12, draft-07) validator over WebMap's position-keeping JSON tree.
        .target(name: "JSONSchema", dependencies: ["WebMap"]),
        .target(name: "Rules", dependencies: ["WebMap", "JSONSchema"]),
        .target(name: "Report", dependencies: ["Rules", "WebMap", "Rainbow"]),
        // The feature service core: catalogue, branch-versioned store, edits, versions, users (no HTTP).
        .target(
            name: "Service",
            dependencies: [
                "WebMap", "Rules",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ]
        ),
        .executableTarget(
            name: "maprules",
            dependencies: [
                "WebMap", "JSONSchema", "Rules", "Report", "Rainbow",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Validation-only throughput for Benchmarks/schema-throughput.sh.
        .executableTarget(name: "SchemaBench", dependencies: ["WebMap", "JSONSchema"]),
        // libFuzzer harness over parse + lint (Benchmarks/fuzz.sh builds it with -sanitize=fuzzer -D FUZZING);
        // the plain build is a driver that replays inputs: `swift run FuzzLint FILE...`.
        .executableTarget(name: "FuzzLint", dependencies: ["WebMap", "Rules"]),
        .testTarget(name: "WebMapTests", dependencies: ["WebMap"]),
        .testTarget(name: "JSONSchemaTests", dependencies: ["JSONSchema", "WebMap"]),
        .testTarget(name: "RulesTests", dependencies: ["Rules", "WebMap"]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "Rules", "WebMap"]),
        .testTarget(name: "CLITests", dependencies: ["Report", "Rules", "WebMap", "JSONSchema"]),
        .testTarget(name: "ServiceTests", dependencies: ["Service", "Rules", "WebMap", .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v5]
)
