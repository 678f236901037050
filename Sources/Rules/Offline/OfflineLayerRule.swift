import WebMap

/// A service-backed layer or table as the offline checks see it: its feature table and how to name it. The
/// linter makes one from each map layer, the runtime (`SyncTask.generateGeodatabase`) from each layer the
/// service describes, and both ask the same `OfflineLayerRule`s.
public struct OfflineLayer: Sendable {
    /// The feature table (the service's metadata, with the map's overrides when there is a map).
    public var table: LayerMetadata
    /// "'Trees' (id Trees_1234)" from a map, "'Trees' (layer 0)" from a service.
    public var displayName: String
    /// "layer" or "table".
    public var kind: String

    public init(table: LayerMetadata, displayName: String, isTable: Bool) {
        self.table = table
        self.displayName = displayName
        kind = isTable ? "table" : "layer"
    }

    /// The layer of a service without a map: "'Trees' (layer 0)".
    public init(serviceLayer table: LayerMetadata, id: Int) {
        self.init(table: table, displayName: "'\(table.name ?? "layer \(id)")' (\(table.isTable ? "table" : "layer") \(id))", isTable: table.isTable)
    }

    public var capabilities: EditCapabilities { EditCapabilities(table.capabilities) }
    /// Capabilities include `Sync`.
    public var hasSync: Bool { table.capabilities.contains("Sync") }
    /// A global id field is named (and, when the fields are listed, is one of them).
    public var hasGlobalIds: Bool {
        guard let name = table.globalIdField, !name.isEmpty else { return false }
        return table.fields.isEmpty || table.field(named: name) != nil
    }
    /// Taken offline by sync: it has `Sync`, or it is editable (it is meant to be synced, and
    /// `offline/sync-disabled` says why it cannot).
    public var isToBeSynced: Bool { hasSync || capabilities.isEditable }
}

/// One thing wrong with a layer or table for offline use.
public struct OfflineProblem: Sendable, Equatable {
    /// The rule's ID (`offline/sync-disabled`).
    public var ruleId: String
    public var severity: Severity
    /// The whole sentence, naming the layer and the fix.
    public var message: String
    /// A few words for `maprules inspect` ("its capabilities lack Sync").
    public var reason: String
}

/// An `offline/` rule about one service-backed layer or table: the linter reports its problems at the layer,
/// the runtime refuses to generate a geodatabase with them.
public protocol OfflineLayerRule: MapRule {
    /// The problems of `layer` (empty when it is fine), each a sentence naming the layer.
    static func problems(of layer: OfflineLayer) -> [OfflineProblem]
}

extension OfflineLayerRule {
    /// A problem of this rule.
    static func problem(_ message: String, reason: String) -> OfflineProblem {
        OfflineProblem(ruleId: description.id, severity: description.severity, message: message, reason: reason)
    }

    /// Reports the problems of every layer and table the map takes offline by sync.
    public static func check(_ context: MapContext) {
        let plan = OfflinePlan.of(context)
        guard plan.isChecked else { return }
        for entry in plan.entries {
            guard let offline = entry.offlineLayer else { continue }
            // The metadata is not in the file: the finding is about the layer as a whole.
            for problem in problems(of: offline) { context.report(self, layer: entry.behavior, message: problem.message) }
        }
    }
}

/// The offline checks the runtime runs before it registers a replica: every `OfflineLayerRule`.
public enum OfflineReadiness {
    /// The problems of each layer, rule by rule (catalogue order), layers in the order given.
    public static func problems(of layers: [OfflineLayer]) -> [OfflineProblem] {
        layers.flatMap { layer in RuleCatalog.offlineLayerRules.flatMap { $0.problems(of: layer) } }
    }
}
