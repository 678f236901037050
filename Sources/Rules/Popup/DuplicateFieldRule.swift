import WebMap

/// `popup/duplicate-field`: the same field appears more than once in `fieldInfos`.
public enum DuplicateFieldRule: MapRule {
    public static let description = RuleDescription(
        id: "popup/duplicate-field",
        severity: .warning,
        summary: "The same field appears more than once in the pop-up's fieldInfos.",
        rationale: """
            The app builds one row per `fieldInfos` entry, so a repeated field is shown (and, when editable, \
            offered for editing) twice, and which entry's label, visibility and editing setting the author \
            meant is unclear. Names compare case-insensitively, as the services do.
            """,
        fix: "Keep one entry per field and remove the others.",
        triggeringExamples: [
            .document(Examples.map(fieldInfos: """
                {"fieldName": "Address", "label": "Address", "visible": true},
                          {"fieldName": "ADDRESS", "label": "Street address", "visible": false}
                """), services: Examples.treesSnapshot),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
        ])

    public static func check(_ context: MapContext) {
        for subject in PopupSubject.all(in: context) {
            var first: [String: PopupFieldInfo] = [:]
            for info in subject.popup.fieldInfos {
                guard let name = info.fieldName else { continue }
                // A qualified name ("Trees.Address") is the same field as its short name.
                let key = (subject.field(of: info)?.name ?? name).lowercased()
                guard let earlier = first[key] else {
                    first[key] = info
                    continue
                }
                let fieldName = subject.field(of: info)?.displayName ?? "'\(name)'"
                context.report(self, pointer: info.pointer / "fieldName", message:
                    "Pop-up of \(subject.name) lists field \(fieldName) again (first at \(earlier.pointer)): the app "
                    + "shows it once per entry. Remove this entry, keeping the one with the settings you want.",
                    layer: subject.layer)
            }
        }
    }
}
