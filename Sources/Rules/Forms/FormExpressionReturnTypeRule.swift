import WebMap

/// `form/expression-return-type`: a constraint expression that does not declare boolean, or a value expression
/// that does.
public enum FormExpressionReturnTypeRule: MapRule {
    public static let description = RuleDescription(
        id: "form/expression-return-type",
        severity: .error,
        summary: "A visibility, required or editable expression whose returnType is not boolean, or a value expression whose returnType is boolean.",
        rationale: """
            The apps read a form expression's declared `returnType` (boolean when absent) to decide how to use \
            it: a visibility, required or editable expression must be boolean, and a value expression must give \
            a number, string or date for its field. An expression declared otherwise is refused when the form \
            loads, so the element is shown, optional, editable or not calculated regardless of the expression.
            """,
        fix: "Set `returnType` to what the expression is used for (`maprules lint --fix` does, when its uses agree).",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Condition", "visibilityExpression": "expr/has-address"}"#,
                                       expressions: FormExamples.expression("expr/has-address", "!IsEmpty($feature.Address)", returnType: "string")),
                      services: FormExamples.snapshot),
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "DBH", "valueExpression": "expr/dbh"}"#,
                                       expressions: FormExamples.expression("expr/dbh", "Round(42.4)", returnType: nil)),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: """
                {"type": "field", "fieldName": "Condition", "visibilityExpression": "expr/has-address"},
                          {"type": "field", "fieldName": "DBH", "valueExpression": "expr/dbh"}
                """, expressions: FormExamples.expression("expr/has-address", "!IsEmpty($feature.Address)", returnType: nil) + ", "
                    + FormExamples.expression("expr/dbh", "Round(42.4)", returnType: "number")),
                      services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            // Each expression's uses: as a constraint (boolean), or as the value of fields (their wanted types).
            var constraintUses: [String: String] = [:]
            var valueTypes: [String: [String]] = [:]
            for element in subject.form.form.allElements {
                for (member, name) in element.expressionReferences where subject.expression(named: name) != nil {
                    if member == "valueExpression" {
                        let field = subject.form.fieldElements.first { $0.element === element }?.field
                        valueTypes[name, default: []].append(field.map(returnType(for:)) ?? "")
                    } else if constraintUses[name] == nil {
                        constraintUses[name] = member
                    }
                }
            }
            for info in subject.form.form.expressionInfos {
                guard let name = info.name else { continue }
                let declared = info.returnType
                if let member = constraintUses[name], declared != "boolean" {
                    let fix = valueTypes[name] == nil ? setReturnType(info, to: "boolean", in: context) : nil
                    context.report(self, pointer: info.pointer / "returnType", message:
                        "Expression '\(name)' of the form of \(subject.name) is used as a \(member) but declares returnType "
                        + "'\(declared)': the app refuses it. Set its returnType to boolean.", layer: subject.layer, fix: fix)
                } else if let wanted = valueTypes[name], declared == "boolean" {
                    let agreed = Set(wanted)
                    let fix = constraintUses[name] == nil && agreed.count == 1 && agreed.first != "" ? setReturnType(info, to: agreed.first!, in: context) : nil
                    context.report(self, pointer: info.pointer / "returnType", message:
                        "Expression '\(name)' of the form of \(subject.name) is a value expression but declares returnType "
                        + "'boolean'\(info.declaredReturnType == nil ? " (the default)" : ""): the app refuses it. Set its returnType to "
                        + "the field's type (number, string or date).", layer: subject.layer, fix: fix)
                }
            }
        }
    }

    /// The `returnType` a value expression of `field` declares.
    static func returnType(for field: FieldDefinition) -> String {
        switch field.type {
        case .smallInteger, .integer, .bigInteger, .single, .double: return "number"
        case .date, .dateOnly, .timestampOffset: return "date"
        default: return "string"
        }
    }

    private static func setReturnType(_ info: FormExpressionInfo, to type: String, in context: MapContext) -> Fix? {
        let description = "Set returnType of expression '\(info.name ?? "")' to \(type)."
        if let node = info.node["returnType"] {
            return context.fixes.replace(node, at: info.pointer / "returnType", with: .string(type), description: description)
        }
        return context.fixes.add("returnType", .string(type), to: info.node, at: info.pointer, after: "expression", description: description)
    }
}
