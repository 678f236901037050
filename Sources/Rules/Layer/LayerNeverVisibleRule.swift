import WebMap

/// `layer/never-visible`: `minScale` < `maxScale` (both non-zero), so no scale shows the layer.
public enum LayerNeverVisibleRule: MapRule {
    public static let description = RuleDescription(
        id: "layer/never-visible",
        severity: .error,
        summary: "The layer's scale range is empty: `minScale` is below `maxScale`, so no scale shows it.",
        rationale: """
            A layer is drawn when the map scale lies between its `maxScale` (the most zoomed-in scale, e.g. \
            1:1,000) and its `minScale` (the most zoomed-out, e.g. 1:50,000); 0 means no limit. When both are \
            set and `minScale` is the smaller number, no scale satisfies both: the app never draws the layer, \
            never identifies it, and its features cannot be tapped or edited. The two values were usually \
            swapped. The range used is the map's (`minScale`/`maxScale` on the layer or in its \
            `layerDefinition`), else the service's.
            """,
        fix: "Swap the two values, or set one of them to 0 (no limit).",
        triggeringExamples: [
            .document(Examples.map(layerExtra: #""layerDefinition": {"minScale": 5000, "maxScale": 50000}"#),
                      services: Examples.treesSnapshot),
            .document(Examples.map(layerExtra: #""minScale": 1000, "maxScale": 2000"#)),
            // The service's range is empty and the map does not override it.
            .document(Examples.map(), services: Examples.snapshot([
                Examples.treesURL: Examples.treesLayer(extra: #""minScale": 4000, "maxScale": 9000"#),
            ])),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(layerExtra: #""layerDefinition": {"minScale": 50000, "maxScale": 5000}"#),
                      services: Examples.treesSnapshot),
            .document(Examples.map(layerExtra: #""layerDefinition": {"minScale": 0, "maxScale": 5000}"#),
                      services: Examples.treesSnapshot),
            // The map's override repairs the service's empty range.
            .document(Examples.map(layerExtra: #""layerDefinition": {"minScale": 0}"#), services: Examples.snapshot([
                Examples.treesURL: Examples.treesLayer(extra: #""minScale": 4000, "maxScale": 9000"#),
            ])),
        ])

    /// One end of a scale range and where it was set.
    struct Limit {
        var value: Double
        /// The map value that sets it; nil when it comes from the service (or is unset).
        var pointer: JSONPointer?
        var origin: String
    }

    public static func check(_ context: MapContext) {
        context.forEachConcurrently(context.behavior.layers) { context, behavior in
            guard !behavior.layer.isTable && !behavior.layer.isStandalonePopup else { return }
            let lower = limit("minScale", of: behavior), upper = limit("maxScale", of: behavior)
            guard lower.value != 0, upper.value != 0, lower.value < upper.value else { return }
            let layer = behavior.layer
            let message = """
                \(layer.kindAndName) is never drawn: its minimum scale \(format(lower.value)) (\(lower.origin)) is \
                more zoomed-in than its maximum scale \(format(upper.value)) (\(upper.origin)), so no scale shows \
                it and its features can never be identified or edited. Swap the two values, or set one to 0 \
                (no limit).
                """
            if let pointer = lower.pointer ?? upper.pointer {
                context.report(self, pointer: pointer, message: message, layer: behavior)
            } else {
                context.report(self, layer: behavior, message: message)
            }
        }
    }

    /// The layer's `minScale` or `maxScale`: the layer's own key, else its `layerDefinition`'s, else the
    /// feature table's (the service's, with the map's overrides applied), else 0.
    static func limit(_ key: String, of behavior: LayerBehavior) -> Limit {
        let layer = behavior.layer
        if let value = layer.node[key]?.number {
            return Limit(value: value, pointer: layer.pointer / key, origin: "the layer's `\(key)`")
        }
        if let value = layer.layerDefinition?[key]?.number {
            return Limit(value: value, pointer: layer.pointer / "layerDefinition" / key, origin: "`layerDefinition.\(key)`")
        }
        if let table = behavior.table {
            return Limit(value: key == "minScale" ? table.minScale : table.maxScale, pointer: nil, origin: "from the service")
        }
        return Limit(value: 0, pointer: nil, origin: "not set")
    }

    /// "1:50,000".
    static func format(_ scale: Double) -> String {
        guard scale.isFinite, scale.rounded() == scale, abs(scale) < 1e15 else { return "1:\(scale)" }
        let digits = String(Int(abs(scale)))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return "1:" + (scale < 0 ? "-" : "") + grouped
    }
}
