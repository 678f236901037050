import WebMap

/// The state of one field element after an evaluation (forms.md, "Semantics").
public struct FormElementState: Sendable, Equatable {
    /// The service field's name (as the service writes it).
    public var fieldName: String
    public var label: String
    public var isVisible: Bool
    public var isEditable: Bool
    public var isRequired: Bool
    public var isCalculated: Bool
    /// The current value (after calculation).
    public var value: JSON
    /// What is wrong with the value as the form stands (forms.md, "Runtime"): `runtime/form-required` (required
    /// and empty), `runtime/form-length` (text shorter than the input's `minLength` or longer than its
    /// `maxLength`), `runtime/form-domain` (outside the element's own domain). Hidden elements have none.
    public var validationErrors: [FormProblem] = []
}

/// A problem met while evaluating a form: an expression that fails, names nothing, or calculations that never
/// settle. `id` is the rule or runtime ID (`arcade/runtime-error`, `form/unknown-expression`,
/// `runtime/form-calculation-cycle`).
public struct FormProblem: Sendable, Equatable, Codable {
    public var id: String
    public var message: String
    /// The expression concerned, when one is.
    public var expression: String?
    /// The field element concerned, when one is.
    public var fieldName: String?
}

/// A form evaluated on one set of values: each field element's state, each element's visibility, and the
/// problems met. Values in, states out: nothing here reads or writes a service.
public struct FormState: Sendable {
    /// The field elements' states, in form order.
    public var elements: [FormElementState]
    /// The values after calculation, by service field name (every value given, plus calculated ones).
    public var values: [String: JSON]
    /// Visibility of every element (groups, text, relationship, attachment and field elements) by pointer.
    public var visibility: [JSONPointer: Bool]
    public var problems: [FormProblem]
    /// True when the value expressions kept changing values for `FormEvaluator.maximumRounds` rounds.
    public var isCycle: Bool
    let preserveHidden: Bool
    /// Field names that must be null when hidden is applied (nullable ones only).
    let nullable: Set<String>

    /// The element state of a field (compared case-insensitively).
    public func element(_ fieldName: String) -> FormElementState? {
        elements.first { $0.fieldName.equalsIgnoringCase(fieldName) }
    }

    /// Whether the element at `pointer` is visible (true for an element that was not evaluated).
    public func isVisible(_ element: FormElement) -> Bool { visibility[element.pointer] ?? true }

    /// The values to save (forms.md, `finish()`): the calculated values as they are, and, unless the form
    /// preserves hidden values, null for every hidden, nullable field element.
    public var valuesToSave: [String: JSON] {
        var out = values
        guard !preserveHidden else { return out }
        for element in elements where !element.isVisible && nullable.contains(element.fieldName) {
            out[element.fieldName] = .null
        }
        return out
    }

    /// Required elements without a value (null or empty text): what `runtime/form-required` refuses.
    public var missingRequired: [FormElementState] {
        elements.filter { $0.validationErrors.contains { $0.id == FormValidation.required } }
    }

    /// Every element's validation errors, in form order: what `finish()` refuses with, all at once.
    public var validationErrors: [FormProblem] { elements.flatMap(\.validationErrors) }
}
