import WebMap

/// What a form makes of a layer or table (forms.md, "Semantics"): the static half of the one form
/// computation that `lint`, `inspect` and the runtime share. It resolves each field element to its service
/// field, says whether the field allows edits, which domain and input type apply, and which expressions are
/// constants. Everything that depends on the feature's values is `FormEvaluator`'s (built from this).
///
///     let form = layerBehavior.form                        // nil without a formInfo object
///     let evaluator = FormEvaluator(form!)                 // compiles the form's expressions once
///     let state = evaluator.evaluate(values: ["typdamage": .string("Major")], editType: .insert)
public final class FormBehavior: Sendable {
    public let form: FormInfo
    /// The feature table (nil when the metadata is unknown: then no field resolves).
    public let table: LayerMetadata?
    public let capabilities: EditCapabilities
    /// The field elements in form order, with their resolved facts.
    public let fieldElements: [FormFieldElement]
    /// The layer's `typeIdField` (its subtype or type field), which a form always requires.
    public let typeIdField: String?

    public init(form: FormInfo, table: LayerMetadata?, capabilities: EditCapabilities, isServiceBacked: Bool) {
        self.form = form
        self.table = table
        self.capabilities = capabilities
        let typeIdField = table?.node["typeIdField"]?.string ?? table?.node["subtypeField"]?.string
        self.typeIdField = typeIdField
        fieldElements = form.fieldElements.map { pair in
            FormFieldElement(element: pair.element, group: pair.group, table: table, capabilities: capabilities,
                             isServiceBacked: isServiceBacked, typeIdField: typeIdField)
        }
    }

    /// True when the form is in force: it has at least one element (forms.md). Then only its field elements can
    /// be edited, and the pop-up's `isEditable` no longer decides.
    public var isEnabled: Bool { form.isEnabled }

    /// The constant value of the expression an element names: the system constants, or an expression whose
    /// source is literally `true` or `false` (optionally `return`ed, with a semicolon). Nil when it depends on the
    /// feature, or when no expression of that name exists.
    public func constantValue(of name: String?) -> Bool? {
        guard let name else { return nil }
        if let constant = FormInfo.systemConstant(name) { return constant }
        guard let source = form.expression(named: name)?.expression else { return nil }
        var text = source.trimmingSpaces().lowercased()
        if text.hasSuffix(";") { text = String(text.dropLast()).trimmingSpaces() }
        if text.hasPrefix("return ") { text = String(text.dropFirst("return ".count)).trimmingSpaces() }
        switch text {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// True when `name` is a system constant or an expression of the form.
    public func isDefined(_ name: String) -> Bool {
        FormInfo.systemConstant(name) != nil || form.expression(named: name) != nil
    }

    /// The field element of a service field (the first, when several name it).
    public func element(forField field: FieldDefinition) -> FormFieldElement? {
        fieldElements.first { $0.field === field }
    }

    /// The values a new feature starts with: the fields' default values, then the first template's prototype
    /// attributes (what the app fills in before the form opens).
    public func newFeatureValues() -> [String: JSON] {
        guard let table else { return [:] }
        var values: [String: JSON] = [:]
        for field in table.fields {
            if let value = field.defaultValue { values[field.name] = JSON(value) }
        }
        let templates = table.node["templates"]?.array ?? table.node["types"]?.array?.first?["templates"]?.array ?? []
        for member in templates.first?["prototype"]?["attributes"]?.object?.uniqueMembers ?? [] {
            if let field = table.field(named: member.key) { values[field.name] = JSON(member.value) }
        }
        return values
    }
}

/// The kind of edit a form is evaluated for (`$editcontext.editType`).
public enum FormEditType: String, Sendable, Codable {
    case insert = "INSERT"
    case update = "UPDATE"
}
