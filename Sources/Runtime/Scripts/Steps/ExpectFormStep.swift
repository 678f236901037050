import Foundation
import FeatureServiceModel
import WebMap

/// `expectForm: {layer, objectId | attributes, visible, hidden, required, editable, calculated}`: the state of
/// the layer's form (forms.md) on a feature (`objectId`) or on a new feature with `attributes`, checked without
/// editing anything; fails with `expect/failed` naming every difference.
struct ExpectFormStep: ScriptOperation {
    static let name = "expectForm"
    let layer: LayerArgument
    let objectId: ObjectIdArgument?
    let attributes: AttributesArgument?
    let visible: [String]?
    let hidden: [String]?
    let required: [String]?
    let editable: [String]?
    let calculated: AttributesArgument?

    init(arguments: JSON) {
        layer = LayerArgument(arguments["layer"])
        objectId = arguments["objectId"].flatMap { $0 == .null ? nil : ObjectIdArgument($0) }
        attributes = arguments["attributes"].flatMap { $0 == .null ? nil : AttributesArgument($0) }
        func names(_ key: String) -> [String]? { arguments[key]?.array?.compactMap(\.string) }
        visible = names("visible")
        hidden = names("hidden")
        required = names("required")
        editable = names("editable")
        calculated = arguments["calculated"].flatMap { $0 == .null ? nil : AttributesArgument($0) }
    }

    func run(in context: StepContext) async throws -> StepResult {
        let table = try await layer.table(in: context.geodatabase)
        let feature: TableFeature
        if let objectId {
            feature = try await table.feature(objectId: try objectId.value(of: table))
        } else {
            let values = try attributes?.values() ?? Attributes()
            feature = await table.createFeature(attributes: values)
        }
        let session = try FormEditSession(feature: feature, table: table)
        let elements = await session.elements()
        await session.cancel()
        var differences: [String] = []
        func element(_ name: String) -> FormEditElement? { elements.first { $0.fieldName.caseInsensitiveCompare(name) == .orderedSame } }
        func check(_ names: [String]?, _ what: String, _ holds: (FormEditElement) -> Bool) {
            for name in names ?? [] {
                guard let found = element(name) else { differences.append("\(name) is not in the form"); continue }
                if !holds(found) { differences.append("\(found.fieldName) is not \(what)") }
            }
        }
        check(visible, "visible") { $0.isVisible }
        check(hidden, "hidden") { !$0.isVisible }
        check(required, "required") { $0.isRequired }
        check(editable, "editable") { $0.isEditable }
        var checks = [(visible, "visible"), (hidden, "hidden"), (required, "required"), (editable, "editable")]
            .compactMap { list, word in list.map { "\(word): \($0.joined(separator: ", "))" } }
        if let calculated {
            for (name, value) in try calculated.values() {
                guard let found = element(name) else { differences.append("\(name) is not in the form"); continue }
                if !found.isCalculated { differences.append("\(found.fieldName) is not calculated"); continue }
                if !ScriptValues.same(found.value, value) {
                    differences.append("\(found.fieldName) is calculated as \(ScriptValues.show(found.value)), expected \(ScriptValues.show(value))")
                }
            }
            checks.append("calculated: " + (try calculated.values()).map { "\($0.name) = \(ScriptValues.show($0.value))" }.joined(separator: ", "))
        }
        if !differences.isEmpty {
            let subject = feature.objectId.map { "feature \($0) of \(table.title)" } ?? "a new feature of \(table.title)"
            throw RuntimeError(RuntimeError.Identifier.expectFailed, "the form of \(subject): " + differences.joined(separator: "; "))
        }
        return StepResult("form as expected (\(checks.joined(separator: "; ")))")
    }
}
