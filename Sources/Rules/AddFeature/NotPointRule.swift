import WebMap

/// `add-feature/not-point`: an editable layer that could take new features, but whose geometry is not point.
public enum NotPointRule: MapRule {
    public static let description = RuleDescription(
        id: "add-feature/not-point",
        severity: .info,
        summary: "An editable, pop-up enabled layer that can add features has a geometry other than point.",
        rationale: """
            The app adds features by placing a point on the map, so it offers for adding features only point \
            layers. A multipoint, line or polygon layer that meets every other condition is never offered: its \
            existing features can still be edited, but users cannot add new ones in the app.
            """,
        fix: "Nothing to change if users only edit existing features; to collect new ones in the field, collect them in a point layer.",
        triggeringExamples: [
            .document(Examples.map(), services: Examples.snapshot([
                Examples.treesURL: Examples.treesLayer(geometryType: "esriGeometryPolygon")])),
        ],
        nonTriggeringExamples: [
            .document(Examples.map(), services: Examples.treesSnapshot),
            .document(Examples.map(), services: Examples.snapshot([
                Examples.treesURL: Examples.treesLayer(capabilities: "Query,Update", geometryType: "esriGeometryPolygon")])),
        ])

    public static func check(_ context: MapContext) {
        for layer in context.behavior.layers where layer.addFeature.failed == [.pointGeometry] {
            guard let geometry = layer.table?.geometryType else { continue }
            context.report(self, layer: layer, message:
                "Layer \(layer.layer.displayName) can add features, but its geometry is \(geometry.shortName): the "
                + "app adds only point features, so it never offers this layer for adding features (existing "
                + "features can still be edited). Collect new features in a point layer if users should add them.")
        }
    }
}
