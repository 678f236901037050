import WebMap

/// `form/input-type-mismatch`: an input type that does not fit its field's type or domain.
public enum FormInputTypeMismatchRule: MapRule {
    public static let description = RuleDescription(
        id: "form/input-type-mismatch",
        severity: .error,
        summary: "A field element's input type does not fit the field's type or domain, or a switch's onValue/offValue are not two different codes of its domain.",
        rationale: """
            Each input type works on some field types: `text-box` and `barcode-scanner` on String and number \
            fields, `text-area` on String, `combo-box` and `radio-buttons` on a coded-value domain (the \
            element's or the field's), `switch` on a coded-value domain of exactly two codes with `onValue` and \
            `offValue` two different codes of it, `date-picker` on Date or DateOnly, `datetime-picker` on Date, \
            `time-picker` on TimeOnly, `timestampoffset-picker` on TimestampOffset. Any other pairing is refused \
            by the apps: the element is left out of the form or cannot be edited.
            """,
        fix: "Choose the input type that fits the field (the finding says which), or fix the domain or the switch's codes.",
        triggeringExamples: [
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Address", "inputType": {"type": "combo-box"}}"#),
                      services: FormExamples.snapshot),
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Status", "inputType": {"type": "switch", "onValue": "A", "offValue": "B"}}"#),
                      services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
                {"name": "Status", "type": "esriFieldTypeString", "alias": "Status", "length": 1,
                       "domain": {"type": "codedValue", "name": "Status", "codedValues": [{"name": "A", "code": "A"}, {"name": "B", "code": "B"}, {"name": "C", "code": "C"}]}}
                """)])),
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "Wires", "inputType": {"type": "switch", "onValue": "Y", "offValue": "Y"}}"#),
                      services: FormExamples.snapshot),
            .document(FormExamples.map(elements: #"{"type": "field", "fieldName": "DBH", "inputType": {"type": "date-picker"}}"#),
                      services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: """
                {"type": "field", "fieldName": "Condition", "inputType": {"type": "radio-buttons"}},
                          {"type": "field", "fieldName": "Wires", "inputType": {"type": "switch", "onValue": "Y", "offValue": "N"}},
                          {"type": "field", "fieldName": "DBH", "inputType": {"type": "text-box"}},
                          {"type": "field", "fieldName": "Planted", "inputType": {"type": "datetime-picker"}}
                """), services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            for element in subject.form.fieldElements {
                guard let problem = element.inputTypeProblem, let field = element.field else { continue }
                context.report(self, pointer: element.element.pointer / "inputType", message:
                    "Field element \(field.displayName) in the form of \(subject.name) has input type "
                    + "'\(element.element.inputType?.type ?? "")' on a \(field.type.shortName) field: \(problem). The app cannot "
                    + "offer it to the crew.", layer: subject.layer)
            }
        }
    }
}
