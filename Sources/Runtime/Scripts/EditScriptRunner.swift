import Foundation
import FeatureServiceModel
import WebMap

/// Runs an edit script's steps through the runtime, the way a field crew would (docs/edit-scripts.md): each step is
/// one runtime call, refused locally (nothing sent) when a rule, a validation or a capability forbids it.
public final class EditScriptRunner {
    public let script: EditScript
    public let geodatabase: ServiceGeodatabase
    private var saved: [String: JSON]

    /// `$run.id`: six hexadecimal digits, different for every run, for names that must be new on a service
    /// that keeps its data between runs (`name: "Crew3_$run.id"`).
    public static let predefinedName = "run"

    public init(script: EditScript, geodatabase: ServiceGeodatabase, runId: String? = nil) {
        self.script = script
        self.geodatabase = geodatabase
        let id = runId ?? String(UInt32.random(in: 0...0xFFFFFF), radix: 16, uppercase: false).leftPadded(to: 6).replacingOccurrences(of: " ", with: "0")
        saved = [Self.predefinedName: .object([("id", .string(id))])]
    }

    /// Runs the steps in order; stops at the first failed step unless `keepGoing`, and at once when the service
    /// cannot be reached. `onStep` sees each outcome as it happens.
    public func run(keepGoing: Bool = false, onStep: (StepOutcome) -> Void = { _ in }) async -> ScriptReport {
        var outcomes: [StepOutcome] = []
        for (position, step) in script.steps.enumerated() {
            let outcome = await run(step)
            outcomes.append(outcome)
            onStep(outcome)
            let unreachable = !outcome.ok && outcome.error?.identifier == RuntimeError.Identifier.unreachable
            if unreachable || (!outcome.ok && !keepGoing) {
                return ScriptReport(steps: outcomes, unreachable: unreachable, skipped: script.steps.count - position - 1)
            }
        }
        return ScriptReport(steps: outcomes, unreachable: false, skipped: 0)
    }

    private func run(_ step: EditScript.Step) async -> StepOutcome {
        var outcome = StepOutcome(index: step.index, operation: step.operation, ok: false, expectedFailure: step.expectFailure,
                                  error: nil, result: nil, summary: "", place: step.place)
        do {
            let arguments = try ScriptValues.substitute(step.arguments, saved: saved, place: step.place)
            let (summary, result) = try await perform(step.operation, arguments)
            if let expected = step.expectFailure {
                outcome.summary = "expected to fail with \(expected), but it succeeded: \(summary)"
                outcome.result = result
                return outcome
            }
            outcome.ok = true
            outcome.summary = summary
            outcome.result = result
            if let name = step.save { saved[name] = result ?? .null }
        } catch {
            let failure = RuntimeError.wrapping(error, operation: step.operation)
            outcome.error = failure
            if let expected = step.expectFailure, failure.matches(expected) {
                outcome.ok = true
                outcome.summary = "refused as expected: \(failure.identifier)\(failure.serviceCode.map { " (code \($0))" } ?? ""): \(failure.message)"
            } else if let expected = step.expectFailure {
                outcome.summary = "expected \(expected), got \(failure.description)"
            } else {
                outcome.summary = failure.description
            }
        }
        return outcome
    }

    // MARK: Operations

    private func perform(_ operation: String, _ a: JSON) async throws -> (String, JSON?) {
        switch operation {
        case "signIn":
            let user = a["user"]?.string ?? ""
            try await geodatabase.signIn(.password(user: user, password: a["password"]?.string ?? ""))
            return ("signed in as \(user)", nil)
        case "fetchVersions":
            let versions = try await geodatabase.fetchVersions()
            let list = JSON.array(versions.map { .object([("versionName", .string($0.versionName)), ("access", .string(Self.accessWord($0.access))),
                                                          ("versionGuid", .string($0.versionGuid))]) })
            return ("\(versions.count) versions: \(versions.map(\.versionName).joined(separator: ", "))", .object([("versions", list)]))
        case "createVersion":
            let info = try await geodatabase.createVersion(name: a["name"]?.string ?? "", access: a["access"]?.string ?? "private",
                                                           description: a["description"]?.string ?? "")
            return ("created \(info.versionName) (\(Self.accessWord(info.access))) \(info.versionGuid)",
                    .object([("versionName", .string(info.versionName)), ("versionGuid", .string(info.versionGuid)), ("access", .string(Self.accessWord(info.access)))]))
        case "switchVersion":
            let pending = a["pending"]?.string.flatMap(ServiceGeodatabase.PendingEditsPolicy.init(rawValue:))
            try await geodatabase.switchVersion(to: a["to"]?.string ?? "", pending: pending)
            let now = await geodatabase.versionName ?? ""
            return ("now on \(now)", nil)
        case "query":
            let table = try await table(a)
            let features = try await table.queryFeatures(try query(a, table: table))
            return ("\(features.count) feature\(features.count == 1 ? "" : "s") of \(table.title)\(Self.idList(features))",
                    .object([("count", .int(features.count)), ("features", .array(features.map(Self.featureJSON)))]))
        case "addFeature":
            return try await addFeature(a)
        case "updateAttributes":
            let table = try await table(a)
            let feature = try await table.feature(objectId: try objectId(a["objectId"], table: table))
            let session = PopupEditSession(feature: feature, table: table)
            let values = try ScriptValues.attributes(a["attributes"])
            do {
                try await session.startEditing()
                for (name, value) in values { try await session.setValue(value, for: name) }
                let saved = try await session.finish()
                return ("feature \(saved.objectId ?? 0) of \(table.title): \(Self.describe(values, in: saved))", nil)
            } catch {
                await session.cancel()
                throw error
            }
        case "moveFeature":
            let table = try await table(a)
            let id = try objectId(a["objectId"], table: table)
            let (geometry, reference) = try Self.geometry(a["geometry"] ?? .null, table: table)
            let feature = try await table.feature(objectId: id)
            try await table.update(TableFeature(tableID: table.id, objectId: feature.objectId, attributes: Attributes(), geometry: geometry, spatialReference: reference))
            let moved = try await table.feature(objectId: id)
            return ("moved feature \(moved.objectId ?? id) of \(table.title)\(Self.behaviourNote(before: feature, after: moved))", nil)
        case "deleteFeature":
            let table = try await table(a)
            let feature = try await table.feature(objectId: try objectId(a["objectId"], table: table))
            try await deleteThroughPopup(feature, table: table)
            return ("deleted feature \(feature.objectId ?? 0) of \(table.title) (locally)", nil)
        case "relate":
            return try await relate(a)
        case "addAttachment":
            let table = try await table(a)
            let feature = try await table.feature(objectId: try objectId(a["objectId"], table: table))
            let file = a["file"]?.string ?? ""
            let path = file.hasPrefix("/") ? file : (script.directory as NSString).appendingPathComponent(file)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw RuntimeError("script/argument", "Adding attachment: cannot read the file '\(path)'.")
            }
            let name = (file as NSString).lastPathComponent
            let id = try await table.addAttachment(to: feature, name: name, contentType: a["contentType"]?.string ?? Self.contentType(of: name), data: data)
            return ("staged attachment \(id) '\(name)' (\(data.count) bytes) on feature \(feature.objectId ?? 0)", .object([("attachmentId", .int(Int(id)))]))
        case "deleteAttachment":
            let table = try await table(a)
            let feature = try await table.feature(objectId: try objectId(a["objectId"], table: table))
            let attachment = try objectId(a["attachmentId"], table: nil)
            try await table.deleteAttachment(of: feature, attachmentId: attachment)
            return ("staged the delete of attachment \(attachment) of feature \(feature.objectId ?? 0)", nil)
        case "applyEdits":
            let results = try await geodatabase.applyEdits()
            return (Self.describe(results), .array(results.map(Self.resultsJSON)))
        case "undoLocalEdits":
            let count = await geodatabase.localEditCount
            await geodatabase.undoLocalEdits()
            return ("discarded \(count) local edit\(count == 1 ? "" : "s")", nil)
        case "expect":
            return try await expect(a)
        case "expectLocalEdits":
            let has = await geodatabase.hasLocalEdits
            let count = await geodatabase.localEditCount
            guard has == (a.bool ?? false) else {
                throw RuntimeError("expect/failed", has ? "expected no local edits, but \(count) are pending" : "expected local edits, but there are none")
            }
            return (has ? "\(count) local edit\(count == 1 ? "" : "s") pending, as expected" : "no local edits, as expected", nil)
        default:
            throw RuntimeError("expect/failed", "unknown operation '\(operation)'")
        }
    }

    private func addFeature(_ a: JSON) async throws -> (String, JSON?) {
        let name = a["layer"]?.string
        let table: FeatureTable
        do { table = try await self.table(a) } catch {
            if let name { try await geodatabase.requireEligibleMapLayer(named: name) }
            throw error
        }
        var geometry: Geometry?
        var reference: SpatialReference?
        if let g = a["geometry"] { (geometry, reference) = try Self.geometry(g, table: table) }
        let session = try await geodatabase.addFeature(to: table, at: geometry, spatialReference: reference)
        let values = try ScriptValues.attributes(a["attributes"])
        do {
            for (field, value) in values { try await session.setValue(value, for: field) }
            let added = try await session.finish()
            return ("added feature \(added.objectId ?? 0) to \(table.title)\(Self.describe(values, in: added, showAll: true))",
                    .object([("objectId", .int(Int(added.objectId ?? 0)))]))
        } catch {
            await session.cancel()
            throw error
        }
    }

    private func relate(_ a: JSON) async throws -> (String, JSON?) {
        let table = try await table(a)
        let feature = try await table.feature(objectId: try objectId(a["objectId"], table: table))
        let relationship = a["relationship"].map { $0.string ?? $0.int.map(String.init) ?? $0.text } ?? ""
        if let add = a["add"] {
            let record = try await geodatabase.addRelatedRecord(to: feature, relationship: relationship, attributes: try ScriptValues.attributes(add))
            let parent = try await table.feature(objectId: feature.objectId ?? 0)
            return ("added related record \(record.objectId ?? 0) through '\(relationship)'\(Self.behaviourNote(before: feature, after: parent))",
                    .object([("objectId", .int(Int(record.objectId ?? 0)))]))
        }
        let section = try await geodatabase.relatedSection(relationship, of: table.info)
        let related = try await geodatabase.table(layerID: section.relatedTableID)
        let target = try await related.feature(objectId: try objectId(a["to"], table: related))
        let session = PopupEditSession(feature: feature, table: table)
        do {
            try await session.startEditing()
            try await session.setRelated(target, relationship: relationship)
            try await session.finish()
        } catch {
            await session.cancel()
            throw error
        }
        return ("feature \(feature.objectId ?? 0) now points to \(related.title) record \(target.objectId ?? 0) through '\(relationship)'", nil)
    }

    private func deleteThroughPopup(_ feature: TableFeature, table: FeatureTable) async throws {
        try await geodatabase.requireEditableVersion("Deleting feature \(feature.objectId ?? 0)", table: table.info)
        guard table.popup.isPopupEnabled else {
            throw RuntimeError(RuntimeError.Identifier.notPopupEnabled, "Deleting feature \(feature.objectId ?? 0) of \(table.title): the \(table.info.kindWord) is not pop-up enabled.",
                               layer: table.info.reference, objectId: feature.objectId)
        }
        try await geodatabase.requireParentNotBeingEdited(feature, table: table.info, operation: "Deleting feature \(feature.objectId ?? 0)")
        try await table.delete(feature)
    }

    private func expect(_ a: JSON) async throws -> (String, JSON?) {
        let table = try await table(a)
        let features = try await table.queryFeatures(try query(a, table: table))
        var checks: [String] = []
        if let count = try wholeNumber(a, "count") {
            guard features.count == count else { throw RuntimeError("expect/failed", "expected \(count) features of \(table.title), found \(features.count)\(Self.idList(features))") }
            checks.append("\(count) feature\(count == 1 ? "" : "s")")
        }
        if let wanted = a["attributes"], wanted != .null {
            for feature in features {
                for (name, value) in try ScriptValues.attributes(wanted) {
                    let actual = feature[name] ?? .null
                    guard ScriptValues.same(actual, value) else {
                        throw RuntimeError("expect/failed", "feature \(feature.objectId ?? 0) of \(table.title): \(name) is \(ScriptValues.show(actual)), expected \(ScriptValues.show(value))")
                    }
                }
            }
            checks.append(try ScriptValues.attributes(wanted).map { "\($0.name) = \(ScriptValues.show($0.value))" }.joined(separator: ", "))
        }
        if let version = a["version"]?.string {
            guard let current = await geodatabase.versionName else {
                throw RuntimeError("expect/failed", "expected the version \(version), but the service is not versioned")
            }
            guard current.caseInsensitiveCompare(version) == .orderedSame else { throw RuntimeError("expect/failed", "expected the version \(version), on \(current)") }
            checks.append("on \(current)")
        }
        return (checks.joined(separator: "; "), .object([("count", .int(features.count))]))
    }

    // MARK: Arguments

    private func table(_ a: JSON) async throws -> FeatureTable {
        if let id = a["layer"]?.int { return try await geodatabase.table(layerID: id) }
        guard let name = a["layer"]?.string else {
            throw RuntimeError("script/argument", "layer must be a layer or table id (a whole number from 0) or its name, not \(a["layer"]?.text ?? "nothing").")
        }
        return try await geodatabase.table(named: name)
    }

    /// The argument `key` as a whole number from 0 (a count, offset or limit), nil when absent. A value a
    /// reference brought that is not one (text, a fraction, 1e300) fails the step rather than being ignored.
    private func wholeNumber(_ a: JSON, _ key: String) throws -> Int? {
        guard let value = a[key], value != .null else { return nil }
        if let n = value.int, n >= 0 { return n }
        if let text = value.string, let n = Int(text.trimmingCharacters(in: .whitespaces)), n >= 0 { return n }
        throw RuntimeError("script/argument", "\(key) must be a whole number from 0, not \(value.text).")
    }

    private func objectId(_ value: JSON?, table: FeatureTable?) throws -> Int64 {
        if let n = value?.int { return Int64(n) }
        if let text = value?.string, let n = Int64(text.trimmingCharacters(in: .whitespaces)) { return n }
        throw RuntimeError(RuntimeError.Identifier.featureNotFound, "'\(value?.text ?? "nothing")' is not an object id\(table.map { " of \($0.title)" } ?? "").")
    }

    private func query(_ a: JSON, table: FeatureTable) throws -> FeatureQuery {
        var query = FeatureQuery(where: a["where"]?.string, orderBy: a["orderBy"]?.string, offset: try wholeNumber(a, "offset"), limit: try wholeNumber(a, "limit"))
        if let ids = a["objectIds"] {
            query.objectIds = try (ids.array ?? [ids]).map { try objectId($0, table: table) }
        }
        if let g = a["geometry"] {
            let (geometry, reference) = try Self.geometry(g, table: table)
            query.geometry = geometry
            query.spatialReference = reference
            query.spatialRelationship = a["spatialRelationship"]?.string.flatMap(SpatialRelation.init(parameter:)) ?? .intersects
        }
        return query
    }

    static func geometry(_ json: JSON, table: FeatureTable) throws -> (Geometry, SpatialReference?) {
        do {
            let parsed = try Geometry.parse(json)
            return (parsed.geometry, parsed.spatialReference)
        } catch {
            throw RuntimeError(RuntimeError.Identifier.invalidGeometry, "\(table.title): the geometry cannot be read: \(error).", layer: table.info.reference)
        }
    }

    // MARK: Output

    static func accessWord(_ access: String) -> String {
        access.replacingOccurrences(of: "esriVersionAccess", with: "").lowercased()
    }

    static func featureJSON(_ feature: TableFeature) -> JSON {
        var members = feature.attributes.json.objectMembers ?? []
        members.append(("geometry", feature.geometry.map { $0.json(spatialReference: feature.spatialReference) } ?? .null))
        return .object(members)
    }

    static func idList(_ features: [TableFeature]) -> String {
        guard !features.isEmpty else { return "" }
        let ids = features.prefix(8).map { String($0.objectId ?? 0) }.joined(separator: ", ")
        return " (object ids \(ids)\(features.count > 8 ? ", …" : ""))"
    }

    static func describe(_ values: Attributes, in feature: TableFeature, showAll: Bool = false) -> String {
        let given = values.map { "\($0.name) = \(ScriptValues.show(feature[$0.name] ?? .null))" }
        return given.isEmpty ? "" : (showAll ? " (" + given.joined(separator: ", ") + ")" : given.joined(separator: ", "))
    }

    /// "; a behaviour set Condition = Good, DBH = 12.5" when values changed beyond the step's own.
    static func behaviourNote(before: TableFeature, after: TableFeature) -> String {
        let changed = after.attributes.filter { entry in !(before[entry.name] ?? .null).sameValue(as: entry.value) }
        guard !changed.isEmpty else { return "" }
        return "; behaviours set " + changed.map { "\($0.name) = \(ScriptValues.show($0.value))" }.joined(separator: ", ")
    }

    static func describe(_ results: [TableEditResults]) -> String {
        guard !results.isEmpty else { return "nothing to apply" }
        return "applied: " + results.map { r in
            var parts: [String] = []
            if !r.adds.isEmpty { parts.append("\(r.adds.count) add\(r.adds.count == 1 ? "" : "s") (" + r.adds.map { "\($0.localObjectId ?? 0) → \($0.objectId ?? 0)" }.joined(separator: ", ") + ")") }
            if !r.updates.isEmpty { parts.append("\(r.updates.count) update\(r.updates.count == 1 ? "" : "s")") }
            if !r.deletes.isEmpty { parts.append("\(r.deletes.count) delete\(r.deletes.count == 1 ? "" : "s")") }
            if !r.attachmentAdds.isEmpty {
                parts.append("\(r.attachmentAdds.count) attachment add\(r.attachmentAdds.count == 1 ? "" : "s") ("
                             + r.attachmentAdds.map { "\($0.localObjectId ?? 0) → \($0.objectId ?? 0)" }.joined(separator: ", ") + ")")
            }
            if !r.attachmentDeletes.isEmpty { parts.append("\(r.attachmentDeletes.count) attachment delete\(r.attachmentDeletes.count == 1 ? "" : "s")") }
            return "\(r.tableName) " + parts.joined(separator: ", ")
        }.joined(separator: "; ")
    }

    static func resultsJSON(_ r: TableEditResults) -> JSON {
        func list(_ items: [FeatureEditResult]) -> JSON {
            .array(items.map { item in
                .object([("localObjectId", item.localObjectId.map { .int(Int($0)) } ?? .null), ("objectId", item.objectId.map { .int(Int($0)) } ?? .null),
                         ("globalId", item.globalId.map(JSON.string) ?? .null), ("success", .bool(item.success))])
            })
        }
        return .object([("id", .int(r.tableID)), ("name", .string(r.tableName)), ("adds", list(r.adds)), ("updates", list(r.updates)),
                        ("deletes", list(r.deletes)), ("attachmentAdds", list(r.attachmentAdds)), ("attachmentDeletes", list(r.attachmentDeletes))])
    }

    static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "pdf": return "application/pdf"
        case "txt": return "text/plain"
        case "json": return "application/json"
        default: return "application/octet-stream"
        }
    }
}
