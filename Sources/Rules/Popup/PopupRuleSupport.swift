import WebMap

/// What the popup/ rules share: which pop-ups they look at, how they read `{name}` placeholders, and how
/// they classify an `isEditable: true` flag. The definitions themselves (display fields, editor kind,
/// capabilities) come from `LayerBehavior`; nothing here recomputes them.

/// A pop-up the app can show: that of a feature layer or table (service-backed or inline) that has a
/// `popupInfo`, whether or not the pop-up is enabled (a disabled pop-up is still authored content).
struct PopupSubject {
    let layer: LayerBehavior
    let popup: PopupInfo

    /// "layer 'Trees' (id Trees_1234)" or "table 'Inspections' (id Inspections_1)".
    var name: String { (layer.layer.isTable ? "table " : "layer ") + layer.layer.displayName }
}

extension PopupSubject {
    /// Every pop-up the popup/ rules check, in map order (derived once per file).
    static func all(in context: MapContext) -> [PopupSubject] {
        context.shared([PopupSubject].self) {
            context.behavior.layers.compactMap { layer in
                guard layer.needsMetadata, let popup = layer.popup else { return nil }
                return PopupSubject(layer: layer, popup: popup)
            }
        }
    }
}

/// The `{name}` placeholders of pop-up text (titles, descriptions).
enum PopupPlaceholders {
    /// Calls `body` with each name inside single braces, in order, trimmed of spaces. `{{ name }}` template
    /// placeholders (left when no variable resolves them) are not pop-up placeholders and are skipped. Read as
    /// UTF-8 bytes (the braces are ASCII) and handed out one by one: titles and descriptions of every pop-up of
    /// every map pass through here.
    static func forEachName(in text: String, _ body: (String) -> Void) {
        var copy = text
        copy.withUTF8 { bytes in
            let open = UInt8(ascii: "{")
            let close = UInt8(ascii: "}")
            var i = 0
            while let brace = bytes[i...].firstIndex(of: open) {
                let inner = brace + 1
                if inner < bytes.count, bytes[inner] == open {
                    // `{{ ... }}`: skip to after the closing pair.
                    var end = inner + 1
                    while end + 1 < bytes.count, !(bytes[end] == close && bytes[end + 1] == close) { end += 1 }
                    guard end + 1 < bytes.count else { return }
                    i = end + 2
                    continue
                }
                guard let end = bytes[inner...].firstIndex(where: { $0 == open || $0 == close }) else { return }
                if bytes[end] == open {
                    i = end
                    continue
                }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[inner..<end]), as: UTF8.self).trimmingSpaces()
                if !name.isEmpty { body(name) }
                i = end + 1
            }
        }
    }

    /// The name after `expression/`, for an expression placeholder.
    static func expressionName(_ placeholder: String) -> String? {
        placeholder.hasPrefix("expression/") ? String(placeholder.dropFirst("expression/".count)) : nil
    }
}

/// An `isEditable: true` flag on a `fieldInfos` entry naming a field of a service-backed layer whose
/// metadata is known, with the one problem that explains it best (or none). Each flag gets at most one of the
/// popup/editable-* diagnostics, the most specific first: the field's type can never be edited, the service
/// forbids editing it, the pop-up hides it, the layer allows no editing.
final class EditableFlag {
    // A class: the five popup/editable-* rules each walk every flag of the map, and a struct copy would
    // retain its four parts at every step.
    enum Problem {
        /// Geometry, Raster, XML or Blob: `popup/editable-unsupported-type`.
        case unsupportedType
        /// OID, GlobalID or GUID: `popup/editable-readonly-type`.
        case readOnlyType
        /// The service marks the field `editable: false`: `popup/editable-but-service-readonly`.
        case serviceReadOnly
        /// `visible: false` on a field that could be edited: `popup/editable-but-hidden`.
        case hidden
        /// Visible and editable, but the layer can neither update nor add: `popup/editable-on-readonly-layer`.
        case readOnlyLayer
    }

    let subject: PopupSubject
    let info: PopupFieldInfo
    let field: FieldDefinition
    /// The one problem that explains the flag best (computed once: five rules ask).
    let problem: Problem?

    init(subject: PopupSubject, info: PopupFieldInfo, field: FieldDefinition) {
        self.subject = subject
        self.info = info
        self.field = field
        problem = Self.problem(info: info, field: field, editor: EditorKind(fieldType: field), capabilities: subject.layer.capabilities)
    }

    /// Where every popup/editable-* rule reports: the `isEditable` value.
    var pointer: JSONPointer { info.pointer / "isEditable" }

    /// The fix of the popup/editable-* rules whose flag can never work: `isEditable: false`.
    func fixSettingNotEditable(in context: MapContext) -> Fix? {
        guard let node = info.node["isEditable"] else { return nil }
        return context.fixes.replace(node, at: pointer, with: .bool(false),
                                     description: "Set `isEditable` to false for field '\(field.name)'.")
    }

    private static func problem(info: PopupFieldInfo, field: FieldDefinition, editor: EditorKind,
                                capabilities caps: EditCapabilities) -> Problem? {
        if editor == .unsupported { return .unsupportedType }
        if editor == .readOnly { return .readOnlyType }
        if !field.editable { return .serviceReadOnly }
        if !info.visible { return .hidden }
        if !caps.canUpdate && !caps.canAdd { return .readOnlyLayer }
        return nil
    }

    /// Every `isEditable: true` flag of the map's service-backed pop-ups, in document order.
    static func all(in context: MapContext) -> [EditableFlag] {
        context.shared([EditableFlag].self) { compute(in: context) }
    }

    private static func compute(in context: MapContext) -> [EditableFlag] {
        var flags: [EditableFlag] = []
        // On a form-enabled layer the form decides what a crew edits (forms.md): the form/ rules take over.
        for subject in PopupSubject.all(in: context) where subject.layer.isServiceBacked && subject.layer.table != nil
            && !subject.layer.isFormEnabled {
            for (position, facts) in subject.layer.fieldInfoFacts.enumerated() where facts.isEditable && facts.fieldIndex >= 0 {
                guard let field = subject.layer.field(at: position) else { continue }
                let info = subject.popup.fieldInfos[position]
                flags.append(EditableFlag(subject: subject, info: info, field: field))
            }
        }
        return flags
    }
}
