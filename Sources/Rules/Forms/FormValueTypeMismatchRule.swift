import WebMap

/// `form/value-type-mismatch`: a value expression whose declared type cannot be written into its field.
public enum FormValueTypeMismatchRule: MapRule {
    public static let description = RuleDescription(
        id: "form/value-type-mismatch",
        severity: .warning,
        summary: "A value expression's returnType cannot be cast to its field's type (a string into a number field, a date into a GUID field...).",
        rationale: """
            The app writes a calculated value into the field after casting it to the field's type. A string \
            or a date into a number field, a number or a date into a GUID field, a string into a date field \
            cannot be cast: the app writes nothing (or fails to save), and the crew sees an empty calculated value.
            """,
        fix: "Make the expression return the field's type (Number(), Text(), Date()) and declare that returnType.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "DBH", "valueExpression": "expr/dbh"}"#,
                                       expressions: FormExamples.expression("expr/dbh", "'about ' + 40", returnType: "string")),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address", "valueExpression": "expr/address"}"#,
                                       expressions: FormExamples.expression("expr/address", "'Tree ' + 40", returnType: "string")),
                      services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            for element in subject.form.fieldElements {
                guard let field = element.field, let name = element.element.valueExpression, let info = subject.expression(named: name),
                      info.returnType != "boolean",
                      let problem = FormValues.castProblem(returnType: info.returnType, into: field) else { continue }
                context.report(self, pointer: element.element.pointer / "valueExpression", message:
                    "Value expression '\(name)' of field \(field.displayName) in the form of \(subject.name) returns a "
                    + "\(info.returnType), and the app cannot write \(problem): the calculated value is lost. Return the "
                    + "field's type (\(field.type.shortName)).", layer: subject.layer)
            }
        }
    }
}
