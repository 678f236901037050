import WebMap

/// `form/duplicate-field`: two field elements name the same field.
public enum FormDuplicateFieldRule: MapRule {
    public static let description = RuleDescription(
        id: "form/duplicate-field",
        severity: .warning,
        summary: "Two field elements of a form name the same field.",
        rationale: """
            Each field element is one input for its field. Two elements for the same field (in the same group \
            or in two) give the crew two inputs that write one value, each with its own label, expressions and \
            input type; which one wins depends on the app. Names compare case-insensitively.
            """,
        fix: "Keep one element per field and remove the others (`maprules lint --fix` removes the later one).",
        triggeringExamples: [
            .document(FormExamples.map(elements: """
                {"type": "field", "fieldName": "Address", "label": "Address"},
                          {"type": "group", "label": "More", "formElements": [{"type": "field", "fieldName": "address", "label": "Street"}]}
                """), services: FormExamples.snapshot),
        ],
        nonTriggeringExamples: [
            .document(FormExamples.map(elements: """
                {"type": "field", "fieldName": "Address", "label": "Address"},
                          {"type": "field", "fieldName": "Condition", "label": "Condition"}
                """), services: FormExamples.snapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in FormSubject.all(in: context) {
            var first: [String: FormFieldElement] = [:]
            for element in subject.form.fieldElements {
                guard element.element.fieldName != nil else { continue }
                let key = element.fieldName.lowercased()
                guard let earlier = first[key] else {
                    first[key] = element
                    continue
                }
                context.report(self, pointer: element.element.pointer / "fieldName", message:
                    "The form of \(subject.name) has a second element for field '\(element.fieldName)' (the first is at "
                    + "\(earlier.element.pointer)): the crew gets two inputs for one value. Remove one of them.",
                    layer: subject.layer, fix: removal(of: element.element, in: context))
            }
        }
    }

    /// Drops the later element from the list that holds it.
    private static func removal(of element: FormElement, in context: MapContext) -> Fix? {
        let listPointer = JSONPointer(Array(element.pointer.tokens.dropLast()))
        guard let index = element.pointer.tokens.last.flatMap({ Int($0) }),
              let list = listPointer.resolve(in: context.document.root)?.array else { return nil }
        return context.fixes.remove(element: index, of: list, at: listPointer,
                                    description: "Remove the repeated form element for field '\(element.fieldName ?? "")'.")
    }
}
