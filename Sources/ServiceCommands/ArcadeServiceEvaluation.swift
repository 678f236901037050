import Arcade
import Foundation
import LintCommands
import LocalFeatureService
import Runtime

/// `maprules arcade --service URL|DIR`: the expression evaluated with FeatureSet functions reading that service
/// (a URL, or a sample folder run in-process) through the runtime, as the app reads its own.
public enum ArcadeServiceEvaluation {
    /// Makes `maprules arcade` evaluate `--service` requests here.
    public static func install() {
        ArcadeCommand.serviceEvaluation = { request in try await evaluate(request) }
    }

    static func evaluate(_ request: ArcadeServiceRequest) async throws -> ArcadeValue {
        // The same sign-in as edit and offline (a password, else a token or MAPRULES_TOKEN).
        var connection = ConnectionOptions()
        connection.user = request.user
        connection.password = request.password
        connection.token = request.token
        let credential = connection.credential
        let environment: ScriptEnvironment
        do {
            environment = try await ScriptEnvironment.prepare(target: request.service, map: request.map, credential: credential,
                                                              usersFile: nil, timeout: 30)
        } catch {
            throw CommandFailure("--service: \(error)")
        }
        defer { Task { await environment.close() } }
        do {
            try await environment.load(credential: credential)
        } catch {
            throw CommandFailure("--service: " + RuntimeError.wrapping(error, operation: "Loading the service").description)
        }
        var table: FeatureTable?
        if let layer = request.layer {
            do { table = try await environment.geodatabase.table(named: layer) } catch let error as RuntimeError {
                throw CommandFailure("--layer: \(error.message)")
            }
        }
        var context = request.context
        // Without a map, the service's own fields give $feature its types (dates as Dates, coded values).
        if request.map == nil, let table, let feature = context.feature {
            context.feature = ArcadeFeature(attributes: feature.attributes, geometry: feature.geometry,
                                            schema: ArcadeLayerSchema(metadata: table.metadata))
        }
        return try await environment.geodatabase.evaluateArcade(request.source, context: context, table: table)
    }
}
