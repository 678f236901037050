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
        fix: "Keep one entry per field and remove the others (`maprules lint --fix` removes the later ones).",
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
        context.forEachConcurrently(PopupSubject.all(in: context)) { context, subject in
            let infos = subject.popup.fieldInfos
            let facts = subject.layer.fieldInfoFacts
            var first = FirstEntries(expected: facts.count)
            for (index, fact) in facts.enumerated() where fact.hasFieldName {
                // A qualified name ("Trees.Address") is the same field as its short name.
                let key = fact.fieldIndex >= 0 ? EntryKey.field(fact.fieldIndex) : .name((infos[index].fieldName ?? "").lowercasedCheaply())
                guard let earlierIndex = first.index(of: key) else {
                    first.add(key, index)
                    continue
                }
                let info = infos[index]
                let name = info.fieldName ?? ""
                let field = subject.layer.field(at: index)
                let earlier = infos[earlierIndex]
                let fieldName = field?.displayName ?? "'\(name)'"
                context.report(self, pointer: info.pointer / "fieldName", message:
                    "Pop-up of \(subject.name) lists field \(fieldName) again (first at \(earlier.pointer)): the app "
                    + "shows it once per entry. Remove this entry, keeping the one with the settings you want.",
                    layer: subject.layer, fix: removal(of: info, in: subject, context: context))
            }
        }
    }

    /// Drops the later entry from `fieldInfos`.
    private static func removal(of info: PopupFieldInfo, in subject: PopupSubject, context: MapContext) -> Fix? {
        guard let list = subject.popup.node["fieldInfos"]?.array, let token = info.pointer.tokens.last, let index = Int(token) else { return nil }
        return context.fixes.remove(element: index, of: list, at: subject.popup.pointer / "fieldInfos",
                                    description: "Remove the repeated entry for field '\(info.fieldName ?? "")'.")
    }

    /// What makes two entries the same: the service field they resolve to (its index), else the name in
    /// lower case.
    private enum EntryKey: Hashable {
        case field(Int)
        case name(String)
    }

    /// The first entry of each key: a list scanned for the dozen entries of a usual pop-up (a dictionary per
    /// pop-up, hashing every key, was most of this rule's time on a map of 100,000 layers), a dictionary beyond.
    private struct FirstEntries {
        private static let listLimit = 32
        private var list: [(key: EntryKey, index: Int)] = []
        private var table: [EntryKey: Int]?

        init(expected: Int) {
            if expected > Self.listLimit { table = Dictionary(minimumCapacity: expected) } else { list.reserveCapacity(expected) }
        }

        func index(of key: EntryKey) -> Int? {
            if let table { return table[key] }
            return list.first { $0.key == key }?.index
        }

        mutating func add(_ key: EntryKey, _ index: Int) {
            if table != nil { table![key] = index } else { list.append((key, index)) }
        }
    }
}
