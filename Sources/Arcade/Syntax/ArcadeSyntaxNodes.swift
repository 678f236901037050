/// The parsed tree in flat storage: every node of a script in one array, addressed by index, its children a run
/// of `links` (node indexes; `SyntaxNodes.absent` for a part left out, such as an `if` without `else`).
///
/// The parser appends a node after its children (so the last node is the script's root), and nothing is freed
/// node by node: parsing a script allocates a handful of arrays, not one box per node. The analysis walks this
/// storage directly; the evaluator's compiler reads the enum tree (`ArcadeScript.makeStatements()`) built from it.
struct SyntaxNodes {
    static let absent: Int32 = -1

    private(set) var nodes: [SyntaxNode] = []
    private(set) var links: [Int32] = []
    /// The UTF-8 bytes of identifiers, names, texts and template pieces (`SyntaxNode.text` is a span of it): the
    /// lexer's `texts`, given to the tree when the parse ends.
    var bytes: [UInt8] = []
    /// How many calls, members and indexes, and identifiers: the analysis sizes its lists with them.
    private(set) var calls = 0, members = 0, identifiers = 0

    init() {}

    init(expectedNodes: Int) {
        nodes.reserveCapacity(expectedNodes)
        links.reserveCapacity(expectedNodes)
    }

    /// Copies the arrays to their exact size when they were given much more room than they used (the parser
    /// reserves for the longest likely tree): a map's 100,000 parsed expressions are kept for all the rules.
    mutating func releaseSpareCapacity() {
        // (`Array(array[...])` would hand back the same buffer: a slice of all of it converts without a copy.)
        if nodes.capacity > nodes.count + nodes.count / 4 + 4 { nodes = nodes.withUnsafeBufferPointer { Array($0) } }
        if links.capacity > links.count + links.count / 4 + 4 { links = links.withUnsafeBufferPointer { Array($0) } }
        if bytes.capacity > bytes.count + bytes.count / 4 + 16 { bytes = bytes.withUnsafeBufferPointer { Array($0) } }
    }

    subscript(_ index: Int32) -> SyntaxNode {
        @inline(__always) get { nodes[Int(index)] }
    }

    /// The children of `node`, as node indexes (`absent` where a part is left out).
    @inline(__always)
    func children(of node: SyntaxNode) -> ArraySlice<Int32> {
        links[Int(node.first)..<Int(node.first + node.count)]
    }

    /// The `offset`-th child of `node` (it must have one there).
    @inline(__always)
    func child(_ node: SyntaxNode, _ offset: Int) -> Int32 { links[Int(node.first) + offset] }

    /// A node's text (a String made on each call).
    func text(_ node: SyntaxNode) -> String {
        guard node.text.start >= 0 else { return "" }
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[node.text.start..<node.text.start + node.text.count]), as: UTF8.self)
        }
    }

    /// Whether a node's text spells `lowercased` (ASCII) in any case, without making a String.
    func text(of node: SyntaxNode, equalsIgnoringCase lowercased: StaticString) -> Bool {
        guard node.text.count == lowercased.utf8CodeUnitCount, node.text.start >= 0 else { return false }
        let letters = lowercased.utf8Start
        for offset in 0..<node.text.count {
            let byte = bytes[node.text.start + offset]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != letters[offset] { return false }
        }
        return true
    }

    /// The first byte of a node's text (0 when it has none).
    func firstByte(of node: SyntaxNode) -> UInt8 { node.text.start >= 0 && node.text.count > 0 ? bytes[node.text.start] : 0 }



    /// Adds a node whose children are `children`; returns its index.
    mutating func add(_ kind: SyntaxKind, _ range: ArcadeSourceRange, detail: UInt8 = 0, text: TextSpan = .none,
                      number: Double = 0, height: Int32 = 1, children: some Collection<Int32>) -> Int32 {
        let first = Int32(links.count)
        links.append(contentsOf: children)
        return add(kind, range, detail: detail, text: text, number: number, height: height, first: first, count: Int32(children.count))
    }

    /// Adds a node without children.
    mutating func add(_ kind: SyntaxKind, _ range: ArcadeSourceRange, detail: UInt8 = 0, text: TextSpan = .none,
                      number: Double = 0) -> Int32 {
        add(kind, range, detail: detail, text: text, number: number, height: 1, first: 0, count: 0)
    }

    /// Adds a node with one or two children.
    mutating func add(_ kind: SyntaxKind, _ range: ArcadeSourceRange, detail: UInt8 = 0, text: TextSpan = .none,
                      height: Int32, _ child: Int32, _ other: Int32? = nil) -> Int32 {
        let first = Int32(links.count)
        links.append(child)
        if let other { links.append(other) }
        return add(kind, range, detail: detail, text: text, number: 0, height: height, first: first, count: other == nil ? 1 : 2)
    }

    private mutating func add(_ kind: SyntaxKind, _ range: ArcadeSourceRange, detail: UInt8, text: TextSpan, number: Double,
                              height: Int32, first: Int32, count: Int32) -> Int32 {
        switch kind {
        case .call: calls += 1
        case .member, .index: members += 1
        case .identifier: identifiers += 1
        default: break
        }
        nodes.append(SyntaxNode(kind: kind, detail: detail, height: height, first: first, count: count, text: text,
                                number: number, range: range))
        return Int32(nodes.count - 1)
    }

    /// Widens a node's range (an expression in parentheses covers them).
    mutating func setRange(of index: Int32, _ range: ArcadeSourceRange) {
        nodes[Int(index)].range = range
    }
}

/// One node of `SyntaxNodes`.
struct SyntaxNode {
    let kind: SyntaxKind
    /// The operator (`SyntaxOperators`), a Boolean literal's value, or flags (`SyntaxKind`'s cases say which).
    let detail: UInt8
    /// Levels of the expression below and including this node (1 for a leaf); the parser bounds it.
    let height: Int32
    /// Where the children start in `links`, and how many there are.
    let first: Int32
    let count: Int32
    /// The node's text in `bytes` (`.none` for none).
    let text: TextSpan
    let number: Double
    var range: ArcadeSourceRange
}

/// What a node is, and how its children are laid out.
enum SyntaxKind: UInt8 {
    // Statements.
    /// The whole script; children: its statements.
    case script
    /// children: [expression]
    case expressionStatement
    /// children: declarations
    case variables
    /// text: the name; range: the name's; children: [initializer or absent]
    case declaration
    /// children: [test, then, else or absent]
    case `if`
    /// children: statements
    case block
    /// children: [initializer or absent, test or absent, update or absent, body]
    case `for`
    /// detail: 1 when the loop declares its variable (`var`); children: [name, collection, body]
    case forIn
    /// children: [test, body]
    case `while`
    case `break`, `continue`, empty
    /// children: [] or [value]
    case `return`
    /// text: the name; children: [name, parameters, body statements...]
    case function
    /// children: the parameters' names
    case parameters

    // Expressions.
    /// number
    case number
    /// text: the value
    case text
    /// children: [piece, expression, piece, expression, ..., piece] (pieces are `templatePiece`)
    case template
    /// text: a piece of a template literal, escapes applied
    case templatePiece
    /// detail: 1 for `true`
    case boolean
    case null
    /// text: the name as written
    case identifier
    /// children: elements
    case array
    /// children: [key, value, key, value, ...] (keys are `name`: the key's text, range with the quotes)
    case dictionary
    /// children: [object, name]
    case member
    /// children: [object, index]
    case index
    /// children: [callee, arguments...]
    case call
    /// detail: the unary operator; children: [operand]
    case unary
    /// detail: the binary operator; children: [left, right]
    case binary
    /// detail: the logical operator; children: [left, right]
    case logical
    /// Three or more operands of one precedence, left to right: children: [first operand, link, link, ...]
    case binaryChain
    /// detail: the operator before the operand; range: the chain from its start through the operand; children: [operand]
    case chainLink
    /// detail: the logical operator; three or more operands, children: the operands
    case logicalChain
    /// detail: the compound operator + 1, or 0 for `=`; children: [target, value]
    case assignment
    /// detail: 1 increment, 2 prefix (bits); children: [target]
    case update

    // Parts.
    /// text: a name (member name, dictionary key, loop variable, function or parameter name) at its range
    case name
}
