import Foundation
import FeatureServiceModel
import WebMap

// Reading and checking: query, expect, expectLocalEdits.

/// `query: {layer, where, objectIds, geometry, spatialRelationship, orderBy, offset, limit}`: saves `count` and
/// `features[]` (attributes by field name, `geometry`), local edits overlaid.
struct QueryStep: ScriptOperation {
    static let name = "query"
    /// `layer` and what to select.
    let selection: QueryArguments

    init(arguments: JSON) {
        selection = QueryArguments(arguments)
    }

    func run(in context: StepContext) async throws -> StepResult {
        let (table, features) = try await selection.features(in: context.geodatabase)
        return StepResult("\(StepText.counted(features.count, "feature")) of \(table.title)\(StepText.idList(features))",
                          value: .object([("count", .int(features.count)), ("features", .array(features.map(StepText.featureJSON)))]))
    }
}

/// `expect: {layer, where | objectIds, count, attributes, version}`: fails with `expect/failed` unless the
/// selected features number `count`, every one has `attributes`, and the script is on `version`.
struct ExpectStep: ScriptOperation {
    static let name = "expect"
    /// `layer` and what to select.
    let selection: QueryArguments
    let count: WholeNumberArgument
    /// Nil when not given (or null).
    let attributes: AttributesArgument?
    let version: String?

    init(arguments: JSON) {
        selection = QueryArguments(arguments)
        count = WholeNumberArgument(arguments, "count")
        attributes = arguments["attributes"].flatMap { $0 == .null ? nil : AttributesArgument($0) }
        version = arguments["version"]?.string
    }

    func run(in context: StepContext) async throws -> StepResult {
        let (table, features) = try await selection.features(in: context.geodatabase)
        var checks: [String] = []
        if let count = try count.number() {
            guard features.count == count else {
                throw RuntimeError(RuntimeError.Identifier.expectFailed, "expected \(count) features of \(table.title), found \(features.count)\(StepText.idList(features))")
            }
            checks.append(StepText.counted(count, "feature"))
        }
        if let attributes {
            let wanted = try attributes.values()
            for feature in features {
                for (name, value) in wanted {
                    let actual = feature[name] ?? .null
                    guard ScriptValues.same(actual, value) else {
                        throw RuntimeError(RuntimeError.Identifier.expectFailed,
                                           "feature \(feature.objectId ?? 0) of \(table.title): \(name) is \(ScriptValues.show(actual)), expected \(ScriptValues.show(value))")
                    }
                }
            }
            checks.append(wanted.map { "\($0.name) = \(ScriptValues.show($0.value))" }.joined(separator: ", "))
        }
        if let version {
            guard let current = await context.geodatabase.versionName else {
                throw RuntimeError(RuntimeError.Identifier.expectFailed, "expected the version \(version), but the service is not versioned")
            }
            guard current.caseInsensitiveCompare(version) == .orderedSame else {
                throw RuntimeError(RuntimeError.Identifier.expectFailed, "expected the version \(version), on \(current)")
            }
            checks.append("on \(current)")
        }
        return StepResult(checks.joined(separator: "; "), value: .object([("count", .int(features.count))]))
    }
}

/// `expectLocalEdits: true | false`: fails with `expect/failed` unless local edits are (or are not) pending.
struct ExpectLocalEditsStep: ScriptOperation {
    static let name = "expectLocalEdits"
    let pending: Bool

    init(arguments: JSON) { pending = arguments.bool ?? false }

    func run(in context: StepContext) async throws -> StepResult {
        let has = await context.geodatabase.hasLocalEdits
        let count = await context.geodatabase.localEditCount
        guard has == pending else {
            throw RuntimeError(RuntimeError.Identifier.expectFailed,
                               has ? "expected no local edits, but \(count) are pending" : "expected local edits, but there are none")
        }
        return StepResult(has ? "\(StepText.counted(count, "local edit")) pending, as expected" : "no local edits, as expected")
    }
}
