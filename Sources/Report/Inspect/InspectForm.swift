import Arcade
import Rules
import WebMap

extension InspectReport {
    /// A layer's form (forms.md, "inspect"): its elements in order with their state for a new feature that has
    /// the layer's template defaults, evaluated by the shared `FormEvaluator` without data access (a value
    /// expression that needs it gives a problem and no value).
    public struct Form: Codable, Sendable, Equatable {
        public struct Element: Codable, Sendable, Equatable {
            /// `field`, `group`, `text`, `relationship`, `attachment`, or the unsupported type as written.
            public var type: String
            public var fieldName: String?
            public var label: String?
            /// The input type (`text-box`, `switch`... for fields; `image`, `signature`... for attachments).
            public var inputType: String?
            public var visible: Bool
            public var editable: Bool
            public var required: Bool
            public var calculated: Bool
            public var value: JSON?
            /// The label of the group that holds it.
            public var group: String?
            /// True for an element type MapRules does not know (shown as unsupported).
            public var unsupported: Bool?
            /// Its expressions by member (`visibilityExpression`: `expr/x`).
            public var expressions: [String: String]?
            /// A text element's text; a group's initial state; a relationship's id: what the crew reads.
            public var detail: String?
            /// The codes a choice input offers (names), for the page.
            public var choices: [String]?
            /// The name of the coded value the element holds, when it has a coded-value domain.
            public var valueName: String?
        }

        public struct Expression: Codable, Sendable, Equatable {
            public var name: String
            public var returnType: String
            public var expression: String
        }

        public var title: String?
        public var elements: [Element]
        public var problems: [FormProblem]
        public var expressions: [Expression]
        public var preserveFieldValuesWhenHidden: Bool
    }

    static func form(of layer: LayerBehavior) -> Form? {
        guard let form = layer.form else { return nil }
        let evaluator = FormEvaluator(form, limits: ArcadeLimits(maximumSteps: 100_000, maximumDuration: 0.05))
        let state = evaluator.evaluate(values: form.newFeatureValues(), editType: .insert, now: 0)
        var elements: [Form.Element] = []
        var fieldIndex = 0
        func add(_ list: [FormElement], group: FormElement?) {
            for element in list {
                let visible = state.isVisible(element)
                var entry = Form.Element(
                    type: element.type ?? "(none)", fieldName: element.fieldName, label: element.label,
                    inputType: element.kind == .attachment ? element.attachmentInputType : element.inputType?.type,
                    visible: visible, editable: false, required: false, calculated: false, value: nil,
                    group: group?.label, unsupported: element.kind == .unsupported ? true : nil,
                    expressions: expressions(of: element), detail: nil, choices: nil, valueName: nil)
                switch element.kind {
                case .field:
                    if fieldIndex < state.elements.count {
                        let s = state.elements[fieldIndex]
                        let facts = form.fieldElements[fieldIndex]
                        entry.fieldName = s.fieldName
                        entry.label = s.label
                        entry.editable = s.isEditable
                        entry.required = s.isRequired
                        entry.calculated = s.isCalculated
                        entry.value = s.value
                        entry.choices = facts.codedValues?.map(\.name)
                        entry.valueName = facts.codedValues?.first { JSON($0.code) == s.value }?.name
                        if entry.inputType == nil, let field = facts.field { entry.inputType = defaultInput(field, coded: facts.codedValues != nil) }
                    }
                    fieldIndex += 1
                case .group: entry.detail = element.initialState
                case .text: entry.detail = element.text
                case .relationship: entry.detail = element.relationshipId.map { "relationship \($0)" }
                case .attachment: entry.detail = element.attachmentKeyword.map { "keyword \($0)" }
                case .unsupported: break
                }
                elements.append(entry)
                if element.kind == .group { add(element.children, group: element) }
            }
        }
        add(form.form.elements, group: nil)
        let infos = form.form.expressionInfos.map {
            Form.Expression(name: $0.name ?? "", returnType: $0.returnType, expression: $0.expression ?? "")
        }
        return Form(title: form.form.title, elements: elements, problems: state.problems, expressions: infos,
                    preserveFieldValuesWhenHidden: form.form.preserveFieldValuesWhenHidden)
    }

    private static func expressions(of element: FormElement) -> [String: String]? {
        let references = element.expressionReferences
        guard !references.isEmpty else { return nil }
        return Dictionary(references.map { ($0.member, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// The input an app gives a field element without an `inputType`.
    private static func defaultInput(_ field: FieldDefinition, coded: Bool) -> String {
        if coded { return "combo-box" }
        switch field.type {
        case .date: return "datetime-picker"
        case .dateOnly: return "date-picker"
        case .timeOnly: return "time-picker"
        case .timestampOffset: return "timestampoffset-picker"
        default: return "text-box"
        }
    }

    /// The form as text lines (two-space indented under the layer).
    static func formText(_ form: Form) -> String {
        var out = "  form: \(form.title.map { "'\($0)'" } ?? "(untitled)"), \(form.elements.count) element(s), as a new feature opens it\n"
        for element in form.elements {
            let indent = element.group == nil ? "    " : "      "
            var parts: [String] = []
            if element.type == "field" {
                parts.append(element.inputType ?? "")
                if !element.visible { parts.append("hidden") }
                if element.calculated { parts.append("calculated = " + (element.value.map { $0.isNull ? "(none)" : $0.text } ?? "(none)")) }
                else {
                    parts.append(element.editable ? "editable" : "read-only")
                    if let value = element.value, !value.isNull { parts.append("value " + value.text) }
                }
                if element.required { parts.append("required") }
            } else {
                if !element.visible { parts.append("hidden") }
                if element.unsupported == true { parts.append("unsupported") }
                if let detail = element.detail { parts.append(detail) }
            }
            let name = element.type == "field" ? "\(element.label ?? "") (\(element.fieldName ?? ""))"
                : "[\(element.type)]" + (element.label.map { " " + $0 } ?? "")
            let exprs = (element.expressions ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            out += indent + name + ": " + parts.filter { !$0.isEmpty }.joined(separator: ", ")
                + (exprs.isEmpty ? "" : " [" + exprs.joined(separator: "; ") + "]") + "\n"
        }
        for e in form.expressions {
            out += "    expression \(e.name) (\(e.returnType)): \(e.expression.split(whereSeparator: \.isNewline).joined(separator: " "))\n"
        }
        for p in form.problems { out += "    problem \(p.id): \(p.message)\n" }
        return out
    }
}

extension InspectPage {
    /// A form as the page draws it: a phone screen with its groups, inputs, required marks, calculated values,
    /// and hidden elements drawn as hidden.
    struct FormCard {
        var title: String
        var rows: [FormRow]
        var problems: [String], hasProblems: Bool
    }

    struct FormRow {
        var isGroup: Bool, isField: Bool, isOther: Bool
        var label: String, detail: String
        var control: String, controlClass: String
        var choices: [String], hasChoices: Bool
        var required: Bool, hidden: Bool, nested: Bool
        var badges: [String]
    }

    static func formCard(_ form: InspectReport.Form?) -> FormCard? {
        guard let form, !form.elements.isEmpty else { return nil }
        let rows = form.elements.map { element -> FormRow in
            var badges: [String] = []
            if !element.visible { badges.append("hidden") }
            if element.unsupported == true { badges.append("unsupported: not shown") }
            for (member, name) in (element.expressions ?? [:]).sorted(by: { $0.key < $1.key }) {
                badges.append(member.replacingOccurrences(of: "Expression", with: "") + ": " + name)
            }
            var control = "", cls = "text", detail = ""
            if element.type == "field" {
                if element.calculated {
                    control = "= " + (element.value.map { $0.isNull ? "(calculated when saved)" : $0.string ?? $0.text } ?? "")
                    cls = "readonly calculated"
                } else if !element.editable {
                    control = "read-only" + (element.value.map { $0.isNull ? "" : ": " + ($0.string ?? $0.text) } ?? "")
                    cls = "readonly"
                } else if element.inputType == "radio-buttons" || element.inputType == "switch" {
                    // Drawn as their options, the current one marked.
                    control = element.inputType == "radio-buttons" ? "choose one" : "switch (on \u{2194} off)"
                    cls = "text"
                } else {
                    control = inputText(element.inputType) + (element.value.map { $0.isNull ? "" : ": " + (element.valueName ?? $0.string ?? $0.text) } ?? "")
                    cls = element.inputType == "text-area" ? "multi" : "text"
                }
                detail = element.fieldName ?? ""
            } else if element.type == "group" {
                detail = element.detail ?? ""
            } else {
                detail = [element.type, element.inputType, element.detail].compactMap { $0 }.joined(separator: " · ")
            }
            var choices = element.calculated ? [] : (element.choices ?? [])
            if element.inputType == "radio-buttons" || element.inputType == "switch" {
                let on = element.inputType == "radio-buttons" ? "◉ " : "⏻ "
                let off = element.inputType == "radio-buttons" ? "○ " : ""
                choices = choices.map { ($0 == element.valueName ? on : off) + $0 }
                if element.inputType == "switch" { choices = choices.filter { $0.hasPrefix(on) }.isEmpty ? ["⏻ off"] : choices.filter { $0.hasPrefix(on) } }
            }
            return FormRow(isGroup: element.type == "group", isField: element.type == "field",
                           isOther: element.type != "group" && element.type != "field",
                           label: element.label ?? element.fieldName ?? element.type, detail: detail, control: control, controlClass: cls,
                           choices: choices, hasChoices: !choices.isEmpty, required: element.required, hidden: !element.visible,
                           nested: element.group != nil, badges: badges)
        }
        let problems = form.problems.map { "\($0.id): \($0.message)" }
        return FormCard(title: form.title ?? "Form", rows: rows, problems: problems, hasProblems: !problems.isEmpty)
    }

    private static func inputText(_ type: String?) -> String {
        switch type {
        case "combo-box": return "choose one ▾"
        case "radio-buttons": return "choose one"
        case "switch": return "switch ⏻"
        case "text-area": return "multi-line text"
        case "barcode-scanner": return "scan a barcode"
        case "date-picker": return "date"
        case "datetime-picker": return "date and time"
        case "time-picker": return "time"
        case "timestampoffset-picker": return "date, time and offset"
        default: return "text"
        }
    }
}
