import Foundation
import FeatureServiceModel
import WebMap

/// A local edit, as behaviours see it.
public struct LocalEditEvent: Sendable {
    public enum Kind: String, Sendable { case add, update, delete }
    public var kind: Kind
    public var tableID: Int
    /// The feature after the edit (for a delete: as it was).
    public var feature: TableFeature
    /// The feature before the edit (nil for an add).
    public var previous: TableFeature?
    /// True when the geometry changed (always for an add with a geometry).
    public var geometryChanged: Bool

    public init(kind: Kind, table: Int, feature: TableFeature, previous: TableFeature?, geometryChanged: Bool? = nil) {
        self.kind = kind
        self.tableID = table
        self.feature = feature
        self.previous = previous
        self.geometryChanged = geometryChanged ?? (kind == .add && feature.geometry != nil)
    }
}

/// docs/runtime.md "Behaviours": domain-specific reactions to local edits (copy the containing neighborhood's name
/// onto a new tree...), registered by the caller, never wired into the core. A behaviour writes through the
/// same edit path as a user (`ServiceGeodatabase.behaviourUpdate`): its changes are local edits, validated and
/// applied with the rest; it may set fields the pop-up does not let a user edit; its own edits never fire
/// behaviours.
public protocol EditBehaviour: Sendable {
    /// A line for listings: "copyFromContaining Trees.Neighborhood ← Neighborhoods.NAME".
    var summary: String { get }
    func afterLocalEdit(_ event: LocalEditEvent, in geodatabase: ServiceGeodatabase) async throws
}

extension ServiceGeodatabase {
    /// Runs every behaviour after a user's local edit (never after a behaviour's own).
    func runBehaviours(_ event: LocalEditEvent) async throws {
        guard behaviourDepth == 0, !behaviours.isEmpty else { return }
        behaviourDepth += 1
        defer { behaviourDepth -= 1 }
        for behaviour in behaviours { try await behaviour.afterLocalEdit(event, in: self) }
    }

    /// A behaviour's update of a feature's attributes: a local edit through the same checks as a user's, except
    /// the pop-up's (a behaviour may set fields the pop-up does not show as editable).
    public func behaviourUpdate(tableID: Int, objectId: Int64, attributes: Attributes) async throws {
        let table = try await info(tableID)
        var feature = try await existingFeature(objectId, table: table, operation: "A behaviour updating feature \(objectId)")
        var changed = false
        for (name, value) in attributes where !(feature[name] ?? .null).sameValue(as: value) {
            feature[name] = value
            changed = true
        }
        guard changed else { return }
        try await update(TableFeature(tableID: tableID, objectId: feature.objectId, attributes: attributes, geometry: nil))
    }
}
