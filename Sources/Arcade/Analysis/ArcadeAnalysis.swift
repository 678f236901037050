/// What the checkers need to know of an expression without evaluating it: the calls it makes, the fields it reads
/// from `$feature` and `$originalFeature`, the profile variables it uses, and the layers and relationships it
/// names to the FeatureSet functions, each with its place in the expression's text.
///
///     switch ArcadeAnalysis.analyze("IIf($feature.DBH > 20, 'big', 'small')") {
///     case .success(let analysis):
///         analysis.calls.map(\.name)          // ["IIf"]
///         analysis.fieldReads.map(\.name)     // ["DBH"]
///     case .failure(let errors): ...          // arcade/syntax at errors.errors[0].line, .column
///     }
///
/// Ranges are in Unicode scalars of the expression (`ArcadeSourceRange`), so the linter can map them through a
/// JSON string's escapes to its file.
public struct ArcadeAnalysis {
    /// A call of a named function: `Left(x, 3)`.
    public struct Call {
        /// As written (`iif`, `IIf`).
        public let name: String
        /// The name's place.
        public let nameRange: ArcadeSourceRange
        /// The whole call, name to closing parenthesis.
        public let range: ArcadeSourceRange
        public let argumentCount: Int
        /// Whether the expression declares a function, variable or parameter of this name (then it is not a
        /// function of the library, whatever it is called).
        public let isDeclaredInExpression: Bool
    }

    /// A field read: `$feature.NAME` (the identifier's range), `$feature["NAME"]` or `$feature['NAME']` (the
    /// literal's range, quotes included), or a name given to `Expects($feature, 'A', 'B')` (each literal).
    public struct FieldRead {
        public let name: String
        public let range: ArcadeSourceRange
        /// "$feature" or "$originalFeature" as written.
        public let profileVariable: String
        /// Whether the name comes from `Expects` (a declaration of the fields needed, not a read).
        public let isExpected: Bool
    }

    /// A use of a profile variable (`$feature`, `$originalFeature`, `$editcontext`, `$map`, `$layer`,
    /// `$datastore`, or any other name starting with `$`), as written.
    public struct ProfileVariableUse {
        public let name: String
        public let range: ArcadeSourceRange
    }

    /// A literal name given to `FeatureSetByName($map, "X")` / `FeatureSetByName($datastore, "X")` (a layer or table)
    /// or `FeatureSetByRelationshipName($feature, "X")` (a relationship). A name built with `+` or a variable is
    /// not a literal and is not listed.
    public struct NamedReference {
        public let name: String
        /// The literal, quotes included.
        public let range: ArcadeSourceRange
        /// The first argument as written when it is a name (`$map`, `$datastore`, `$feature`), else nil.
        public let source: String?
        /// The whole call.
        public let callRange: ArcadeSourceRange
    }

    public internal(set) var calls: [Call] = []
    public internal(set) var fieldReads: [FieldRead] = []
    public internal(set) var profileVariables: [ProfileVariableUse] = []
    /// `FeatureSetByName` layer or table names.
    public internal(set) var layerNames: [NamedReference] = []
    /// `FeatureSetByRelationshipName` relationship names.
    public internal(set) var relationshipNames: [NamedReference] = []

    /// Walks a parsed expression.
    public init(_ script: ArcadeScript) {
        var walker = Walker(tree: script.tree)
        walker.visit(script.root)
        // Names may be declared after their use (functions are hoisted): settle what depends on them at the end.
        let declared = walker.declared
        self.init()
        swap(&self, &walker.analysis)   // the lists move here (changed below in place, not copied)
        if !declared.isEmpty {
            for index in calls.indices where declared.contains(calls[index].name.lowercased()) {
                let call = calls[index]
                calls[index] = Call(name: call.name, nameRange: call.nameRange, range: call.range, argumentCount: call.argumentCount,
                                    isDeclaredInExpression: true)
            }
        }
        if !walker.expected.isEmpty && !declared.contains("expects") {
            fieldReads += walker.expected
            fieldReads.sort { $0.range.start < $1.range.start }
        }
        if !declared.contains("featuresetbyname") { layerNames = walker.layerNames }
        if !declared.contains("featuresetbyrelationshipname") { relationshipNames = walker.relationshipNames }
    }

    /// Parses and walks `source`; the syntax errors when it does not parse.
    public static func analyze(_ source: String) -> Result<ArcadeAnalysis, ArcadeSyntaxErrors> {
        ArcadeParser.parse(source).map { ArcadeAnalysis($0) }
    }

    init() {}
}
