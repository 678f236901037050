import Arcade
import Testing

/// Helpers of the core engineer's tests (Language*, Logical*, Hostile*): evaluate and read the result.
enum CoreTest {
    static func value(_ source: String, _ context: ArcadeEvaluationContext = .init()) throws -> ArcadeValue {
        try ArcadeEvaluator.evaluate(source, context: context)
    }

    static func number(_ source: String, _ context: ArcadeEvaluationContext = .init()) throws -> Double? {
        if case .number(let n) = try value(source, context) { return n }
        return nil
    }

    static func text(_ source: String, _ context: ArcadeEvaluationContext = .init()) throws -> String? {
        if case .text(let t) = try value(source, context) { return t }
        return nil
    }

    static func boolean(_ source: String, _ context: ArcadeEvaluationContext = .init()) throws -> Bool? {
        if case .boolean(let b) = try value(source, context) { return b }
        return nil
    }

    static func isNull(_ source: String, _ context: ArcadeEvaluationContext = .init()) throws -> Bool {
        try value(source, context).isNull
    }

    /// The error evaluating `source` throws (nil when it succeeds).
    static func error(_ source: String, _ context: ArcadeEvaluationContext = .init()) -> ArcadeError? {
        do {
            _ = try ArcadeEvaluator.evaluate(source, context: context)
            return nil
        } catch let error as ArcadeError {
            return error
        } catch {
            return ArcadeError(ruleId: "unexpected", message: "\(error)", line: 0, column: 0, offset: 0)
        }
    }

    static func feature(_ attributes: [(String, ArcadeValue)], schema: ArcadeLayerSchema? = nil) -> ArcadeFeature {
        ArcadeFeature(attributes: ArcadeDictionary(attributes), schema: schema)
    }

    static func context(_ attributes: [(String, ArcadeValue)], profile: ArcadeProfile = .popup) -> ArcadeEvaluationContext {
        ArcadeEvaluationContext(profile: profile, feature: feature(attributes))
    }
}
