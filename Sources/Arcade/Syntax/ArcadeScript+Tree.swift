/// The enum tree (`ArcadeStatement`, `ArcadeExpression`) built from the flat storage, for the compiler and for
/// readers of the tree. Recursion follows the tree's height, which the parser bounds.
extension ArcadeScript {
    /// Builds the enum tree anew on each call (a walk over every node): call it once and keep the result.
    public func makeStatements() -> [ArcadeStatement] {
        let builder = TreeBuilder(tree: tree)
        return tree.children(of: tree[root]).map(builder.statement)
    }
}

private struct TreeBuilder {
    let tree: SyntaxNodes

    func statement(_ index: Int32) -> ArcadeStatement {
        let node = tree[index]
        let children = tree.children(of: node)
        func part(_ offset: Int) -> Int32 { tree.child(node, offset) }
        let kind: ArcadeStatement.Kind
        switch node.kind {
        case .expressionStatement:
            kind = .expression(expression(part(0)))
        case .variables:
            kind = .variables(children.map { declaration in
                let declared = tree[declaration]
                let initializer = tree.child(declared, 0)
                return ArcadeVariableDeclaration(name: tree.text(declared), nameRange: declared.range,
                                                 initializer: optionalExpression(initializer))
            })
        case .if:
            kind = .if(test: expression(part(0)), then: statement(part(1)), else: part(2) == SyntaxNodes.absent ? nil : statement(part(2)))
        case .block:
            kind = .block(children.map(statement))
        case .for:
            kind = .for(initializer: part(0) == SyntaxNodes.absent ? nil : statement(part(0)), test: optionalExpression(part(1)),
                        update: optionalExpression(part(2)), body: statement(part(3)))
        case .forIn:
            let name = tree[part(0)]
            kind = .forIn(declares: node.detail == 1, name: tree.text(name), nameRange: name.range,
                          collection: expression(part(1)), body: statement(part(2)))
        case .while:
            kind = .while(test: expression(part(0)), body: statement(part(1)))
        case .break:
            kind = .break
        case .continue:
            kind = .continue
        case .return:
            kind = .return(children.isEmpty ? nil : expression(part(0)))
        case .function:
            let name = tree[part(0)]
            let parameters = tree.children(of: tree[part(1)]).map { (name: tree.text(tree[$0]), range: tree[$0].range) }
            kind = .function(ArcadeFunctionDeclaration(name: tree.text(name), nameRange: name.range, parameters: parameters,
                                                       body: children.dropFirst(2).map(statement)))
        default:
            kind = .empty
        }
        return ArcadeStatement(kind, node.range)
    }

    func optionalExpression(_ index: Int32) -> ArcadeExpression? {
        index == SyntaxNodes.absent ? nil : expression(index)
    }

    func expression(_ index: Int32) -> ArcadeExpression {
        let node = tree[index]
        let children = tree.children(of: node)
        func part(_ offset: Int) -> ArcadeExpression { expression(tree.child(node, offset)) }
        let kind: ArcadeExpression.Kind
        switch node.kind {
        case .number: kind = .number(node.number)
        case .text: kind = .text(tree.text(node))
        case .template:
            var strings: [String] = []
            var expressions: [ArcadeExpression] = []
            for (offset, child) in children.enumerated() {
                if offset % 2 == 0 { strings.append(tree.text(tree[child])) } else { expressions.append(expression(child)) }
            }
            kind = .template(strings: strings, expressions: expressions)
        case .boolean: kind = .boolean(node.detail == 1)
        case .identifier: kind = .identifier(tree.text(node))
        case .array: kind = .array(children.map(expression))
        case .dictionary:
            kind = .dictionary(stride(from: 0, to: children.count, by: 2).map { offset in
                let key = tree[tree.child(node, offset)]
                return ArcadeDictionaryEntry(key: tree.text(key), keyRange: key.range, value: part(offset + 1))
            })
        case .member:
            let name = tree[tree.child(node, 1)]
            kind = .member(object: part(0), name: tree.text(name), nameRange: name.range)
        case .index: kind = .index(object: part(0), index: part(1))
        case .call: kind = .call(callee: part(0), arguments: children.dropFirst().map(expression))
        case .unary: kind = .unary(SyntaxOperators.unary[Int(node.detail)], part(0))
        case .binary: kind = .binary(SyntaxOperators.binary[Int(node.detail)], part(0), part(1))
        case .logical: kind = .logical(SyntaxOperators.logical[Int(node.detail)], part(0), part(1))
        case .binaryChain:
            kind = .binaryChain(first: part(0), links: children.dropFirst().map { index in
                let link = tree[index]
                return ArcadeChainLink(operator: SyntaxOperators.binary[Int(link.detail)], operand: expression(tree.child(link, 0)),
                                       range: link.range)
            })
        case .logicalChain: kind = .logicalChain(SyntaxOperators.logical[Int(node.detail)], children.map(expression))
        case .assignment:
            kind = .assignment(operator: node.detail == 0 ? nil : SyntaxOperators.binary[Int(node.detail) - 1], target: part(0), value: part(1))
        case .update: kind = .update(increment: node.detail & 1 != 0, prefix: node.detail & 2 != 0, target: part(0))
        default: kind = .null
        }
        return ArcadeExpression(kind, node.range, height: Int(node.height))
    }
}
