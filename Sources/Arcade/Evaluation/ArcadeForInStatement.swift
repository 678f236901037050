/// `for (var k in collection)`: array indexes, dictionary keys, a feature's field names, a FeatureSet's features.
final class ForInStatement: StatementNode {
    let variable: VariableReference
    let collection: ExpressionNode
    let body: StatementNode

    init(_ variable: VariableReference, _ collection: ExpressionNode, _ body: StatementNode, range: ArcadeSourceRange) {
        self.variable = variable
        self.collection = collection
        self.body = body
        super.init(range: range)
    }

    override func execute(_ run: ArcadeRun) throws -> Flow {
        let value = try collection.evaluate(run)
        switch value {
        case .array(let array):
            var index = 0
            while index < array.values.count {
                if let flow = try iteration(.number(Double(index)), run) { return flow }
                index += 1
            }
        case .dictionary(let dictionary):
            for key in dictionary.keys {
                if let flow = try iteration(.text(key), run) { return flow }
            }
        case .feature(let feature):
            for key in feature.attributes.keys {
                if let flow = try iteration(.text(key), run) { return flow }
            }
        case .featureSet(let set):
            let features: [ArcadeFeature]
            do {
                features = try set.source.features(matching: set.query)
            } catch let error as ArcadeError {
                throw error
            } catch {
                throw ArcadeError(ArcadeError.runtimeError, "reading the FeatureSet failed: \(error)", at: collection.range)
            }
            for feature in features {
                if let flow = try iteration(.feature(feature), run) { return flow }
            }
        default:
            throw ArcadeError(ArcadeError.runtimeError,
                              "for-in needs an Array, a Dictionary, a Feature or a FeatureSet, not \(value.typeName)",
                              at: collection.range)
        }
        return .normal
    }

    /// One turn of the loop; a flow to return when the loop ends early.
    @inline(__always)
    private func iteration(_ item: ArcadeValue, _ run: ArcadeRun) throws -> Flow? {
        try run.step(1, at: range)
        variable.set(item, run)
        switch try body.execute(run) {
        case .normal, .continueLoop: return nil
        case .breakLoop: return .normal
        case .returned: return .returned
        }
    }
}
