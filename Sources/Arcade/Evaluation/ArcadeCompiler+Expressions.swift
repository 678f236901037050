extension ArcadeCompiler {
    mutating func expression(_ expression: ArcadeExpression, _ scope: CompiledScope) -> ExpressionNode {
        let range = expression.range
        switch expression.kind {
        case .number(let n): return ConstantNode(.number(n), range: range)
        case .text(let t): return ConstantNode(.text(t), range: range)
        case .boolean(let b): return ConstantNode(.boolean(b), range: range)
        case .null: return ConstantNode(.null, range: range)
        case .template(let strings, let expressions):
            if expressions.isEmpty { return ConstantNode(.text(strings[0]), range: range) }
            return TemplateNode(strings, expressions.map { self.expression($0, scope) }, range: range)
        case .array(let elements):
            return ArrayLiteralNode(elements.map { self.expression($0, scope) }, range: range)
        case .dictionary(let entries):
            return DictionaryLiteralNode(entries.map { ($0.key, self.expression($0.value, scope)) }, range: range)
        case .identifier(let name):
            return identifier(name, range, scope)
        case .member(let object, let name, let nameRange):
            if let field = featureField(object, name, range) { return field }
            if let folded = constantMember(object, name, range, scope) { return folded }
            return MemberNode(self.expression(object, scope), ConstantNode(.text(name), range: nameRange), range: range)
        case .index(let object, let index):
            if case .text(let name) = index.kind, let field = featureField(object, name, range) { return field }
            return MemberNode(self.expression(object, scope), self.expression(index, scope), range: range)
        case .call(let callee, let arguments):
            return call(callee, arguments, range, scope)
        case .unary(let op, let operand):
            return UnaryNode(op, self.expression(operand, scope), range: range)
        case .binary(let op, let left, let right):
            if op == .equal || op == .notEqual {
                if case .text(let text) = right.kind {
                    return EqualsTextNode(self.expression(left, scope), text, negated: op == .notEqual, range: range)
                }
                if case .text(let text) = left.kind {
                    return EqualsTextNode(self.expression(right, scope), text, negated: op == .notEqual, range: range)
                }
            }
            return BinaryNode(op, self.expression(left, scope), self.expression(right, scope), range: range)
        case .logical(let op, let left, let right):
            return LogicalNode(isAnd: op == .and, self.expression(left, scope), self.expression(right, scope), range: range)
        case .binaryChain(let first, let links):
            return BinaryChainNode(self.expression(first, scope), links.map { ($0.operator, self.expression($0.operand, scope), $0.range) },
                                   range: range)
        case .logicalChain(let op, let operands):
            return LogicalChainNode(isAnd: op == .and, operands.map { self.expression($0, scope) }, range: range)
        case .assignment(let op, let target, let value):
            return AssignmentNode(assignmentTarget(target, scope), op, self.expression(value, scope), range: range)
        case .update(let increment, let prefix, let target):
            return UpdateNode(assignmentTarget(target, scope), increment: increment, prefix: prefix, range: range)
        }
    }

    /// `$feature.Name` / `$feature["Name"]` / `$originalFeature.Name`, unless a variable is named `$feature`.
    func featureField(_ object: ArcadeExpression, _ name: String, _ range: ArcadeSourceRange) -> ExpressionNode? {
        guard case .identifier(let variable) = object.kind else { return nil }
        switch variable.lowercased() {
        case "$feature": return FeatureFieldNode(original: false, name: name, range: range)
        case "$originalfeature": return FeatureFieldNode(original: true, name: name, range: range)
        default: return nil
        }
    }

    /// `TextFormatting.NewLine`: a member of a dictionary constant, read once when compiling.
    func constantMember(_ object: ArcadeExpression, _ name: String, _ range: ArcadeSourceRange, _ scope: CompiledScope) -> ExpressionNode? {
        guard case .identifier(let constantName) = object.kind, scope.resolve(constantName) == nil,
              case .dictionary(let members)? = ArcadeFunctionLibrary.constants[constantName.lowercased()],
              let value = members[name] else { return nil }
        return ConstantNode(value, range: range)
    }

    func identifier(_ name: String, _ range: ArcadeSourceRange, _ scope: CompiledScope) -> ExpressionNode {
        if let resolved = scope.resolve(name) {
            return VariableNode(VariableReference(name: name, hops: resolved.hops, slot: resolved.slot), range: range)
        }
        let folded = name.lowercased()
        if folded.hasPrefix("$") {
            if ProfileVariableNode.known.contains(folded) { return ProfileVariableNode(name: name, range: range) }
            return UnknownNameNode("\(name) is not a profile variable MapRules knows ($feature, $originalFeature, $editcontext, $layer, $map, $datastore)", range: range)
        }
        if let constant = ArcadeFunctionLibrary.constants[folded] {
            // A dictionary constant (TextFormatting) is copied for each use: the library's one is shared.
            if case .dictionary = constant { return CopiedConstantNode(constant, range: range) }
            return ConstantNode(constant, range: range)
        }
        if let definition = ArcadeFunctionLibrary.function(named: name) {
            return ConstantNode(.function(ArcadeFunctionValue(name: definition.name, implementation: BuiltinFunction(definition))), range: range)
        }
        if let known = ArcadeFunctionCatalog.referenceName(of: name) {
            return FailingCallNode(ruleId: ArcadeError.unsupportedFunction,
                                   message: "\(known) is an Arcade function MapRules does not evaluate", range: range)
        }
        var message = "'\(name)' is not declared: no variable, constant or function has this name"
        if let suggestion = ArcadeFunctionCatalog.suggestion(for: name) { message += "; did you mean \(suggestion)?" }
        return UnknownNameNode(message, range: range)
    }

    mutating func call(_ callee: ArcadeExpression, _ arguments: [ArcadeExpression], _ range: ArcadeSourceRange,
                       _ scope: CompiledScope) -> ExpressionNode {
        let compiledArguments = arguments.map { expression($0, scope) }
        guard case .identifier(let name) = callee.kind else {
            return DynamicCallNode(expression(callee, scope), name: "the called value", compiledArguments, range: range)
        }
        let resolved = scope.resolve(name)
        // A declared function wins; then the library (a variable named like a function does not hide it); then a
        // variable holding a function (a parameter).
        if let resolved, resolved.isFunction {
            return DynamicCallNode(VariableNode(VariableReference(name: name, hops: resolved.hops, slot: resolved.slot), range: callee.range),
                                   name: "'\(name)'", compiledArguments, range: range)
        }
        if let definition = ArcadeFunctionLibrary.function(named: name) {
            return LibraryCallNode(definition, compiledArguments, range: range)
        }
        if let resolved {
            return DynamicCallNode(VariableNode(VariableReference(name: name, hops: resolved.hops, slot: resolved.slot), range: callee.range),
                                   name: "'\(name)'", compiledArguments, range: range)
        }
        if let known = ArcadeFunctionCatalog.referenceName(of: name) {
            return FailingCallNode(ruleId: ArcadeError.unsupportedFunction,
                                   message: "\(known) is an Arcade function MapRules does not evaluate", range: range)
        }
        var message = "'\(name)' is not a function of Arcade"
        if let suggestion = ArcadeFunctionCatalog.suggestion(for: name) { message += "; did you mean \(suggestion)?" }
        return FailingCallNode(ruleId: ArcadeError.runtimeError, message: message, range: range)
    }

    mutating func assignmentTarget(_ target: ArcadeExpression, _ scope: CompiledScope) -> AssignmentTarget {
        switch target.kind {
        case .identifier(let name):
            if let resolved = scope.resolve(name) {
                return .variable(VariableReference(name: name, hops: resolved.hops, slot: resolved.slot))
            }
            return .undeclared(name)
        case .member(let object, let name, let nameRange):
            return .part(object: expression(object, scope), key: ConstantNode(.text(name), range: nameRange))
        case .index(let object, let index):
            return .part(object: expression(object, scope), key: expression(index, scope))
        default:
            return .undeclared("this")
        }
    }
}
