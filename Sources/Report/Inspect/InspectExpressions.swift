import Arcade
import Rules
import WebMap

extension InspectReport {
    /// One pop-up expression (`popupInfo.expressionInfos[i]`): whether it parses (else its first syntax error)
    /// and its type.
    public struct PopupExpression: Codable, Sendable, Equatable {
        public struct SyntaxError: Codable, Sendable, Equatable {
            public var ruleId: String
            public var message: String
            public var line: Int
            public var column: Int
        }
        public var name: String
        public var title: String?
        /// "ok", or "error" with `error` set.
        public var parse: String
        public var error: SyntaxError?
        /// The `TypeOf` name of its value evaluated on a feature of the layer whose fields are all empty
        /// (`typeSource` "evaluated"), or else the `returnType` the map declares (`typeSource` "declared",
        /// "Text" for "string", "Number" for "number"); nil when neither is known.
        public var type: String?
        public var typeSource: String?

        /// Parses and, when it parses, evaluates the expression (popup profile, no data access, a short bound).
        init(_ info: ExpressionInfo, layer: LayerBehavior) {
            name = info.node["name"]?.string ?? ""
            title = info.node["title"]?.string
            let source = info.node["expression"]?.string ?? ""
            let declared: String? = switch info.node["returnType"]?.string?.lowercased() {
            case "string": "Text"
            case "number": "Number"
            default: nil
            }
            switch ArcadeParser.parse(source) {
            case .failure(let errors):
                parse = "error"
                error = errors.errors.first.map { SyntaxError(ruleId: $0.ruleId, message: $0.message, line: $0.line, column: $0.column) }
                type = declared
                typeSource = declared == nil ? nil : "declared"
            case .success(let script):
                parse = "ok"
                error = nil
                let schema = layer.table.map { ArcadeLayerSchema(metadata: $0) }
                let empty = ArcadeDictionary((schema?.fields ?? []).map { ($0.name, ArcadeValue.null) })
                let context = ArcadeEvaluationContext(profile: .popup, feature: ArcadeFeature(attributes: empty, schema: schema),
                                                      limits: ArcadeLimits(maximumSteps: 100_000, maximumDuration: 0.05))
                if let value = try? ArcadeProgram(script: script).evaluate(context) {
                    type = value.typeName
                    typeSource = "evaluated"
                } else {
                    type = declared
                    typeSource = declared == nil ? nil : "declared"
                }
            }
        }
    }

    /// The pop-up expressions of a layer, in order.
    static func expressions(of layer: LayerBehavior) -> [PopupExpression] {
        (layer.popup?.expressionInfos ?? []).map { PopupExpression($0, layer: layer) }
    }
}
