import Foundation
import Rules
import WebMap

/// `maprules inspect --format html`: what the app will do with the map, drawn. Per layer and table a card with
/// the pop-up as a crew sees it in edit mode (title, display fields in order with their labels, each editable
/// field with its control), the add button's state with the failed conditions, related-record sections,
/// attachments and delete; then the operational layers' draw order, visibility and scale ranges as a picture.
/// Everything comes from `MapBehavior` and ``InspectReport`` (the shared definitions), never recomputed here.
public enum InspectPage {
    public static func render(report: InspectReport, behavior: MapBehavior) -> String {
        HTMLTemplates.render(page(report: report, behavior: behavior), template: "inspect")
    }

    struct Row {
        var label: String, name: String
        var control: String, controlClass: String
        var choices: [String], hasChoices: Bool
        var note: String?
    }
    struct Section { var text: String, detail: String?, actionable: Bool }
    struct Card {
        var anchor: String, title: String, kind: String, meta: String
        var identifiable: Bool, note: String?
        var popupTitle: String, popupEnabled: Bool, identify: String?
        var rows: [Row], hasRows: Bool
        var related: [Section], hasRelated: Bool
        var attachments: String?, canDelete: Bool, canEdit: Bool
        var isTable: Bool, addEligible: Bool, addFailures: [String]
        var facts: [Fact]
        var form: FormCard?
    }
    struct Fact { var term: String, value: String, items: [String], hasItems: Bool }
    struct Tick { var x: String, label: String }
    struct Bar {
        var y: String, textY: String, label: String, x: String, width: String, fill: String, opacity: String, range: String
        var hidden: Bool
    }
    struct Picture { var width: Int, height: Int, plotLeft: Int, plotRight: Int, axisY: Int, ticks: [Tick], bars: [Bar] }
    struct Page {
        var policy = PageStyle.policy, css = PageStyle.css
        var path: String, title: String, addLayers: String, addCount: Int, hasAdds: Bool
        var cards: [Card]
        var picture: Picture?
    }

    static func page(report: InspectReport, behavior: MapBehavior) -> Page {
        let cards = zip(report.layers, behavior.layers).enumerated().map { index, pair in
            card(pair.0, pair.1, index: index, behavior: behavior)
        }
        let adds = report.addFeatureLayers.map { $0.title ?? $0.id ?? "?" }
        let fileName = URL(fileURLWithPath: report.path).lastPathComponent
        return Page(path: report.path, title: report.title ?? "\(fileName) (untitled map)",
                    addLayers: adds.isEmpty ? "none: the add button is disabled" : adds.joined(separator: ", "),
                    addCount: adds.count, hasAdds: !adds.isEmpty, cards: cards, picture: picture(behavior))
    }

    private static func card(_ layer: InspectReport.Layer, _ behavior: LayerBehavior, index: Int, behavior map: MapBehavior) -> Card {
        let identifiable = ["feature layer", "table", "feature collection"].contains(layer.kind)
        let editable = Dictionary(behavior.editableDisplayFields(forNewRecord: false).map { ($0.display.fieldInfo.fieldName ?? "", $0) },
                                  uniquingKeysWith: { first, _ in first })
        let rows = behavior.displayFields.map { display -> Row in
            let name = display.fieldInfo.fieldName ?? ""
            let label = display.fieldInfo.label ?? display.field?.alias ?? name
            if let edit = editable[name] { return row(label: label, name: name, editor: edit.editor, field: edit.field) }
            if display.expressionName != nil {
                return Row(label: label, name: name, control: "calculated by an Arcade expression", controlClass: "readonly",
                           choices: [], hasChoices: false, note: nil)
            }
            let kind = display.field.map { EditorKind(field: $0, fieldInfo: display.fieldInfo) }
            return Row(label: label, name: name, control: kind == .unsupported ? "unsupported: an empty cell" : "read-only",
                       controlClass: kind == .unsupported ? "unsupported" : "readonly", choices: [], hasChoices: false,
                       note: display.field == nil ? "not a field of the layer" : nil)
        }
        let related = map.relationships(of: behavior).filter(\.isUsed).map { use -> Section in
            let target = use.relatedIndex.map { map.layers[$0] }
            let name = target?.layer.title ?? use.relationship.name ?? "table \(use.relationship.relatedTableId.map(String.init) ?? "?")"
            if use.kind == .manyToOne {
                return Section(text: name, detail: "many-to-one: pick the related record", actionable: true)
            }
            let sort = target?.displayFields.first.flatMap { $0.fieldInfo.label ?? $0.fieldInfo.fieldName }
            let canAdd = use.kind == .oneToMany && (target?.capabilities.canAdd ?? false)
            let detail = "one-to-many" + (sort.map { ", sorted by \($0)" } ?? "") + (canAdd ? " · Add" : " · no Add row")
            return Section(text: name, detail: detail, actionable: canAdd)
        }
        let attachments: String? = layer.attachments.show ? (layer.attachments.edit ? "Attachments: view, add, delete" : "Attachments: view only") : nil
        var facts: [Fact] = []
        facts.append(fact("Metadata", layer.metadataSource.map { "from the \($0.rawValue == "inline" ? "map itself" : $0.rawValue == "snapshot" ? "services snapshot" : "live service")" } ?? "not found: the app cannot edit it"))
        facts.append(fact("Pop-up", layer.popupEnabled ? "enabled" + (layer.identifyOrder.map { ", identify order \($0)" } ?? "") : "disabled: tapping shows nothing"))
        if !layer.editableFields.isEmpty {
            facts.append(Fact(term: "Editable fields", value: "", items: layer.editableFields.map { "\($0.alias ?? $0.name) (\($0.name)): \(editorText($0.editor))" }, hasItems: true))
        }
        if layer.form?.elements.isEmpty == false {
            facts.append(fact("Editing", "through the layer's form (drawn below): the pop-up's isEditable settings have no effect"))
        }
        facts.append(fact("Attachments", layer.attachments.show ? (layer.attachments.edit ? "shown, editable" : "shown, read-only") : "not shown"))
        facts.append(fact("Delete", layer.canDelete ? "allowed" : "not allowed"))
        if !layer.expressions.isEmpty {
            facts.append(Fact(term: "Arcade expressions", value: "", items: layer.expressions.map { e in
                "expression/\(e.name)\(e.title.map { " (\($0))" } ?? ""): "
                    + (e.error.map { "does not parse: \($0.message) at line \($0.line), column \($0.column)" } ?? "parses")
                    + (e.type.map { "; type \($0) (\(e.typeSource ?? ""))" } ?? "")
            }, hasItems: true))
        }
        if let offline = layer.offline { facts.append(fact("Offline", offline.text)) }
        var meta = [layer.geometry, layer.id.map { "id \($0)" }].compactMap { $0 }
        if let groups = behavior.layer.groupTitles.last { meta.append("in group \(groups)") }
        return Card(
            anchor: "layer-\(index + 1)", title: layer.title ?? "(untitled)", kind: layer.kind, meta: meta.joined(separator: " · "),
            identifiable: identifiable,
            note: identifiable ? nil : "Not identifiable or editable in the app." + (layer.offline.map { " Offline: \($0.text)." } ?? ""),
            popupTitle: behavior.popup?.title ?? layer.title ?? "(untitled)", popupEnabled: layer.popupEnabled,
            identify: layer.identifyOrder.map { "identify order \($0)" },
            rows: rows, hasRows: !rows.isEmpty, related: related, hasRelated: !related.isEmpty,
            attachments: attachments, canDelete: layer.canDelete, canEdit: !layer.editableFields.isEmpty,
            isTable: layer.kind == "table", addEligible: layer.addFeature.eligible,
            addFailures: layer.addFeature.failed.map { AddFeatureCondition(rawValue: $0)?.failureText ?? $0 }, facts: facts,
            form: formCard(layer.form))
    }

    private static func row(label: String, name: String, editor: EditorKind, field: FieldDefinition) -> Row {
        var choices: [String] = []
        if case .codedValue(_, let values) = field.domain { choices = values.map(\.name) }
        let control: String
        let cls: String
        switch editor {
        case .choiceList: control = "choose one ▾"; cls = "choice"
        case .number:
            if case .range(_, let min?, let max?) = field.domain { control = "number, \(number(min)) to \(number(max))" } else { control = "number" }
            cls = "number"
        case .multiLineText: control = "multi-line text" + (field.length.map { ", up to \($0) characters" } ?? ""); cls = "multi"
        case .singleLineText: control = "text" + (field.length.map { ", up to \($0) characters" } ?? ""); cls = "text"
        case .dateTime: control = "date and time"; cls = "date"
        case .readOnly: control = "read-only"; cls = "readonly"
        case .unsupported: control = "unsupported: an empty cell"; cls = "unsupported"
        }
        return Row(label: label + (field.nullable || editor == .readOnly ? "" : " *"), name: name, control: control, controlClass: cls,
                   choices: choices, hasChoices: !choices.isEmpty, note: nil)
    }

    private static func editorText(_ editor: String) -> String { editor.replacingOccurrences(of: "-", with: " ") }

    private static func fact(_ term: String, _ value: String) -> Fact { Fact(term: term, value: value, items: [], hasItems: false) }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    // MARK: The draw-order picture

    /// Scales on the picture's axis, from zoomed out (left) to zoomed in (right).
    static let smallestScale = 500.0, largestScale = 100_000_000.0

    private static func picture(_ map: MapBehavior) -> Picture? {
        // Operational layers draw in list order, the first at the bottom: list them top (drawn last) first.
        let drawn = map.layers.filter { !$0.layer.isTable && !$0.layer.isStandalonePopup }.reversed()
        guard !drawn.isEmpty else { return nil }
        let width = 960, plotLeft = 250, plotRight = 930, rowHeight = 30, top = 14
        let span = log10(largestScale) - log10(smallestScale)
        func x(_ scale: Double) -> Double {
            let clamped = min(max(scale, smallestScale), largestScale)
            return Double(plotLeft) + (log10(largestScale) - log10(clamped)) / span * Double(plotRight - plotLeft)
        }
        let bars = drawn.enumerated().map { index, behavior -> Bar in
            let (minScale, maxScale) = behavior.scaleRange
            let left = minScale > 0 ? x(minScale) : Double(plotLeft)
            let right = maxScale > 0 ? x(maxScale) : Double(plotRight)
            let empty = minScale > 0 && maxScale > 0 && minScale < maxScale
            let y = top + index * rowHeight
            let range = empty ? "never drawn (empty scale range)"
                : "\(minScale > 0 ? "from 1:\(grouped(minScale))" : "all scales out") \(maxScale > 0 ? "to 1:\(grouped(maxScale))" : "to all scales in")"
            let title = behavior.layer.title ?? behavior.layer.id ?? "(untitled)"
            return Bar(y: String(y), textY: String(y + 15), label: title.count > 32 ? String(title.prefix(31)) + "…" : title,
                       x: String(format: "%.1f", left), width: String(format: "%.1f", empty ? 0 : max(right - left, 2)),
                       fill: behavior.layer.isGroup ? "#98a2b3" : "#0b5cad", opacity: behavior.layer.visibility ? "0.9" : "0.35",
                       range: range + (behavior.layer.visibility ? "" : ", hidden when the map opens"), hidden: !behavior.layer.visibility)
        }
        let axisY = top + bars.count * rowHeight + 6
        let ticks = [100_000_000.0, 10_000_000, 1_000_000, 100_000, 10_000, 1_000].map {
            Tick(x: String(format: "%.1f", x($0)), label: "1:\(grouped($0))")
        }
        return Picture(width: width, height: axisY + 30, plotLeft: plotLeft, plotRight: plotRight, axisY: axisY, ticks: ticks, bars: bars)
    }

    /// `1234567` → `1,234,567`.
    private static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (index, digit) in digits.reversed().enumerated() {
            if index > 0 && index % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return String(out.reversed())
    }
}
