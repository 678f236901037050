import WebMap

extension AddFeatureCondition {
    /// "it is not pop-up enabled", "its geometry is not point and it is not pop-up enabled"...
    static func sentence(_ conditions: [AddFeatureCondition]) -> String {
        let texts = conditions.map(\.failureText)
        guard let last = texts.last else { return "" }
        return texts.count == 1 ? last : texts.dropLast().joined(separator: ", ") + " and " + last
    }
}

extension LayerBehavior {
    /// "layer 'Trees' (id Trees_1234)" or "table 'Inspections' (id Inspections_1)".
    var addFeatureName: String { (layer.isTable ? "table " : "layer ") + layer.displayName }
}
