extension ArcadeAnalysis {
    /// The walk: every node of the script's flat storage once, in the order of the text. Recursion follows the
    /// tree's height (bounded by the parser); a chain of operators is one node with many children.
    struct Walker {
        let tree: SyntaxNodes
        /// Names declared with `var`, `function`, as parameters or loop variables, lower-cased.
        var declared = FoldedNames()
        var analysis = ArcadeAnalysis()
        /// Names given to `Expects`, and literal FeatureSet names: kept aside until the declarations are known.
        var expected: [FieldRead] = []
        var layerNames: [NamedReference] = []
        var relationshipNames: [NamedReference] = []

        init(tree: SyntaxNodes) {
            self.tree = tree
            // Room for every call, member and profile variable the parser counted: one allocation per list.
            analysis.calls.reserveCapacity(tree.calls)
            analysis.fieldReads.reserveCapacity(tree.members)
            analysis.profileVariables.reserveCapacity(tree.identifiers / 2)
        }

        mutating func visit(_ index: Int32) {
            guard index != SyntaxNodes.absent else { return }
            let node = tree[index]
            switch node.kind {
            case .number, .text, .boolean, .null, .templatePiece, .name, .break, .continue, .empty:
                return
            case .identifier:
                if tree.firstByte(of: node) == UInt8(ascii: "$") {
                    analysis.profileVariables.append(ProfileVariableUse(name: tree.text(node), range: node.range))
                }
                return
            case .declaration:
                declared.insert(tree.text(node))
            case .forIn:
                declared.insert(tree.text(tree[tree.child(node, 0)]))
            case .function:
                declared.insert(tree.text(node))
                for parameter in tree.children(of: tree[tree.child(node, 1)]) { declared.insert(tree.text(tree[parameter])) }
            case .member:
                let object = tree.child(node, 0)
                if let variable = featureVariable(object) {
                    let name = tree[tree.child(node, 1)]
                    analysis.fieldReads.append(FieldRead(name: tree.text(name), range: name.range, profileVariable: variable, isExpected: false))
                }
                visit(object)
                return
            case .index:
                let object = tree.child(node, 0), key = tree.child(node, 1)
                if let variable = featureVariable(object), let name = literalText(key) {
                    analysis.fieldReads.append(FieldRead(name: name, range: tree[key].range, profileVariable: variable, isExpected: false))
                }
            case .call:
                call(node)
            default:
                break
            }
            for child in tree.children(of: node) { visit(child) }
        }

        mutating func call(_ node: SyntaxNode) {
            let callee = tree[tree.child(node, 0)]
            guard callee.kind == .identifier else { return }
            let arguments = tree.children(of: node).dropFirst()
            analysis.calls.append(Call(name: tree.text(callee), nameRange: callee.range, range: node.range, argumentCount: arguments.count,
                                       isDeclaredInExpression: false))
            if tree.text(of: callee, equalsIgnoringCase: "expects") {
                guard let first = arguments.first, let variable = featureVariable(first) else { return }
                for argument in arguments.dropFirst() {
                    if let field = literalText(argument), field != "*" {
                        expected.append(FieldRead(name: field, range: tree[argument].range, profileVariable: variable, isExpected: true))
                    }
                }
                return
            }
            let isLayer = tree.text(of: callee, equalsIgnoringCase: "featuresetbyname")
            guard isLayer || tree.text(of: callee, equalsIgnoringCase: "featuresetbyrelationshipname") else { return }
            guard arguments.count >= 2 else { return }
            let source = arguments[arguments.startIndex], nameArgument = arguments[arguments.startIndex + 1]
            guard let literal = literalText(nameArgument) else { return }
            let reference = NamedReference(name: literal, range: tree[nameArgument].range,
                                           source: tree[source].kind == .identifier ? tree.text(tree[source]) : nil, callRange: node.range)
            if isLayer { layerNames.append(reference) } else { relationshipNames.append(reference) }
        }

        /// "$feature" or "$originalFeature" as written, when the node is one of them.
        func featureVariable(_ index: Int32) -> String? {
            let node = tree[index]
            guard node.kind == .identifier else { return nil }
            return tree.text(of: node, equalsIgnoringCase: "$feature") || tree.text(of: node, equalsIgnoringCase: "$originalfeature")
                ? tree.text(node) : nil
        }

        /// The text of a string literal (or a template without placeholders); nil for anything built.
        func literalText(_ index: Int32) -> String? {
            let node = tree[index]
            switch node.kind {
            case .text: return tree.text(node)
            case .template where node.count == 1: return tree.text(tree[tree.child(node, 0)])
            default: return nil
            }
        }
    }
}

/// Names lower-cased, as a short list while there are few (an expression declares a handful: comparing a few small
/// strings is cheaper than hashing them) and as a set past `listLimit`.
struct FoldedNames {
    static let listLimit = 16
    private var list: [String] = []
    private var set: Set<String>?

    var isEmpty: Bool { list.isEmpty }

    mutating func insert(_ name: String) {
        let folded = name.lowercased()
        if set != nil {
            set!.insert(folded)
        } else if !list.contains(folded) {
            list.append(folded)
            if list.count > FoldedNames.listLimit { set = Set(list) }
        }
    }

    /// Whether `folded` (lower-cased) was inserted.
    func contains(_ folded: String) -> Bool { set?.contains(folded) ?? list.contains(folded) }
}
