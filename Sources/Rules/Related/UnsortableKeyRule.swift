import WebMap

/// `related/unsortable-key`: the first display field of a table shown as one-to-many records cannot be
/// sorted by.
public enum UnsortableKeyRule: MapRule {
    /// The field types the app can sort related records by.
    static let sortableTypes: [FieldType] = [.smallInteger, .integer, .single, .double, .string, .date]

    public static let description = RuleDescription(
        id: "related/unsortable-key",
        severity: .error,
        summary: "The first display field of a table shown as one-to-many records cannot be sorted by.",
        rationale: """
            The app lists one-to-many related records (a tree's inspections) sorted by the first display field \
            of the related table's pop-up, comparing values by the field's type. It can compare only \
            SmallInteger, Integer, Single, Double, String and Date values; for any other type (BigInteger, \
            DateOnly, GUID, GlobalID, OID...) sorting fails and the related records cannot be shown. An \
            `expression/...` display field has no field type in the table at all, so it cannot be sorted by \
            either and is reported too. The finding is reported once per related table, at its first display \
            field, naming every pop-up enabled layer that shows it as one-to-many records.
            """,
        fix: """
            Move a SmallInteger, Integer, Single, Double, String or Date field to the top of the related \
            table's `fieldInfos` (among the visible ones), or hide the field that is there.
            """,
        triggeringExamples: [
            .document(RelatedExamples.map(tables: [RelatedExamples.speciesTable(), RelatedExamples.inspectionsTable(fieldInfos: """
                {"fieldName": "TreeGlobalID", "label": "Tree", "visible": true}, \
                {"fieldName": "CollectedDate", "label": "Collected", "visible": true, "isEditable": true}
                """)]), services: RelatedExamples.snapshot()),
        ],
        nonTriggeringExamples: [
            .document(RelatedExamples.map(), services: RelatedExamples.snapshot()),
            // A hidden GUID field is not a display field: the first display field is the date.
            .document(RelatedExamples.map(tables: [RelatedExamples.speciesTable(), RelatedExamples.inspectionsTable(fieldInfos: """
                {"fieldName": "TreeGlobalID", "label": "Tree", "visible": false}, \
                {"fieldName": "CollectedDate", "label": "Collected", "visible": true, "isEditable": true}
                """)]), services: RelatedExamples.snapshot()),
        ])

    public static func check(_ context: MapContext) {
        var order: [Int] = []
        var shownBy: [Int: [RelationshipFinding]] = [:]
        for finding in RelationshipFinding.all(in: context) {
            guard finding.isInMap, finding.use.kind == .oneToMany, finding.use.isUsed,
                  let index = finding.use.relatedIndex else { continue }
            if shownBy[index] == nil { order.append(index) }
            shownBy[index, default: []].append(finding)
        }
        for index in order {
            let related = context.behavior.layers[index]
            guard related.table != nil, let first = related.displayFields.first,
                  let findings = shownBy[index] else { continue }
            let what: String
            if let expression = first.expressionName {
                what = "the expression '\(expression)', which has no field type the app can compare"
            } else if let field = first.field, !sortableTypes.contains(field.type) {
                what = "\(field.displayName), a \(field.type.shortName) field the app cannot compare"
            } else {
                continue
            }
            let shownIn = findings.map {
                "\(RelationshipFinding.describe($0.layer, capitalized: false)) through \(RelationshipFinding.name(of: $0.relationship))"
            }
            let alternative = sortableAlternative(in: related).map { ", such as \($0)," } ?? ""
            context.report(self, pointer: first.fieldInfo.pointer / "fieldName", message:
                "\(RelationshipFinding.describe(related)) is shown as one-to-many related records of "
                + "\(listed(shownIn)), and the app sorts those records by its first display field, \(what): "
                + "sorting fails and the related records cannot be shown. Move a SmallInteger, Integer, Single, "
                + "Double, String or Date field\(alternative) to the top of its visible fieldInfos.",
                layer: related)
        }
    }

    /// A display field (else any field) of `related` the app can sort by, for the message.
    static func sortableAlternative(in related: LayerBehavior) -> String? {
        if let display = related.displayFields.dropFirst().first(where: { $0.field.map { sortableTypes.contains($0.type) } ?? false }),
           let field = display.field {
            return field.displayName
        }
        return related.table?.fields.first { sortableTypes.contains($0.type) }?.displayName
    }

    /// "A", "A and B", "A, B and C".
    static func listed(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}
