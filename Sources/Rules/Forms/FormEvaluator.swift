import Arcade
import Foundation
import WebMap

/// Evaluates a form on a feature's values (forms.md, "Evaluation order"): value expressions of calculated
/// elements in element order, repeated until no value changes (at most `maximumRounds` rounds, then
/// `runtime/form-calculation-cycle`), then visibility (groups first), editability and requiredness. The one
/// evaluation `inspect` shows and a form edit session enforces.
///
/// Expressions are compiled once, when the evaluator is made; `evaluate` is pure (values in, state out) and may
/// run on any thread.
public final class FormEvaluator: @unchecked Sendable {
    public static let maximumRounds = 16
    public let form: FormBehavior
    /// Compiled expressions by name; an expression that does not parse holds its syntax error.
    private let programs: [String: Result<ArcadeProgram, ArcadeError>]
    private let schema: ArcadeLayerSchema?
    private let limits: ArcadeLimits

    public init(_ form: FormBehavior, limits: ArcadeLimits = ArcadeLimits()) {
        self.form = form
        self.limits = limits
        schema = form.table.map { ArcadeLayerSchema(metadata: $0) }
        var programs: [String: Result<ArcadeProgram, ArcadeError>] = [:]
        for info in form.form.expressionInfos {
            guard let name = info.name, programs[name] == nil else { continue }
            do {
                programs[name] = .success(try ArcadeProgram(info.expression ?? ""))
            } catch let error as ArcadeError {
                programs[name] = .failure(error)
            } catch {
                programs[name] = .failure(ArcadeError(ruleId: ArcadeError.syntax, message: "\(error)", line: 1, column: 1, offset: 0))
            }
        }
        self.programs = programs
    }

    /// Evaluates the form on `values` (by field name, compared case-insensitively), for an insert or an update.
    /// `original` is the feature as loaded (`$originalFeature`; nil on insert), `geometry` the feature's shape,
    /// `dataAccess` what `$map`, `$layer`, `$datastore` and FeatureSet functions read (nil: unavailable, and a
    /// value expression that needs them fails with a problem).
    public func evaluate(values input: [String: JSON], original: [String: JSON]? = nil, geometry: ArcadeGeometry? = nil,
                         editType: FormEditType, dataAccess: ArcadeDataAccess? = nil, now: Double? = nil) -> FormState {
        var run = Run(evaluator: self, values: normalized(input), original: original.map(normalized), geometry: geometry,
                      editType: editType, dataAccess: dataAccess, now: now)
        return run.state()
    }

    /// `values` keyed by the service's field names (names the layer lacks are kept as given).
    private func normalized(_ values: [String: JSON]) -> [String: JSON] {
        guard let table = form.table else { return values }
        var out: [String: JSON] = [:]
        for (key, value) in values { out[table.field(named: key)?.name ?? key] = value }
        return out
    }

    fileprivate func program(_ name: String) -> Result<ArcadeProgram, ArcadeError>? { programs[name] }
    fileprivate var layerSchema: ArcadeLayerSchema? { schema }
    fileprivate var evaluationLimits: ArcadeLimits { limits }
}

/// One evaluation: the values as they change, and the problems met.
private struct Run {
    let evaluator: FormEvaluator
    var values: [String: JSON]
    let original: [String: JSON]?
    let geometry: ArcadeGeometry?
    let editType: FormEditType
    let dataAccess: ArcadeDataAccess?
    let now: Double?
    var problems: [FormProblem] = []
    /// Problems already reported, so that an expression failing in every round is reported once.
    var reported: Set<String> = []

    init(evaluator: FormEvaluator, values: [String: JSON], original: [String: JSON]?, geometry: ArcadeGeometry?,
         editType: FormEditType, dataAccess: ArcadeDataAccess?, now: Double?) {
        self.evaluator = evaluator
        self.values = values
        self.original = original
        self.geometry = geometry
        self.editType = editType
        self.dataAccess = dataAccess
        self.now = now
    }

    var form: FormBehavior { evaluator.form }

    mutating func state() -> FormState {
        let elements = form.fieldElements
        // 1. Calculated values, until they settle.
        var calculated = Array(repeating: false, count: elements.count)
        var isCycle = false
        var round = 0
        while true {
            var changed = false
            for (index, element) in elements.enumerated() {
                guard element.allowsEdits(editType), let name = element.element.valueExpression else { continue }
                let editable = element.element.editableExpression.map { constraint($0, element) } ?? false
                calculated[index] = !editable
                guard !editable, let field = element.field else { continue }
                guard let result = calculation(name, element) else { continue }
                let value = FormValues.json(result, for: field)
                if let cast = value.problem {
                    report("arcade/runtime-error", "Value expression '\(name)' of field '\(field.name)' gave \(result.typeName), "
                           + "which cannot be written into a \(field.type.shortName) field: \(cast)", expression: name, field: field.name)
                    continue
                }
                if values[field.name] != value.json {
                    values[field.name] = value.json
                    changed = true
                }
            }
            round += 1
            if !changed { break }
            if round >= FormEvaluator.maximumRounds {
                isCycle = true
                report("runtime/form-calculation-cycle", "The form's value expressions still changed values after "
                       + "\(FormEvaluator.maximumRounds) rounds: they depend on one another in a cycle.", expression: nil, field: nil)
                break
            }
        }
        // 2. Visibility, groups first.
        var visibility: [JSONPointer: Bool] = [:]
        for element in form.form.allElements {
            let own = element.visibilityExpression.map { constraint($0, nil, default: true) } ?? true
            let parent = visibility[JSONPointer(Array(element.pointer.tokens.dropLast(2)))] ?? true
            visibility[element.pointer] = own && parent
        }
        // 3. Editability and requiredness.
        var states: [FormElementState] = []
        states.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let visible = visibility[element.element.pointer] ?? true
            let allows = element.allowsEdits(editType)
            var editable = allows && element.element.editable != false
            if editable {
                if let name = element.element.editableExpression {
                    editable = constraint(name, element, default: false)
                } else {
                    editable = !calculated[index]
                }
            }
            var required = false
            if visible {
                if element.field.map({ !$0.nullable }) == true || element.isTypeIdField {
                    required = true
                } else if let name = element.element.requiredExpression {
                    required = constraint(name, element, default: false)
                }
            }
            let value = values[element.fieldName] ?? .null
            states.append(FormElementState(fieldName: element.fieldName, label: element.label, isVisible: visible,
                                           isEditable: editable, isRequired: required, isCalculated: calculated[index],
                                           value: value,
                                           validationErrors: visible ? FormValidation.errors(of: value, in: element, required: required) : []))
        }
        let nullable = Set(elements.compactMap { $0.field?.nullable == true ? $0.field!.name : nil })
        return FormState(elements: states, values: values, visibility: visibility, problems: problems, isCycle: isCycle,
                         preserveHidden: form.form.preserveFieldValuesWhenHidden, nullable: nullable)
    }

    // MARK: Expressions

    /// A visibility, required or editable expression's value; `default` when it fails or is unknown.
    mutating func constraint(_ name: String, _ element: FormFieldElement?, default fallback: Bool = false) -> Bool {
        if let constant = FormInfo.systemConstant(name) { return constant }
        guard let value = run(name, profile: .formConstraint, element) else { return fallback }
        guard case .boolean(let b) = value else { return fallback }
        return b
    }

    mutating func calculation(_ name: String, _ element: FormFieldElement) -> ArcadeValue? {
        if let constant = FormInfo.systemConstant(name) { return .boolean(constant) }
        return run(name, profile: .formCalculation, element)
    }

    mutating func run(_ name: String, profile: ArcadeProfile, _ element: FormFieldElement?) -> ArcadeValue? {
        guard let program = evaluator.program(name) else {
            report("form/unknown-expression", "The form names expression '\(name)', which its expressionInfos do not define.",
                   expression: name, field: element?.fieldName)
            return nil
        }
        switch program {
        case .failure(let error):
            report(error.ruleId, "Expression '\(name)' does not parse: \(error.message) (line \(error.line), column \(error.column)).",
                   expression: name, field: element?.fieldName)
            return nil
        case .success(let program):
            let context = ArcadeEvaluationContext(
                profile: profile, feature: feature(values), originalFeature: original.map(feature),
                editType: editType.rawValue, dataAccess: profile == .formCalculation ? dataAccess : nil,
                now: now, limits: evaluator.evaluationLimits)
            do {
                return try program.evaluate(context)
            } catch let error as ArcadeError {
                report(error.ruleId, "Expression '\(name)' failed: \(error.message) (line \(error.line), column \(error.column)).",
                       expression: name, field: element?.fieldName)
            } catch {
                report(ArcadeError.runtimeError, "Expression '\(name)' failed: \(error).", expression: name, field: element?.fieldName)
            }
            return nil
        }
    }

    /// `$feature` (or `$originalFeature`): every field of the layer, with the value given or null.
    func feature(_ values: [String: JSON]) -> ArcadeFeature {
        var pairs: [(String, ArcadeValue)] = []
        if let table = form.table {
            pairs.reserveCapacity(table.fields.count)
            for field in table.fields { pairs.append((field.name, FormValues.arcade(values[field.name] ?? .null, for: field))) }
        } else {
            for (key, value) in values.sorted(by: { $0.key < $1.key }) { pairs.append((key, FormValues.arcade(value, for: nil))) }
        }
        return ArcadeFeature(attributes: ArcadeDictionary(pairs), geometry: geometry, schema: evaluator.layerSchema)
    }

    mutating func report(_ id: String, _ message: String, expression: String?, field: String?) {
        let key = id + "\u{1}" + message
        guard reported.insert(key).inserted else { return }
        problems.append(FormProblem(id: id, message: message, expression: expression, fieldName: field))
    }
}
