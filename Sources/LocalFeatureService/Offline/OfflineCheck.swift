import Foundation
import Rules
import Service
import FeatureServiceModel
import Runtime
import WebMap

/// The linter's `offline/` layer rules (rules.md) run on the layers a service describes, so that
/// `SyncTask.generateGeodatabase` refuses what cannot sync before it registers anything.
enum OfflineCheck {
    /// The findings of every `offline/` layer rule for the layers `ids` (empty: all) of `description`.
    static func problems(_ description: ServiceDescription, layers ids: [Int]) -> [(id: Int, name: String, problem: OfflineProblem)] {
        var found: [(id: Int, name: String, problem: OfflineProblem)] = []
        for (id, json) in description.layers where ids.isEmpty || ids.contains(id) {
            // The service's JSON read by WebMap, as the linter reads a snapshot.
            guard let node = try? JSONParser.parse(json.text).root else { continue }
            let table = LayerMetadata(node)
            for problem in OfflineReadiness.problems(of: [OfflineLayer(serviceLayer: table, id: id)]) {
                found.append((id, table.name ?? "layer \(id)", problem))
            }
        }
        return found
    }

    /// Throws when a layer would fail offline (an error-severity finding): the first finding's rule ID as the
    /// identifier, each finding as a problem of its own naming its layer.
    static func refuseUnready(_ description: ServiceDescription, layers ids: [Int], path: String) throws {
        let errors = problems(description, layers: ids).filter { $0.problem.severity == .error }
        guard let first = errors.first else { return }
        let problems = errors.map { RuntimeError($0.problem.ruleId, $0.problem.message, layer: LayerReference(title: $0.name, id: $0.id)) }
        var names: [String] = []
        for error in errors where !names.contains("'\(error.name)' (id \(error.id))") { names.append("'\(error.name)' (id \(error.id))") }
        let list = errors.map { "\($0.problem.ruleId): \($0.problem.message)" }.joined(separator: " ")
        throw RuntimeError(first.problem.ruleId,
                           "Generating '\(path)': \(names.joined(separator: ", ")) cannot be taken offline, so nothing was registered on the service. \(list)",
                           layer: problems[0].layer, problems: problems.count > 1 ? problems : [])
    }
}
