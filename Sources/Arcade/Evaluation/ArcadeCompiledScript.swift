/// What the compiler makes of a script: statement nodes with every name resolved to a slot, a library function
/// or a profile variable, and the functions declared at the top level.
final class CompiledScript {
    let statements: [StatementNode]
    let globalCount: Int
    /// Functions declared at the top level: created before the first statement runs.
    let functions: [CompiledFunction]
    let scope: CompiledScope
    /// Where run errors about the result (a constraint that is no Boolean) are reported: the last statement.
    let resultRange: ArcadeSourceRange

    init(statements: [StatementNode], globalCount: Int, functions: [CompiledFunction], scope: CompiledScope,
         resultRange: ArcadeSourceRange) {
        self.statements = statements
        self.globalCount = globalCount
        self.functions = functions
        self.scope = scope
        self.resultRange = resultRange
    }
}

/// The variables of the top level or of one function, by lower-cased name, each with its slot in the frame.
final class CompiledScope {
    let parent: CompiledScope?
    private(set) var slots: [String: Int] = [:]
    /// Names declared with `function` in this scope.
    private(set) var functionNames: Set<String> = []
    private(set) var count = 0

    init(parent: CompiledScope?) { self.parent = parent }

    @discardableResult
    func declare(_ name: String) -> Int {
        let folded = name.lowercased()
        if let slot = slots[folded] { return slot }
        slots[folded] = count
        count += 1
        return count - 1
    }

    func declareFunction(_ name: String) -> Int {
        functionNames.insert(name.lowercased())
        return declare(name)
    }

    /// The slot of `name` here or in an enclosing scope, with how many frames up it is.
    func resolve(_ name: String) -> (hops: Int, slot: Int, isFunction: Bool)? {
        let folded = name.lowercased()
        var scope: CompiledScope? = self
        var hops = 0
        while let current = scope {
            if let slot = current.slots[folded] { return (hops, slot, current.functionNames.contains(folded)) }
            scope = current.parent
            hops += 1
        }
        return nil
    }
}

/// A user function, compiled: parameters take the first slots of its frame.
final class CompiledFunction {
    let name: String
    let parameterCount: Int
    /// The slot that holds the function in the frame of the scope that declares it.
    let slot: Int
    let scope: CompiledScope
    var slotCount = 0
    var body: [StatementNode] = []
    /// Functions declared inside this one: created each time it is called, closing over its frame.
    var functions: [CompiledFunction] = []

    init(name: String, parameterCount: Int, slot: Int, scope: CompiledScope) {
        self.name = name
        self.parameterCount = parameterCount
        self.slot = slot
        self.scope = scope
    }
}
