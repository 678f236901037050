import WebMap

/// `popup/empty-coded-domain`: an editable field whose coded-value domain has no values.
public enum EmptyCodedDomainRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/empty-coded-domain",
        severity: .error,
        summary: "An editable field has a coded-value domain with no values.",
        rationale: """
            The app edits a field with a coded-value domain through a choice list of the domain's values. With \
            no values the list is empty: no value can ever be chosen, and when the field is required the record \
            can never be saved.
            """,
        fix: "Add the coded values to the domain in the service, or remove the domain from the field.",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: #"{"fieldName": "Wires", "label": "Wires", "visible": true, "isEditable": true}"#),
                      services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
                        {"name": "Wires", "type": "esriFieldTypeString", "alias": "Wires", "nullable": true, "editable": true, "length": 10,
                               "domain": {"type": "codedValue", "name": "Wires", "codedValues": []}}
                        """)])),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(Examples.map(fieldInfos: #"{"fieldName": "Wires", "label": "Wires", "visible": true, "isEditable": false}"#),
                      services: Examples.snapshot([Examples.treesURL: Examples.treesLayer(extraFields: """
                        {"name": "Wires", "type": "esriFieldTypeString", "alias": "Wires", "nullable": true, "editable": true, "length": 10,
                               "domain": {"type": "codedValue", "name": "Wires", "codedValues": []}}
                        """)])),
        ])

    public static func check(_ context: MapContext) {
        var reported: Set<String> = []
        for flag in EditableFlag.all(in: context) where flag.field.editable {
            guard case .codedValue(let domainName, let values)? = flag.field.domain, values.isEmpty,
                  reported.insert("\(flag.subject.popup.pointer)|\(flag.field.name.lowercased())").inserted else { continue }
            let domain = domainName.map { "'\($0)' " } ?? ""
            context.report(self, pointer: flag.info.pointer / "fieldName", message:
                "Field \(flag.field.displayName) of \(flag.subject.name) is editable in the pop-up, but its "
                + "coded-value domain \(domain)has no values, so the app's choice list is empty and no value can be "
                + "chosen\(flag.field.nullable ? "" : " (the field is required, so a record can never be saved)"). "
                + "Add coded values to the domain in the service, or remove the domain.",
                layer: flag.subject.layer)
        }
    }
}
