import Arcade
import ArgumentParser
import Foundation
import Rules
import WebMap

/// `maprules arcade`: evaluates one Arcade expression (arcade.md, "`maprules arcade`").
public struct ArcadeCommand: AsyncParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "arcade",
        abstract: "Evaluate one Arcade expression, as a field app would.",
        discussion: """
            Text output is the value as Arcade's Text() shows it; JSON is {"value", "type"} (dates in ISO 8601, \
            UTC), or {"error": {"ruleId", "message", "line", "column"}} with exit code 1.
            Examples:
              maprules arcade "Left('the quick brown fox', 3)" --format json
              maprules arcade 'IIf($feature.DBH > 20, "big", "small")' --feature '{"attributes":{"DBH":25}}'
              maprules arcade --file visible.arcade --profile form-constraint --map map.json --layer trees --feature @tree.json
              maprules arcade 'Count(FeatureSetByName($map, "Trees"))' --service Samples/TreesOfPortland
              maprules arcade 'Count(FeatureSetByRelationshipName($feature, "Inspections"))' \\
                --service Samples/TreesOfPortland --layer Trees --feature @tree.json
            With --service, FeatureSet functions read that service (a URL, or a sample folder run in-process), and \
            --layer names the layer or table of $feature in it (id, service name or map title); --user/--password \
            or --token sign in.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }
    enum EditType: String, ExpressibleByArgument, CaseIterable {
        case insert = "INSERT", update = "UPDATE", delete = "DELETE", na = "NA"
    }

    @Argument(help: "The expression (or --file).")
    var expression: String?

    @Option(help: ArgumentHelp("Read the expression from this file.", valueName: "FILE"))
    var file: String?

    @Option(help: ArgumentHelp("$feature: {\"attributes\": {...}, \"geometry\": {...}}, or @FILE.", valueName: "JSON|@FILE"))
    var feature: String?

    @Option(help: ArgumentHelp("$originalFeature in form profiles (JSON or @FILE).", valueName: "JSON|@FILE"))
    var original: String?

    @Option(name: .customLong("edit-type"), help: "$editcontext.editType: INSERT, UPDATE, DELETE or NA.")
    var editType: EditType?

    @Option(help: "Where the expression runs: popup, form-constraint or form-calculation.")
    var profile: String = ArcadeProfile.popup.rawValue

    @Option(help: ArgumentHelp("A web map: with --layer, the layer's fields apply and $map sees the map's layers.", valueName: "MAP"))
    var map: String?

    @Option(help: ArgumentHelp("The layer whose feature $feature is: of --map (its id or title), or of --service (id, name or title).", valueName: "ID"))
    var layer: String?

    @Option(help: ArgumentHelp("A feature service (URL, or a sample folder run in-process) that FeatureSet functions read.", valueName: "URL|DIR"))
    var service: String?

    @Option(help: "With --service: user name to sign in with (with --password).")
    var user: String?

    @Option(help: "With --service: password of --user.")
    var password: String?

    @Option(help: "With --service: a token instead of --user/--password (or MAPRULES_TOKEN).")
    var token: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    public func validate() throws {
        if service == nil, user != nil || password != nil || token != nil {
            throw ValidationError("--user, --password and --token go with --service.")
        }
        if (user == nil) != (password == nil) { throw ValidationError("--user and --password go together.") }
    }

    public func run() async throws {
        let source = try ArcadeCommandSetup.source(expression: expression, file: file)
        guard let service else {
            let context = try ArcadeCommandSetup.context(profile: profile, feature: feature, original: original,
                                                         editType: editType?.rawValue, map: map, layer: layer)
            ArcadeCommandSetup.evaluate(source, context: context, json: format == .json)
            return
        }
        guard let evaluation = Self.serviceEvaluation else {
            // `maprules` hands `arcade --service` to its companion before parsing; only a build without it gets here.
            throw CommandFailure("--service: FeatureSet functions over a service are read by maprules-service (build it with: swift build --product maprules-service)")
        }
        // The map (with --layer) gives the schema; the service gives the data, and the layer when the map has none.
        let context = try ArcadeCommandSetup.context(profile: profile, feature: feature, original: original,
                                                     editType: editType?.rawValue, map: map, layer: map == nil ? nil : layer)
        let request = ArcadeServiceRequest(source: source, context: context, service: service, layer: layer, map: map,
                                           user: user, password: password, token: token)
        do {
            let value = try await evaluation(request)
            print(format == .json ? ArcadeResultJSON.value(value) : value.textValue)
        } catch let error as ArcadeError {
            ArcadeCommandSetup.report(error, json: format == .json)
        }
    }

    /// Evaluates with data access over a service: installed by the complete command line (`maprules-service`),
    /// which has the runtime. Nil in the lint-side executable.
    nonisolated(unsafe) public static var serviceEvaluation: ((ArcadeServiceRequest) async throws -> ArcadeValue)?
}

/// What `maprules arcade --service` asks the runtime to evaluate.
public struct ArcadeServiceRequest {
    public var source: String
    /// Profile, `$feature` (with the map layer's schema when --map is given), `$originalFeature`, edit type.
    public var context: ArcadeEvaluationContext
    /// The `--service` value: a URL, or a sample folder.
    public var service: String
    /// The layer or table of `$feature` in the service (id, name or map title); nil: none.
    public var layer: String?
    /// The web map whose titles `$map` uses (nil: the service's layer names).
    public var map: String?
    public var user: String?
    public var password: String?
    public var token: String?
}

/// The parts of `maprules arcade` shared by the lint executable and the companion's `--service` command.
public enum ArcadeCommandSetup {
    public static func source(expression: String?, file: String?) throws -> String {
        switch (expression, file) {
        case (let text?, nil): return text
        case (nil, let path?):
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw CommandFailure("--file: cannot read '\(path)' (no such file, or not UTF-8)")
            }
            return text
        case (nil, nil): throw CommandFailure("give an expression, or --file FILE")
        case (_?, _?): throw CommandFailure("give an expression or --file FILE, not both")
        }
    }

    /// The evaluation context of the options; the map's layers are the data access (schemas only) when --map is
    /// given.
    public static func context(profile: String, feature: String?, original: String?, editType: String?,
                               map: String?, layer: String?) throws -> ArcadeEvaluationContext {
        guard let profile = ArcadeProfile(rawValue: profile) else {
            throw CommandFailure("--profile: '\(profile)' is none of \(ArcadeProfile.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var context = ArcadeEvaluationContext(profile: profile, editType: editType)
        var schema: ArcadeLayerSchema?
        switch (map, layer) {
        case (let path?, let id?):
            let behavior: MapBehavior
            do {
                behavior = try Linter(options: LintOptions()).analyze(path: path).behavior
            } catch let error as DocumentError {
                throw CommandFailure(error.description)
            }
            guard let current = behavior.layers.first(where: { $0.layer.id == id })
                    ?? behavior.layers.first(where: { $0.layer.title == id }) else {
                let known = behavior.layers.compactMap { $0.layer.id }.joined(separator: ", ")
                throw CommandFailure("--layer: the map has no layer or table with id or title '\(id)' (ids: \(known))")
            }
            schema = ArcadeMapLayers.schema(of: current)
            if schema == nil {
                throw CommandFailure("--layer: the fields of '\(id)' are unknown (its service's metadata could not be read: add a <map>.services.json snapshot)")
            }
            context.dataAccess = ArcadeMapLayers(behavior: behavior, current: current)
        case (nil, nil): break
        default: throw CommandFailure("--map and --layer go together")
        }
        if let feature { context.feature = try ArcadeFeatureJSON.feature(from: feature, option: "--feature", schema: schema) }
        if let original { context.originalFeature = try ArcadeFeatureJSON.feature(from: original, option: "--original", schema: schema) }
        return context
    }

    /// Prints an Arcade error (JSON on standard output, text on standard error) and exits 1.
    public static func report(_ error: ArcadeError, json: Bool) -> Never {
        if json {
            print(ArcadeResultJSON.error(error))
        } else {
            Console.error("error: \(error.description)")
        }
        Foundation.exit(1)
    }

    /// Evaluates and prints; exits 1 on an Arcade error.
    public static func evaluate(_ source: String, context: ArcadeEvaluationContext, json: Bool) {
        do {
            let value = try ArcadeEvaluator.evaluate(source, context: context)
            print(json ? ArcadeResultJSON.value(value) : value.textValue)
        } catch let error as ArcadeError {
            report(error, json: json)
        } catch {
            Console.error("error: \(error)")
            Foundation.exit(1)
        }
    }
}
