import WebMap

extension LayerBehavior {
    /// The scales between which the app draws the layer (0: no limit), taken as `layer/never-visible` takes them:
    /// the layer's own `minScale`/`maxScale`, else its `layerDefinition`'s, else the feature table's.
    public var scaleRange: (minScale: Double, maxScale: Double) {
        (LayerNeverVisibleRule.limit("minScale", of: self).value, LayerNeverVisibleRule.limit("maxScale", of: self).value)
    }
}
