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

    public private(set) var calls: [Call] = []
    public private(set) var fieldReads: [FieldRead] = []
    public private(set) var profileVariables: [ProfileVariableUse] = []
    /// `FeatureSetByName` layer or table names.
    public private(set) var layerNames: [NamedReference] = []
    /// `FeatureSetByRelationshipName` relationship names.
    public private(set) var relationshipNames: [NamedReference] = []

    /// Walks a parsed expression.
    public init(_ script: ArcadeScript) {
        var walker = Walker()
        for statement in script.statements { walker.statement(statement) }
        // Names may be declared after their use (functions are hoisted): settle what depends on them at the end.
        let declared = walker.declared
        var analysis = walker.analysis
        let expected = walker.expected, layerNames = walker.layerNames, relationshipNames = walker.relationshipNames
        // The walker let go of its arrays, so the changes below happen in place (not on copies).
        walker = Walker()
        if !declared.isEmpty {
            analysis.calls = analysis.calls.map { call in
                Call(name: call.name, nameRange: call.nameRange, range: call.range, argumentCount: call.argumentCount,
                     isDeclaredInExpression: declared.contains(call.name.lowercased()))
            }
        }
        if !expected.isEmpty && !declared.contains("expects") {
            analysis.fieldReads += expected
            analysis.fieldReads.sort { $0.range.start < $1.range.start }
        }
        if !declared.contains("featuresetbyname") { analysis.layerNames = layerNames }
        if !declared.contains("featuresetbyrelationshipname") { analysis.relationshipNames = relationshipNames }
        self = analysis
    }

    /// Parses and walks `source`; the syntax errors when it does not parse.
    public static func analyze(_ source: String) -> Result<ArcadeAnalysis, ArcadeSyntaxErrors> {
        ArcadeParser.parse(source).map { ArcadeAnalysis($0) }
    }

    fileprivate init() {}

    /// The walk: every statement and expression once, in the order of the text.
    struct Walker {
        /// Names declared with `var`, `function`, as parameters or loop variables, lower-cased.
        var declared = Set<String>()
        var analysis = ArcadeAnalysis()
        /// Names given to `Expects`, and literal FeatureSet names: kept aside until the declarations are known.
        var expected: [FieldRead] = []
        var layerNames: [NamedReference] = []
        var relationshipNames: [NamedReference] = []

        mutating func statement(_ statement: ArcadeStatement) {
            switch statement.kind {
            case .expression(let value): expression(value)
            case .variables(let declarations):
                for declaration in declarations {
                    declared.insert(declaration.name.lowercased())
                    if let value = declaration.initializer { expression(value) }
                }
            case .if(let test, let then, let otherwise):
                expression(test)
                self.statement(then)
                if let otherwise { self.statement(otherwise) }
            case .block(let body):
                for inner in body { self.statement(inner) }
            case .for(let initializer, let test, let update, let body):
                if let initializer { self.statement(initializer) }
                if let test { expression(test) }
                if let update { expression(update) }
                self.statement(body)
            case .forIn(_, let name, _, let collection, let body):
                declared.insert(name.lowercased())
                expression(collection)
                self.statement(body)
            case .while(let test, let body):
                expression(test)
                self.statement(body)
            case .return(let value):
                if let value { expression(value) }
            case .function(let function):
                declared.insert(function.name.lowercased())
                for parameter in function.parameters { declared.insert(parameter.name.lowercased()) }
                for inner in function.body { self.statement(inner) }
            case .break, .continue, .empty:
                break
            }
        }

        mutating func expression(_ expression: ArcadeExpression) {
            switch expression.kind {
            case .number, .text, .boolean, .null:
                break
            case .identifier(let name):
                if name.hasPrefix("$") {
                    analysis.profileVariables.append(ProfileVariableUse(name: name, range: expression.range))
                }
            case .template(_, let parts):
                for part in parts { self.expression(part) }
            case .array(let elements):
                for element in elements { self.expression(element) }
            case .dictionary(let entries):
                for entry in entries { self.expression(entry.value) }
            case .member(let object, let name, let nameRange):
                if let variable = featureVariable(object) {
                    analysis.fieldReads.append(FieldRead(name: name, range: nameRange, profileVariable: variable, isExpected: false))
                }
                self.expression(object)
            case .index(let object, let index):
                if let variable = featureVariable(object), let name = literalText(index) {
                    analysis.fieldReads.append(FieldRead(name: name, range: index.range, profileVariable: variable, isExpected: false))
                }
                self.expression(object)
                self.expression(index)
            case .call(let callee, let arguments):
                call(callee, arguments, expression.range)
                self.expression(callee)
                for argument in arguments { self.expression(argument) }
            case .unary(_, let operand):
                self.expression(operand)
            case .binary(_, let left, let right), .logical(_, let left, let right):
                self.expression(left)
                self.expression(right)
            case .assignment(_, let target, let value):
                self.expression(target)
                self.expression(value)
            case .update(_, _, let target):
                self.expression(target)
            }
        }

        mutating func call(_ callee: ArcadeExpression, _ arguments: [ArcadeExpression], _ range: ArcadeSourceRange) {
            guard case .identifier(let name) = callee.kind else { return }
            let folded = name.lowercased()
            analysis.calls.append(Call(name: name, nameRange: callee.range, range: range, argumentCount: arguments.count,
                                       isDeclaredInExpression: false))
            switch folded {
            case "expects":
                guard let first = arguments.first, let variable = featureVariable(first) else { return }
                for argument in arguments.dropFirst() {
                    if let field = literalText(argument), field != "*" {
                        expected.append(FieldRead(name: field, range: argument.range, profileVariable: variable, isExpected: true))
                    }
                }
            case "featuresetbyname", "featuresetbyrelationshipname":
                guard arguments.count >= 2, let literal = literalText(arguments[1]) else { return }
                var source: String?
                if case .identifier(let first) = arguments[0].kind { source = first }
                let reference = NamedReference(name: literal, range: arguments[1].range, source: source, callRange: range)
                if folded == "featuresetbyname" {
                    layerNames.append(reference)
                } else {
                    relationshipNames.append(reference)
                }
            default:
                break
            }
        }

        /// "$feature" or "$originalFeature" as written, when `expression` is one of them.
        func featureVariable(_ expression: ArcadeExpression) -> String? {
            guard case .identifier(let name) = expression.kind else { return nil }
            let folded = name.lowercased()
            return folded == "$feature" || folded == "$originalfeature" ? name : nil
        }

        /// The text of a string literal (or a template without placeholders); nil for anything built.
        func literalText(_ expression: ArcadeExpression) -> String? {
            switch expression.kind {
            case .text(let text): return text
            case .template(let strings, let parts) where parts.isEmpty: return strings.first
            default: return nil
            }
        }
    }
}
