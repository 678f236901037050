import Foundation
import WebMap
import FeatureServiceModel

extension ServiceCore {
    /// `<layer>/applyEdits`.
    public func applyEdits(service name: String, layer layerId: Int, _ edits: LayerEdits, options: EditOptions = EditOptions(),
                           as caller: Caller) async throws -> LayerEditResults {
        var edits = edits
        edits.id = layerId
        guard let result = try await applyEdits(service: name, [edits], options: options, as: caller).first else {
            throw ServiceError.internal("applyEdits answered no result")
        }
        return result
    }

    /// Service-level `applyEdits`: the edits of several layers. With `rollbackOnFailure` (the default) they
    /// run in one database transaction and either all land or none does; the features that were valid then
    /// answer 1003 "Operation rolled back".
    public func applyEdits(service name: String, _ edits: [LayerEdits], options: EditOptions = EditOptions(),
                           as caller: Caller) async throws -> [LayerEditResults] {
        let service = try self.service(name)
        let policy = AccessPolicy(core: self, service: service, caller: caller)
        try policy.requireSignedIn()
        var layers: [LayerModel] = []
        for entry in edits {
            guard let id = entry.id else { throw ServiceError.invalidParameter("Every entry of edits needs a layer id.") }
            let layer = try service.layer(id)
            try Self.checkCapabilities(entry, layer: layer, options: options)
            layers.append(layer)
        }
        let targets = layers
        do {
            return try await editTransaction(service: service, policy: policy, options: options, layers: targets) { writer in
                var results: [LayerEditResults] = []
                for (entry, layer) in zip(edits, targets) { results.append(try writer.apply(entry, layer: layer)) }
                if options.rollbackOnFailure && !results.allSatisfy(\.succeeded) { throw RollbackRequest(results: results) }
                return results
            }
        } catch let rollback as RollbackRequest {
            return rollback.markedResults
        }
    }
}

extension ServiceCore {
    /// Runs `body` in one write transaction at one new moment, in the version `options.gdbVersion` names,
    /// after the access and session checks every edit goes through (`applyEdits`, the attachment operations);
    /// the moment bookkeeping of `layers` is written once `body` returns, and nothing is written when it throws.
    func editTransaction<T: Sendable>(service: ServiceModel, policy: AccessPolicy, options: EditOptions, layers: [LayerModel],
                                      _ body: @escaping @Sendable (inout EditWriter) throws -> T) async throws -> T {
        try policy.requireSignedIn()
        let sessions = self.sessions
        return try await database.write { db in
            let version = try Self.resolveVersion(db, service: service, name: options.gdbVersion, policy: policy)
            try policy.requireEdit(version)
            try sessions.checkEdit(version: version, sessionID: options.sessionID, in: db)
            let moment = try Self.nextMoment(db, service: service.name)
            var writer = EditWriter(db: db, service: service, version: version, moment: moment, policy: policy, options: options)
            let result = try body(&writer)
            try writer.finish(touchedLayers: Set(layers.map(\.key)))
            return result
        }
    }
}

/// Thrown inside the write transaction to roll it back while keeping the per-feature results.
struct RollbackRequest: Error {
    var results: [LayerEditResults]
}

extension ServiceCore {
    /// Refuses the edits of one layer that its capabilities do not allow (create, update, delete,
    /// attachments): the check every applyEdits and every replica upload goes through.
    static func checkCapabilities(_ entry: LayerEdits, layer: LayerModel, options: EditOptions) throws {
        let can = layer.capabilities
        if !entry.adds.isEmpty && !can.canAdd {
            throw ServiceError.notSupported("\(layer.title) does not allow adding features (capabilities: \(layer.metadata.capabilities.description)).")
        }
        if !entry.updates.isEmpty && !can.canUpdate {
            throw ServiceError.notSupported("\(layer.title) does not allow updating features (capabilities: \(layer.metadata.capabilities.description)).")
        }
        if (!entry.deletes.isEmpty || !entry.deleteGlobalIds.isEmpty) && !can.canDelete {
            throw ServiceError.notSupported("\(layer.title) does not allow deleting features (capabilities: \(layer.metadata.capabilities.description)).")
        }
        if let attachments = entry.attachments, !attachments.isEmpty {
            guard layer.metadata.hasAttachments else { throw ServiceError.notSupported("\(layer.title) does not have attachments.") }
            guard options.useGlobalIds else { throw ServiceError.invalidParameter("Attachment edits in applyEdits need useGlobalIds=true.") }
        }
    }
}

extension RollbackRequest {
    /// The results as answered after the rollback: every edit that had succeeded answers 1003.
    var markedResults: [LayerEditResults] {
        results.map { result in
            func mark(_ list: [EditResult]) -> [EditResult] {
                list.map { $0.success ? EditResult(objectId: nil, globalId: nil, success: false, error: .rolledBack) : $0 }
            }
            var copy = result
            copy.addResults = mark(result.addResults)
            copy.updateResults = mark(result.updateResults)
            copy.deleteResults = mark(result.deleteResults)
            copy.editMoment = nil
            if let attachments = result.attachments {
                copy.attachments = AttachmentEditResults(addResults: mark(attachments.addResults), updateResults: mark(attachments.updateResults),
                                                         deleteResults: mark(attachments.deleteResults))
            }
            return copy
        }
    }
}

extension SessionRegistry {
    /// Edits of a version held by another session's edit lock are refused.
    func checkEdit(version: VersionRecord, sessionID: String?, in db: any StoreConnection) throws {
        let locks = try snapshot(version.guid, in: db)
        guard let editor = locks.editor else { return }
        let requested = sessionID.flatMap(GUIDText.normalize) ?? sessionID
        if requested != editor.session {
            throw ServiceError.versionOperationFailed("The version is being edited by another session.",
                "'\(version.qualifiedName)' is locked for editing by another session; edit with that session's sessionID, or wait for stopEditing.",
                extendedCode: -2147217148)
        }
    }
}

/// Writes the edits of one request at one moment in one branch.
struct EditWriter {
    let db: any StoreConnection
    let service: ServiceModel
    let version: VersionRecord
    let view: VersionView
    let moment: Int64
    let policy: AccessPolicy
    let options: EditOptions
    let now: Int64
    /// Next object id per layer key, read once per request and written back by `finish`.
    private var nextIds: [Int64: Int64] = [:]

    init(db: any StoreConnection, service: ServiceModel, version: VersionRecord, moment: Int64, policy: AccessPolicy, options: EditOptions) {
        self.db = db
        self.service = service
        self.version = version
        self.view = VersionView(version)
        self.moment = moment
        self.policy = policy
        self.options = options
        self.now = moment
    }

    mutating func apply(_ edits: LayerEdits, layer: LayerModel) throws -> LayerEditResults {
        var result = LayerEditResults(id: layer.id, addResults: [], updateResults: [], deleteResults: [], attachments: nil,
                                      editMoment: options.returnEditMoment ? moment : nil)
        for feature in edits.adds { result.addResults.append(try add(feature, layer: layer)) }
        for feature in edits.updates { result.updateResults.append(try update(feature, layer: layer)) }
        for id in edits.deletes { result.deleteResults.append(try delete(objectId: id, globalId: nil, layer: layer)) }
        for gid in edits.deleteGlobalIds { result.deleteResults.append(try delete(objectId: nil, globalId: gid, layer: layer)) }
        if let attachments = edits.attachments, !attachments.isEmpty {
            result.attachments = AttachmentEditResults(
                addResults: try attachments.adds.map { try addAttachment($0, layer: layer) },
                updateResults: try attachments.updates.map { try updateAttachment($0, layer: layer) },
                deleteResults: try attachments.deletes.map { try deleteAttachment(globalId: $0, layer: layer) })
        }
        return result
    }

    /// Updates the moment bookkeeping once every edit is written.
    func finish(touchedLayers: Set<Int64>) throws {
        for (key, next) in nextIds {
            try db.execute("UPDATE layer SET nextObjectId = CASE WHEN nextObjectId > \(next) THEN nextObjectId ELSE \(next) END WHERE key = \(key)")
        }
        if version.isDefault {
            try db.execute("UPDATE service SET defaultMoment = \(moment) WHERE name = \(service.name)")
            for key in touchedLayers { try db.execute("UPDATE layer SET defaultMoment = \(moment) WHERE key = \(key)") }
        }
        try db.execute("UPDATE version SET modifiedDate = \(now) WHERE id = \(version.id)")
    }

    // MARK: Features

    private func geometry(_ feature: EditFeature, layer: LayerModel) throws(EditError) -> Geometry? {
        guard let geometry = feature.geometry else { return nil }
        if layer.isTable { return nil }
        let expected = layer.geometryType
        var shape = geometry
        if case .envelope = geometry, expected == .polygon { shape = .polygon(Spatial.areaRings(geometry)) }
        if let expected, shape.type != expected {
            throw EditError.geometry("\(layer.title) holds \(expected.shortName) geometries; a \(geometry.type.shortName) was sent.")
        }
        guard let reference = feature.spatialReference ?? Optional(layer.spatialReference), let system = reference.normalized else {
            throw EditError.geometry("the spatial reference \(feature.spatialReference?.wkid ?? 0) is not supported (use 4326 or 3857).")
        }
        // The HTTP face refuses non-numbers when it reads the JSON; an in-process caller hands geometries over as
        // values, so both are checked here, in storage coordinates (x 1e308 in 4326 projects to infinity).
        guard shape.vertices.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw EditError.geometry("the geometry has coordinates that are not finite numbers.")
        }
        let stored = Projection.project(shape, from: system, to: .wgs84)
        guard stored.vertices.allSatisfy({ $0.x.isFinite && $0.y.isFinite && abs($0.y) <= 90 }) else {
            throw EditError.geometry("the geometry lies outside the world of spatial reference \(reference.wkid) (latitudes beyond 90 degrees or coordinates too large to project).")
        }
        return stored
    }

    private func track(_ attributes: inout Attributes, layer: LayerModel, created: Bool) {
        guard let info = layer.editTracking else { return }
        let name = AttributeValue.string(policy.actingName)
        if created {
            if let f = info.creatorField, layer.field(f) != nil { attributes[f] = name }
            if let f = info.creationDateField, layer.field(f) != nil { attributes[f] = .int(now) }
        }
        if let f = info.editorField, layer.field(f) != nil { attributes[f] = name }
        if let f = info.editDateField, layer.field(f) != nil { attributes[f] = .int(now) }
    }

    private mutating func nextObjectId(_ layer: LayerModel) throws -> Int64 {
        if nextIds[layer.key] == nil {
            guard let next = try db.fetchValue("SELECT nextObjectId FROM layer WHERE key = \(layer.key)", as: Int64.self) else {
                throw ServiceError.internal("layer row missing")
            }
            nextIds[layer.key] = next
        }
        let id = nextIds[layer.key]!
        nextIds[layer.key] = id + 1
        return id
    }

    private mutating func add(_ feature: EditFeature, layer: LayerModel) throws -> EditResult {
        var givenGlobalId: String?
        if options.useGlobalIds, let field = layer.globalIdField, let given = feature.attributes[field], !given.isNull {
            guard let text = given.string, let normalized = GUIDText.normalize(text) else {
                return EditResult(objectId: nil, globalId: nil, success: false, error: .value(field, "\(given) is not a GUID."))
            }
            // One constant SQL text for every add of the request: the store prepares it once per connection.
            let taken = try db.fetchOne("SELECT 1 FROM featureRow WHERE layerKey = \(layer.key) AND globalId = \(normalized) LIMIT 1") != nil
            if taken { return EditResult(objectId: nil, globalId: normalized, success: false, error: .duplicateGlobalId(normalized)) }
            givenGlobalId = normalized
        }
        let globalId = givenGlobalId ?? GUIDText.make()
        let attributes: Attributes
        let shape: Geometry?
        do {
            attributes = try AttributeValidator(layer: layer).apply(feature.attributes, to: nil)
            shape = try geometry(feature, layer: layer)
        } catch {
            return EditResult(objectId: nil, globalId: nil, success: false, error: error)
        }
        let objectId = try nextObjectId(layer)
        var stored = attributes
        stored[layer.objectIdField] = .int(objectId)
        if let field = layer.globalIdField { stored[field] = .string(globalId) }
        track(&stored, layer: layer, created: true)
        try RowStore.write(db, layerKey: layer.key, branch: view.branch, moment: moment,
                           row: .init(objectId: objectId, globalId: globalId, isDelete: false, attributes: stored, geometry: shape))
        return EditResult(objectId: objectId, globalId: globalId, success: true)
    }

    /// The live row an update or delete names, or the result explaining why there is none.
    func target(objectId: Int64?, globalId: String?, layer: LayerModel) throws -> Result<FeatureRowRecord, EditError> {
        var row: FeatureRowRecord?
        if let globalId {
            guard let normalized = GUIDText.normalize(globalId) else { return .failure(.missing("'\(globalId)' is not a global id.")) }
            row = try RowStore.visibleRow(db, layerKey: layer.key, globalId: normalized, view: view)
        } else if let objectId {
            row = try RowStore.visibleRow(db, layerKey: layer.key, objectId: objectId, view: view)
        }
        guard let row, !row.isDelete else {
            let name = globalId.map { "global id \($0)" } ?? objectId.map { "object id \($0)" } ?? "no object id"
            return .failure(.missing("\(layer.title) has no feature with \(name) in \(version.qualifiedName)."))
        }
        return .success(row)
    }

    /// Ownership-based access control: may the caller change a feature someone else created?
    private func ownershipAllows(_ row: FeatureRowRecord, layer: LayerModel, delete: Bool) throws -> EditError? {
        guard let ownership = layer.ownership, let creatorField = layer.editTracking?.creatorField else { return nil }
        if policy.isAdministrator || policy.ownsService { return nil }
        if delete ? ownership.allowOthersToDelete : ownership.allowOthersToUpdate { return nil }
        let attributes = try RowStore.decodeAttributes(row.attributes)
        let creator = attributes[creatorField]?.string ?? ""
        if creator.caseInsensitiveCompare(policy.actingName) == .orderedSame { return nil }
        return .ownership("\(layer.title) lets only a feature's creator \(delete ? "delete" : "update") it, and \(creator.isEmpty ? "someone else" : creator) created object \(row.objectId).")
    }

    private func update(_ feature: EditFeature, layer: LayerModel) throws -> EditResult {
        let objectId = feature.attributes[layer.objectIdField].flatMap { value -> Int64? in
            switch value {
            case .int(let i): return i
            case .double(let d): return Int64(exactly: d)
            case .string(let s): return Int64(s)
            case .null: return nil
            }
        }
        let globalId = options.useGlobalIds ? layer.globalIdField.flatMap { feature.attributes[$0]?.string } : nil
        if options.useGlobalIds && globalId == nil {
            return EditResult(objectId: objectId, globalId: nil, success: false, error: .missingGlobalId("useGlobalIds is true but the update names no \(layer.globalIdField ?? "GlobalID")."))
        }
        if globalId == nil && objectId == nil {
            return EditResult(objectId: nil, globalId: nil, success: false, error: .missing("the update names no \(layer.objectIdField)."))
        }
        let current: FeatureRowRecord
        switch try target(objectId: objectId, globalId: globalId, layer: layer) {
        case .failure(let error): return EditResult(objectId: objectId, globalId: globalId.flatMap(GUIDText.normalize), success: false, error: error)
        case .success(let row): current = row
        }
        if let denied = try ownershipAllows(current, layer: layer, delete: false) {
            return EditResult(objectId: current.objectId, globalId: current.globalId, success: false, error: denied)
        }
        var shape = try RowStore.decodeGeometry(current.geometry)
        do {
            if feature.geometry != nil && !layer.isTable {
                guard layer.allowGeometryUpdates else { throw EditError.geometryUpdateNotAllowed(layer.title) }
                shape = try geometry(feature, layer: layer)
            }
            var attributes = try AttributeValidator(layer: layer).apply(feature.attributes, to: try RowStore.decodeAttributes(current.attributes))
            attributes[layer.objectIdField] = .int(current.objectId)
            if let field = layer.globalIdField { attributes[field] = .string(current.globalId) }
            track(&attributes, layer: layer, created: false)
            try RowStore.write(db, layerKey: layer.key, branch: view.branch, moment: moment,
                               row: .init(objectId: current.objectId, globalId: current.globalId, isDelete: false, attributes: attributes, geometry: shape))
        } catch let error as EditError {
            return EditResult(objectId: current.objectId, globalId: current.globalId, success: false, error: error)
        }
        return EditResult(objectId: current.objectId, globalId: current.globalId, success: true)
    }

    private func delete(objectId: Int64?, globalId: String?, layer: LayerModel) throws -> EditResult {
        let current: FeatureRowRecord
        switch try target(objectId: objectId, globalId: globalId, layer: layer) {
        case .failure(let error): return EditResult(objectId: objectId, globalId: globalId.flatMap(GUIDText.normalize), success: false, error: error)
        case .success(let row): current = row
        }
        if let denied = try ownershipAllows(current, layer: layer, delete: true) {
            return EditResult(objectId: current.objectId, globalId: current.globalId, success: false, error: denied)
        }
        var attributes = try RowStore.decodeAttributes(current.attributes)
        track(&attributes, layer: layer, created: false)
        try RowStore.write(db, layerKey: layer.key, branch: view.branch, moment: moment,
                           row: .init(objectId: current.objectId, globalId: current.globalId, isDelete: true, attributes: attributes,
                                      geometry: try RowStore.decodeGeometry(current.geometry)))
        return EditResult(objectId: current.objectId, globalId: current.globalId, success: true)
    }

    // MARK: Attachments

    func addAttachment(_ upload: AttachmentUpload, layer: LayerModel) throws -> EditResult {
        guard let parentId = upload.parentGlobalId else {
            return EditResult(objectId: nil, globalId: upload.globalId, success: false, error: .attachmentAdd("parentGlobalId is required."))
        }
        guard case .success(let parent) = try target(objectId: nil, globalId: parentId, layer: layer) else {
            return EditResult(objectId: nil, globalId: upload.globalId, success: false, error: .attachmentAdd("\(layer.title) has no feature with global id \(parentId)."))
        }
        if let given = upload.globalId {
            guard let normalized = GUIDText.normalize(given) else {
                return EditResult(objectId: nil, globalId: given, success: false, error: .attachmentAdd("'\(given)' is not a GUID."))
            }
            if try db.fetchOne("SELECT 1 FROM attachmentRow WHERE layerKey = \(layer.key) AND globalId = \(normalized) LIMIT 1") != nil {
                return EditResult(objectId: nil, globalId: normalized, success: false, error: .duplicateGlobalId(normalized))
            }
        }
        let row = try AttachmentStore.add(db, layer: layer, parent: parent, upload: upload, branch: view.branch, moment: moment)
        return EditResult(objectId: row.attachmentId, globalId: row.globalId, success: true)
    }

    func updateAttachment(_ upload: AttachmentUpload, layer: LayerModel) throws -> EditResult {
        guard let gid = upload.globalId.flatMap(GUIDText.normalize),
              let current = try AttachmentStore.visible(db, layerKey: layer.key, globalId: gid, view: view) else {
            return EditResult(objectId: nil, globalId: upload.globalId, success: false,
                              error: EditError(code: 1009, description: "Updating an attachment failed: no attachment with global id \(upload.globalId ?? "(none)")."))
        }
        let row = try AttachmentStore.writeState(db, of: current, upload: upload, isDelete: false, branch: view.branch, moment: moment)
        return EditResult(objectId: row.attachmentId, globalId: row.globalId, success: true)
    }

    func deleteAttachment(globalId: String, layer: LayerModel) throws -> EditResult {
        guard let gid = GUIDText.normalize(globalId), let current = try AttachmentStore.visible(db, layerKey: layer.key, globalId: gid, view: view) else {
            return EditResult(objectId: nil, globalId: globalId, success: false, error: .attachmentDelete("no attachment with global id \(globalId)."))
        }
        let row = try AttachmentStore.writeState(db, of: current, upload: nil, isDelete: true, branch: view.branch, moment: moment)
        return EditResult(objectId: row.attachmentId, globalId: row.globalId, success: true)
    }
}
