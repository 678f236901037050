import Arcade

extension ServiceGeodatabase {
    /// Evaluates an Arcade expression as the app does where it may read data (pop-ups, form calculations):
    /// FeatureSet functions (`FeatureSetByName($map, ...)`, `FeatureSetByRelationshipName`, `$layer`,
    /// `$datastore`) read this geodatabase's service, current version and local edits. `table` is the layer or
    /// table of `context.feature` (nil: none; `$layer` is then null). Arcade errors are thrown as `ArcadeError`s.
    public nonisolated func evaluateArcade(_ source: String, context: ArcadeEvaluationContext, table: FeatureTable?) async throws -> ArcadeValue {
        var context = context
        context.dataAccess = try await GeodatabaseArcadeAccess.make(geodatabase: self, current: table?.info)
        let run = context
        let result: Result<ArcadeValue, Error> = await ArcadeThread.run {
            Result { try ArcadeEvaluator.evaluate(source, context: run) }
        }
        return try result.get()
    }
}
