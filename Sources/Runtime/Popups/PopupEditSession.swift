import Foundation
import Rules
import FeatureServiceModel
import WebMap

/// docs/runtime.md "Pop-up edit sessions": what a pop-up lets a user see and do with one feature, and the edit of it.
///
/// Values are validated as they are set and the per-field problems kept; `finish()` writes nothing unless
/// everything is valid, and then reports every problem at once. The facts (display fields, editable fields and
/// their editors, related sections, attachments, delete) are the rule catalogue's own (`LayerBehavior`).
public actor PopupEditSession {
    public nonisolated let table: FeatureTable
    /// The feature as it was when the session began.
    public nonisolated let original: TableFeature
    /// True for a feature made by `createFeature` (added by `finish`).
    public nonisolated let isNewFeature: Bool

    public private(set) var isEditing = false
    /// The values set so far, converted to the fields' types (invalid ones are kept as typed).
    public private(set) var stagedValues = Attributes()
    /// The problem of each field whose value is invalid, by field name.
    public private(set) var fieldErrors: [String: RuntimeError] = [:]
    private var manyToOne: [Int: TableFeature] = [:]
    private var attachmentAdds: [(name: String, contentType: String, data: Data)] = []
    private var attachmentDeletes: [Int64] = []
    private var finished = false

    public init(feature: TableFeature, table: FeatureTable) {
        self.table = table
        self.original = feature
        self.isNewFeature = feature.objectId == nil
    }

    private var info: TableInfo { table.info }
    private var geodatabase: ServiceGeodatabase { table.geodatabase }
    private var behavior: LayerBehavior { table.info.behavior }

    // MARK: Before editing

    /// The fields the pop-up shows, in order, with their labels.
    public nonisolated var displayFields: [DisplayField] { table.info.behavior.displayFields }

    /// The fields a user can edit, with their editor (for a new feature: those editable when adding).
    public nonisolated var editableDisplayFields: [EditableField] { table.info.behavior.editableDisplayFields(forNewRecord: isNewFeature) }

    /// The pop-up's title with `{field}` placeholders replaced by the feature's values and `{expression/NAME}` by
    /// the expression's value. Synchronous, so without data access: an expression that reads a FeatureSet shows
    /// nothing here; `evaluatedTitle()` reads them.
    public nonisolated var title: String { PopupExpressions(info: table.info).title(for: original) }

    /// The pop-up expression `{expression/NAME}` evaluated on the feature as it was when the session began;
    /// nil when the pop-up has no expression of that name. Without data access (see `evaluateExpression(named:)`).
    public nonisolated func expressionValue(named name: String) -> PopupExpressionValue? {
        PopupExpressions(info: table.info).value(named: name, for: original)
    }

    /// Every expression of the pop-up (`expressionInfos`, in order) evaluated on the feature, without data access.
    public nonisolated var expressionValues: [PopupExpressionValue] { PopupExpressions(info: table.info).values(for: original) }

    /// The title as the app shows it: FeatureSet functions (`FeatureSetByName($map, ...)`,
    /// `FeatureSetByRelationshipName`) read the geodatabase's service, version and local edits.
    public nonisolated func evaluatedTitle() async throws -> String {
        let expressions = try await withDataAccess()
        let feature = original
        return await ArcadeThread.run { expressions.title(for: feature) }
    }

    /// The expression named `name` evaluated as the app does, FeatureSet functions included.
    public nonisolated func evaluateExpression(named name: String) async throws -> PopupExpressionValue? {
        let expressions = try await withDataAccess()
        let feature = original
        return await ArcadeThread.run { expressions.value(named: name, for: feature) }
    }

    /// Every expression of the pop-up evaluated as the app does, FeatureSet functions included.
    public nonisolated func evaluatedExpressions() async throws -> [PopupExpressionValue] {
        let expressions = try await withDataAccess()
        let feature = original
        return await ArcadeThread.run { expressions.values(for: feature) }
    }

    private nonisolated func withDataAccess() async throws -> PopupExpressions {
        PopupExpressions(info: table.info, dataAccess: try await GeodatabaseArcadeAccess.make(for: table))
    }

    /// Every condition that keeps `startEditing` from succeeding (empty when it would).
    public func failedConditions() async -> [RuntimeError] {
        var problems: [RuntimeError] = []
        let operation = isNewFeature ? "Adding a feature to \(info.title)" : "Editing feature \(original.objectId ?? 0) of \(info.title)"
        do { try await geodatabase.requireEditableVersion(operation, table: info) } catch let error as RuntimeError { problems.append(error) } catch {}
        if !behavior.isPopupEnabled {
            problems.append(RuntimeError(RuntimeError.Identifier.notPopupEnabled, "\(operation): the \(info.kindWord) is not pop-up enabled, so the app cannot edit it.",
                                         layer: info.reference, objectId: original.objectId))
        }
        if isNewFeature ? !info.capabilities.canAdd : !info.capabilities.canUpdate {
            problems.append(RuntimeError(isNewFeature ? RuntimeError.Identifier.cannotAdd : RuntimeError.Identifier.cannotUpdate,
                                         "\(operation): its capabilities (\(info.metadata.capabilities.description)) do not allow \(isNewFeature ? "adding" : "updating").",
                                         layer: info.reference, objectId: original.objectId))
        } else if !isNewFeature, !(await table.canUpdate(original)), problems.isEmpty {
            problems.append(RuntimeError(RuntimeError.Identifier.cannotUpdate, "\(operation): you may not update this feature (ownership-based access control).",
                                         layer: info.reference, objectId: original.objectId))
        }
        if let parent = await geodatabase.parentBeingEdited(of: original, table: info) {
            problems.append(RuntimeError(RuntimeError.Identifier.parentBeingEdited,
                                         "\(operation): its parent, feature \(parent.objectId) of \(parent.title), is being edited in a pop-up; finish or cancel that first.",
                                         layer: info.reference, objectId: original.objectId))
        }
        return problems
    }

    /// True when `startEditing` would succeed.
    public func canEdit() async -> Bool { await failedConditions().isEmpty }

    /// True when the app offers "Delete": pop-up enabled, service-backed, the table can delete, not a new feature.
    public nonisolated var canDelete: Bool { !isNewFeature && table.info.behavior.canDelete }

    /// Whether the pop-up shows attachments, and whether a user can add and delete them.
    public nonisolated var attachments: (show: Bool, edit: Bool) { (table.info.behavior.showsAttachments, table.info.behavior.canEditAttachments) }

    /// The related-records sections (many-to-one, one-to-many) the app shows.
    public func relatedSections() async throws -> [RelatedSection] { try await geodatabase.relatedSections(of: info) }

    /// Many-to-one: every record of the related table to choose from, ascending by its first pop-up field.
    public func choices(for relationship: String) async throws -> [TableFeature] {
        let section = try await geodatabase.relatedSection(relationship, of: info)
        guard section.kind == .manyToOne else {
            throw RuntimeError(RuntimeError.Identifier.relationshipNotFound, "\(info.title): '\(relationship)' is not a many-to-one relationship.", layer: info.reference)
        }
        return try await geodatabase.manyToOneChoices(section)
    }

    /// One-to-many: the feature's child records, descending by the related table's first pop-up field, nulls last.
    public func relatedRecords(for relationship: String) async throws -> [TableFeature] {
        let section = try await geodatabase.relatedSection(relationship, of: info)
        guard section.kind == .oneToMany else {
            throw RuntimeError(RuntimeError.Identifier.relationshipNotFound, "\(info.title): '\(relationship)' is not a one-to-many relationship.", layer: info.reference)
        }
        return try await geodatabase.oneToManyRecords(of: original, table: info, section: section)
    }

    // MARK: Editing

    /// Starts editing, or fails listing every failed condition (the first one's identifier).
    public func startEditing() async throws {
        guard !isEditing else { return }
        let problems = await failedConditions()
        if !problems.isEmpty { throw RuntimeError.combining(problems, operation: isNewFeature ? "Adding to \(info.title)" : "Editing feature \(original.objectId ?? 0) of \(info.title)") }
        if let id = original.objectId { await geodatabase.markBeingEdited(FeatureKey(tableID: info.id, objectId: id), true) }
        isEditing = true
    }

    /// Sets a field's value (typed, or text: numbers and dates are parsed). A field that is not an editable
    /// display field is refused (`runtime/unknown-field`, `runtime/field-not-editable`); an invalid value is kept
    /// with its problem (11001-11007), which is also answered.
    @discardableResult
    public func setValue(_ value: AttributeValue, for name: String) async throws -> RuntimeError? {
        if !isEditing { try await startEditing() }
        let operation = "Setting '\(name)' in the pop-up of \(info.title)"
        guard let field = info.field(name) else {
            let hint = Suggestions.closest(to: name, in: info.metadata.fields.map(\.name))
            throw RuntimeError(RuntimeError.Identifier.unknownField, "\(operation): the \(info.kindWord) has no field '\(name)'.\(hint.map { " Did you mean '\($0)'?" } ?? "")",
                               layer: info.reference, objectId: original.objectId, field: name)
        }
        guard editableDisplayFields.contains(where: { $0.field.name == field.name }) else {
            throw RuntimeError(RuntimeError.Identifier.fieldNotEditable, "\(operation): \(notEditableReason(field))",
                               layer: info.reference, objectId: original.objectId, field: field.name)
        }
        switch FieldValueValidator.convert(value, for: field, table: info) {
        case .success(let converted):
            stagedValues[field.name] = converted
            fieldErrors[field.name] = nil
            return nil
        case .failure(var problem):
            problem.objectId = original.objectId
            stagedValues[field.name] = value
            fieldErrors[field.name] = problem
            return problem
        }
    }

    private func notEditableReason(_ field: FieldDefinition) -> String {
        if !field.editable { return "\(field.displayName) is read-only in the service." }
        if info.metadata.isSystemMaintained(field) { return "\(field.displayName) is maintained by the service." }
        let kind = EditorKind(field: field, fieldInfo: nil)
        if !kind.isEditable { return "\(field.displayName) is a \(field.type.shortName) field, which the app shows as \(kind.rawValue)." }
        let entry = behavior.popup.flatMap { popup in popup.fieldInfos.first { $0.fieldName.map { info.field($0)?.name == field.name } ?? false } }
        guard let entry else { return "\(field.displayName) is not in the pop-up." }
        if !entry.visible { return "\(field.displayName) is hidden in the pop-up (visible: false)." }
        return "\(field.displayName) is not editable in the pop-up (isEditable: false)."
    }

    /// Many-to-one: stages the record of the related table this feature will point to.
    public func setRelated(_ record: TableFeature, relationship nameOrId: String) async throws {
        if !isEditing { try await startEditing() }
        let section = try await geodatabase.relatedSection(nameOrId, of: info)
        guard section.kind == .manyToOne, record.tableID == section.relatedTableID else {
            throw RuntimeError(RuntimeError.Identifier.relationshipNotFound,
                               "\(info.title): '\(nameOrId)' is not a many-to-one relationship to \(record.tableID == section.relatedTableID ? "pick a record of" : "table \(record.tableID)").",
                               layer: info.reference, objectId: original.objectId)
        }
        manyToOne[section.relationship.id ?? -1] = record
    }

    /// Stages an attachment to add when the session finishes.
    public func addAttachment(name: String, contentType: String, data: Data) async throws {
        if !isEditing { try await startEditing() }
        guard behavior.canEditAttachments || (!behavior.isPopupEnabled && info.metadata.hasAttachments) else {
            throw RuntimeError(RuntimeError.Identifier.cannotUpdate, "Adding attachment '\(name)' in \(info.title): the pop-up does not let users edit attachments.",
                               layer: info.reference, objectId: original.objectId)
        }
        attachmentAdds.append((name, contentType, data))
    }

    /// Stages the delete of an attachment of the feature.
    public func deleteAttachment(id: Int64) async throws {
        if !isEditing { try await startEditing() }
        attachmentDeletes.append(id)
    }

    // MARK: Ending

    /// Validates everything; when anything is invalid writes nothing and reports every problem at once.
    /// Otherwise commits the many-to-one choices, then adds (new) or updates the feature, then its attachments.
    /// Answers the feature as its table now has it.
    @discardableResult
    public func finish() async throws -> TableFeature {
        if !isEditing { try await startEditing() }
        let operation = isNewFeature ? "Saving a new feature of \(info.title)" : "Saving feature \(original.objectId ?? 0) of \(info.title)"
        var problems = editableDisplayFields.compactMap { fieldErrors[$0.field.name] }
        problems += fieldErrors.filter { name, _ in !editableDisplayFields.contains { $0.field.name == name } }.map(\.value)
        let sections = try await geodatabase.relatedSections(of: info)
        var values = stagedValues
        for section in sections where section.kind == .manyToOne {
            let keys = try await geodatabase.keys(of: section.relationship, table: info)
            if let record = manyToOne[section.relationship.id ?? -1] {
                values[keys.localKey] = record[keys.relatedKey] ?? .null
            } else if section.isComposite, isNewFeature {
                problems.append(RuntimeError(RuntimeError.Identifier.compositeRelatedRequired,
                                             "\(operation): the composite relationship '\(section.relationship.name ?? "")' needs a \(section.relatedTableName) record chosen first.",
                                             layer: info.reference))
            }
        }
        if !problems.isEmpty { throw RuntimeError.combining(problems, operation: operation) }
        var saved: TableFeature
        if isNewFeature {
            var feature = original
            for (name, value) in values { feature[name] = value }
            saved = try await table.add(feature)
        } else {
            var feature = original
            feature.attributes = values
            feature.geometry = nil
            try await table.update(feature)
            saved = try await table.feature(objectId: original.objectId ?? 0)
        }
        for attachment in attachmentAdds { try await table.addAttachment(to: saved, name: attachment.name, contentType: attachment.contentType, data: attachment.data) }
        for id in attachmentDeletes { try await table.deleteAttachment(of: saved, attachmentId: id) }
        saved = (try? await table.feature(objectId: saved.objectId ?? 0)) ?? saved
        await end()
        return saved
    }

    /// Discards staged values, relations and attachments; a feature that was never added is gone.
    public func cancel() async {
        stagedValues = Attributes()
        fieldErrors = [:]
        manyToOne = [:]
        attachmentAdds = []
        attachmentDeletes = []
        await end()
    }

    private func end() async {
        if isEditing, let id = original.objectId { await geodatabase.markBeingEdited(FeatureKey(tableID: info.id, objectId: id), false) }
        isEditing = false
        finished = true
    }
}

extension ServiceGeodatabase {
    func markBeingEdited(_ key: FeatureKey, _ editing: Bool) {
        if editing { featuresBeingEdited.insert(key) } else { featuresBeingEdited.remove(key) }
    }

    /// A parent (through a one-to-many relationship the app uses) of `feature` that is in a pop-up edit session.
    func parentBeingEdited(of feature: TableFeature, table: TableInfo) async -> (objectId: Int64, title: String)? {
        guard !featuresBeingEdited.isEmpty, let sections = try? await relatedSections(of: table) else { return nil }
        for section in sections where section.kind == .manyToOne {
            guard let keys = try? await keys(of: section.relationship, table: table), let value = feature[keys.localKey], !value.isNull,
                  let parents = try? await queryFeatures(FeatureQuery(where: "\(keys.relatedKey) = \(Self.literal(value))"), tableID: keys.related.id) else { continue }
            for parent in parents where featuresBeingEdited.contains(FeatureKey(tableID: keys.related.id, objectId: parent.objectId ?? 0)) {
                return (parent.objectId ?? 0, keys.related.title)
            }
        }
        return nil
    }
}
