import Arcade
import FeatureServiceModel
import Foundation
import Rules
import WebMap

/// One field element of a form as the crew sees it now (forms.md, "Runtime: form edit sessions").
public struct FormEditElement: Sendable {
    /// The service field's name.
    public let fieldName: String
    public let label: String
    public let isVisible: Bool
    /// The crew may change it now: visible, the field allows edits, not calculated, its editable expression true.
    public let isEditable: Bool
    public let isRequired: Bool
    public let isCalculated: Bool
    /// The value the form holds now (calculated values included).
    public let value: AttributeValue
    /// What is wrong with the value now: 11001-11007, `runtime/form-length`, `runtime/form-domain`,
    /// `runtime/form-required` (required, visible and empty).
    public let validationErrors: [RuntimeError]
}

/// docs/runtime.md and forms.md: the edit of one feature through its layer's form (`formInfo`), which replaces
/// the pop-up edit session on form-enabled layers. The form's state (which fields are visible, editable,
/// required, calculated, and their values) is the same computation `lint` and `inspect` use (`FormEvaluator`),
/// evaluated again after every `setValue`; FeatureSet functions in its expressions read this session's service,
/// version and local edits.
///
/// ```swift
/// let session = try FormEditSession(feature: try await damage.feature(objectId: 3), table: damage)
/// try await session.setValue(.string("Major"), for: "typdamage")
/// let estloss = await session.element("estloss")          // now visible and required
/// let saved = try await session.finish()                   // refuses with every problem at once
/// ```
public actor FormEditSession {
    public nonisolated let table: FeatureTable
    /// The feature as it was when the session began.
    public nonisolated let original: TableFeature
    /// True for a feature made by `createFeature` (added by `finish`).
    public nonisolated let isNewFeature: Bool
    public nonisolated let form: FormBehavior

    private let evaluator: FormEvaluator
    /// The values the form starts from and the crew's changes, by service field name.
    private var values: [String: JSON]
    /// The problems of values the crew set (kept until a valid value replaces them), by field name.
    private var valueErrors: [String: RuntimeError] = [:]
    private var state: FormState?
    private var finished = false

    /// A session on `feature` of `table`, which must have a form with at least one element
    /// (`runtime/not-form-enabled` otherwise: use a `PopupEditSession`).
    public init(feature: TableFeature, table: FeatureTable) throws {
        guard let form = table.info.behavior.form, form.isEnabled else {
            throw RuntimeError(RuntimeError.Identifier.notFormEnabled,
                               "\(table.info.title) has no form (formInfo with elements): edit it through its pop-up.",
                               layer: table.info.reference, objectId: feature.objectId)
        }
        self.table = table
        self.original = feature
        self.isNewFeature = feature.objectId == nil
        self.form = form
        evaluator = FormEvaluator(form)
        var values: [String: JSON] = [:]
        if feature.objectId == nil {
            // A new feature starts from the layer's template defaults (forms.md, inspect), then what it was given.
            values = form.newFeatureValues()
        }
        for (name, value) in feature.attributes.entries { values[table.info.field(name)?.name ?? name] = Self.json(value) }
        self.values = values
    }

    private var info: TableInfo { table.info }
    private var editType: FormEditType { isNewFeature ? .insert : .update }

    // MARK: The form's state

    /// Every field element, in form order, as the form shows it now.
    public func elements() async -> [FormEditElement] {
        let state = await current()
        return state.elements.map { element(for: $0, in: state) }
    }

    /// The field element of `fieldName` (case-insensitive), nil when the form has none.
    public func element(_ fieldName: String) async -> FormEditElement? {
        let state = await current()
        return state.element(fieldName).map { element(for: $0, in: state) }
    }

    /// Problems met evaluating the form's expressions (an expression that fails counts as false, a calculation
    /// that fails leaves the value as it is: forms.md), and calculations that never settle.
    public func expressionProblems() async -> [FormProblem] { await current().problems }

    private func element(for state: FormElementState, in form: FormState) -> FormEditElement {
        var errors: [RuntimeError] = []
        if let error = valueErrors[state.fieldName] { errors.append(error) }
        if form.missingRequired.contains(where: { $0.fieldName == state.fieldName }) { errors.append(requiredError(state)) }
        return FormEditElement(fieldName: state.fieldName, label: state.label, isVisible: state.isVisible, isEditable: state.isEditable,
                               isRequired: state.isRequired, isCalculated: state.isCalculated, value: Self.attribute(state.value),
                               validationErrors: errors)
    }

    private func current() async -> FormState {
        if let state { return state }
        return await evaluate()
    }

    /// Evaluates the whole form on the current values (calculations until stable, then visibility,
    /// editability, requiredness), reading data through the geodatabase.
    @discardableResult
    private func evaluate() async -> FormState {
        let access = try? await GeodatabaseArcadeAccess.make(for: table)
        let evaluator = self.evaluator, values = self.values, editType = self.editType
        let originalValues: [String: JSON]? = isNewFeature ? nil : Dictionary(original.attributes.entries.map { ($0.0, Self.json($0.1)) },
                                                                              uniquingKeysWith: { first, _ in first })
        let geometry = original.geometry.map {
            ArcadeFeatureConversion.arcadeGeometry($0, wkid: (original.spatialReference ?? info.spatialReference).wkid)
        }
        let box = UncheckedBox(access as ArcadeDataAccess?)
        let state = await ArcadeThread.run {
            evaluator.evaluate(values: values, original: originalValues, geometry: geometry, editType: editType, dataAccess: box.value)
        }
        self.state = state
        return state
    }

    // MARK: Editing

    /// Sets a field's value (typed, or text: numbers and dates are parsed), then evaluates the form again.
    /// Refused (`runtime/field-not-editable`) for a field the crew cannot change now: not in the form, hidden,
    /// read-only, calculated; `runtime/unknown-field` for a name the layer lacks. An invalid value (11001-11007,
    /// `runtime/form-length`, `runtime/form-domain`) is kept with its problem, which is also answered.
    @discardableResult
    public func setValue(_ value: AttributeValue, for name: String) async throws -> RuntimeError? {
        let operation = "Setting '\(name)' in the form of \(info.title)"
        guard !finished else {
            throw RuntimeError(RuntimeError.Identifier.fieldNotEditable, "\(operation): the session has ended.", layer: info.reference, objectId: original.objectId)
        }
        guard let field = info.field(name) else {
            let hint = Suggestions.closest(to: name, in: info.metadata.fields.map(\.name))
            throw RuntimeError(RuntimeError.Identifier.unknownField, "\(operation): the \(info.kindWord) has no field '\(name)'.\(hint.map { " Did you mean '\($0)'?" } ?? "")",
                               layer: info.reference, objectId: original.objectId, field: name)
        }
        let state = await current()
        guard let element = state.element(field.name) else {
            throw RuntimeError(RuntimeError.Identifier.fieldNotEditable, "\(operation): \(field.displayName) is not in the form, so a crew cannot edit it.",
                               layer: info.reference, objectId: original.objectId, field: field.name)
        }
        if let reason = notEditableReason(element, field) {
            throw RuntimeError(RuntimeError.Identifier.fieldNotEditable, "\(operation): \(reason)",
                               layer: info.reference, objectId: original.objectId, field: field.name)
        }
        var problem: RuntimeError?
        switch FieldValueValidator.convert(value, for: field, table: info) {
        case .success(let converted):
            values[field.name] = Self.json(converted)
            problem = formProblem(converted, field: field)
        case .failure(var failure):
            failure.objectId = original.objectId
            values[field.name] = Self.json(value)
            problem = failure
        }
        valueErrors[field.name] = problem
        await evaluate()
        return problem
    }

    private func notEditableReason(_ element: FormElementState, _ field: FieldDefinition) -> String? {
        if element.isEditable && element.isVisible && !element.isCalculated { return nil }
        if !element.isVisible { return "\(field.displayName) is hidden by the form now (its visibility expression is false)." }
        if element.isCalculated { return "\(field.displayName) is calculated by the form (its value expression); the crew cannot change it." }
        if !field.editable { return "\(field.displayName) is read-only in the service." }
        if info.metadata.isSystemMaintained(field) { return "\(field.displayName) is maintained by the service." }
        return "\(field.displayName) is not editable in the form now (editable is false or its editable expression is false)."
    }

    /// The form's own checks of a valid value: text length (`minLength`/`maxLength` of a text input) and the
    /// element's own domain (which replaces the field's).
    private func formProblem(_ value: AttributeValue, field: FieldDefinition) -> RuntimeError? {
        guard let element = form.fieldElements.first(where: { $0.fieldName == field.name }) else { return nil }
        if case .string(let text) = value, let input = element.element.inputType, input.isText {
            let length = text.count
            if let minimum = input.minLength, length < minimum {
                return RuntimeError(RuntimeError.Identifier.formLength, "\(field.displayName): \(length) characters, fewer than the form's minimum of \(minimum).",
                                    layer: info.reference, objectId: original.objectId, field: field.name)
            }
            if let maximum = input.maxLength, length > maximum {
                return RuntimeError(RuntimeError.Identifier.formLength, "\(field.displayName): \(length) characters, more than the form's maximum of \(maximum).",
                                    layer: info.reference, objectId: original.objectId, field: field.name)
            }
        }
        guard !value.isNull, let domain = element.element.domain else { return nil }
        switch domain {
        case .codedValue(_, let codes):
            let json = Self.json(value)
            guard !codes.contains(where: { JSON($0.code) == json }) else { return nil }
            let names = codes.prefix(8).map { "\(JSON($0.code).text) (\($0.name))" }.joined(separator: ", ")
            return RuntimeError(RuntimeError.Identifier.formDomain, "\(field.displayName): \(json.text) is none of the form's codes: \(names)\(codes.count > 8 ? ", ..." : "").",
                                layer: info.reference, objectId: original.objectId, field: field.name)
        case .range(_, let minimum, let maximum):
            guard let number = value.double else { return nil }
            if number < (minimum ?? -.infinity) || number > (maximum ?? .infinity) {
                return RuntimeError(RuntimeError.Identifier.formDomain,
                                    "\(field.displayName): \(number) is outside the form's range \(minimum.map { "\($0)" } ?? "")...\(maximum.map { "\($0)" } ?? "").",
                                    layer: info.reference, objectId: original.objectId, field: field.name)
            }
            return nil
        default:
            return nil
        }
    }

    private func requiredError(_ element: FormElementState) -> RuntimeError {
        RuntimeError(RuntimeError.Identifier.formRequired, "\(element.label) (\(element.fieldName)) is required by the form and has no value.",
                     layer: info.reference, objectId: original.objectId, field: element.fieldName)
    }

    // MARK: Ending

    /// Evaluates the form once more and, when anything is wrong, writes nothing and reports every problem at
    /// once (invalid values, required elements without a value, calculations that never settle). Otherwise
    /// writes the calculated values, clears the hidden ones (unless the form preserves them), and adds (new) or
    /// updates the feature as a local edit. Answers the feature as its table now has it.
    @discardableResult
    public func finish() async throws -> TableFeature {
        let operation = isNewFeature ? "Saving a new feature of \(info.title) through its form" : "Saving feature \(original.objectId ?? 0) of \(info.title) through its form"
        let state = await evaluate()
        var problems = state.elements.compactMap { valueErrors[$0.fieldName] }
        problems += state.missingRequired.map(requiredError)
        if state.isCycle {
            let message = state.problems.first { $0.id == RuntimeError.Identifier.formCalculationCycle }?.message
                ?? "the form's value expressions keep changing each other's values after \(FormEvaluator.maximumRounds) rounds."
            problems.append(RuntimeError(RuntimeError.Identifier.formCalculationCycle, message, layer: info.reference, objectId: original.objectId))
        }
        if !isNewFeature, !(await table.canUpdate(original)) {
            problems.append(RuntimeError(RuntimeError.Identifier.cannotUpdate, "\(operation): you may not update this feature.", layer: info.reference, objectId: original.objectId))
        }
        if !problems.isEmpty { throw RuntimeError.combining(problems, operation: operation) }
        let toSave = state.valuesToSave
        var saved: TableFeature
        if isNewFeature {
            var feature = original
            for (name, value) in toSave where info.field(name) != nil { feature[name] = Self.attribute(value) }
            saved = try await table.add(feature)
        } else {
            var feature = original
            var changed = Attributes()
            for (name, value) in toSave.sorted(by: { $0.key < $1.key }) where info.field(name) != nil {
                let attribute = Self.attribute(value)
                if original[name] != attribute { changed[name] = attribute }
            }
            feature.attributes = changed
            feature.geometry = nil
            try await table.update(feature)
            saved = try await table.feature(objectId: original.objectId ?? 0)
        }
        finished = true
        return saved
    }

    /// Ends the session without writing anything.
    public func cancel() {
        finished = true
        valueErrors = [:]
    }

    // MARK: Values

    static func json(_ value: AttributeValue) -> JSON {
        switch value {
        case .null: return .null
        case .int(let i): return .int(Int(i))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        }
    }

    static func attribute(_ value: JSON) -> AttributeValue {
        switch value {
        case .null, .array, .object: return .null
        case .bool(let b): return .int(b ? 1 : 0)
        case .int(let i): return .int(Int64(i))
        case .double(let d): return d.rounded() == d && abs(d) < 9e15 ? .int(Int64(d)) : .double(d)
        case .string(let s): return .string(s)
        }
    }
}
