/// An expression, compiled: evaluating it gives a value or throws an `ArcadeError` at its place.
class ExpressionNode {
    let range: ArcadeSourceRange
    init(range: ArcadeSourceRange) { self.range = range }
    func evaluate(_ run: ArcadeRun) throws -> ArcadeValue { .null }

    func runError(_ message: String) -> ArcadeError { ArcadeError(ArcadeError.runtimeError, message, at: range) }
}

final class ConstantNode: ExpressionNode {
    let value: ArcadeValue
    init(_ value: ArcadeValue, range: ArcadeSourceRange) {
        self.value = value
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue { value }
}

/// A dictionary constant: a copy each time, so an expression that changes it changes only its own.
final class CopiedConstantNode: ExpressionNode {
    let value: ArcadeValue
    init(_ value: ArcadeValue, range: ArcadeSourceRange) {
        self.value = value
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        guard case .dictionary(let shared) = value else { return value }
        return .dictionary(ArcadeDictionary(shared.pairs.map { ($0.key, $0.value) }))
    }
}

/// `` `a ${x} b` ``: each placeholder's value as `Text()` shows it.
final class TemplateNode: ExpressionNode {
    let strings: [String]
    let expressions: [ExpressionNode]
    init(_ strings: [String], _ expressions: [ExpressionNode], range: ArcadeSourceRange) {
        self.strings = strings
        self.expressions = expressions
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        var text = strings[0]
        for (index, expression) in expressions.enumerated() {
            text += try expression.evaluate(run).textForJoining(expression.range)
            text += strings[index + 1]
            if text.utf8.count > run.context.limits.maximumTextLength { throw run.textTooLong(at: range) }
        }
        return .text(text)
    }
}

/// `[a, b]`: a new array each time.
final class ArrayLiteralNode: ExpressionNode {
    let elements: [ExpressionNode]
    init(_ elements: [ExpressionNode], range: ArcadeSourceRange) {
        self.elements = elements
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        var values: [ArcadeValue] = []
        values.reserveCapacity(elements.count)
        for element in elements { values.append(try element.evaluate(run)) }
        return .array(ArcadeArray(values))
    }
}

/// `{a: 1, "b": 2}`: a new dictionary each time.
final class DictionaryLiteralNode: ExpressionNode {
    let entries: [(key: String, value: ExpressionNode)]
    init(_ entries: [(key: String, value: ExpressionNode)], range: ArcadeSourceRange) {
        self.entries = entries
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        let dictionary = ArcadeDictionary()
        for entry in entries { dictionary[entry.key] = try entry.value.evaluate(run) }
        return .dictionary(dictionary)
    }
}

/// A variable: a slot of the current frame (`hops` 0) or of an enclosing one.
final class VariableReference {
    let name: String
    let hops: Int
    let slot: Int
    init(name: String, hops: Int, slot: Int) {
        self.name = name
        self.hops = hops
        self.slot = slot
    }

    @inline(__always)
    func frame(_ run: ArcadeRun) -> Frame {
        var frame = run.frame
        var remaining = hops
        while remaining > 0, let parent = frame.parent {
            frame = parent
            remaining -= 1
        }
        return frame
    }

    func get(_ run: ArcadeRun) -> ArcadeValue {
        let frame = frame(run)
        return slot < frame.slots.count ? frame.slots[slot] : .null
    }

    func set(_ value: ArcadeValue, _ run: ArcadeRun) {
        let frame = frame(run)
        if slot < frame.slots.count { frame.slots[slot] = value }
    }
}

final class VariableNode: ExpressionNode {
    let variable: VariableReference
    init(_ variable: VariableReference, range: ArcadeSourceRange) {
        self.variable = variable
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue { variable.get(run) }
}

/// A name that is no variable, constant or function: an error when reached.
final class UnknownNameNode: ExpressionNode {
    let message: String
    init(_ message: String, range: ArcadeSourceRange) {
        self.message = message
        super.init(range: range)
    }
    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue { throw runError(message) }
}

extension ArcadeRun {
    func textTooLong(at range: ArcadeSourceRange) -> ArcadeError {
        ArcadeError(ArcadeError.tooLong,
                    "the text built is too long: more than \(context.limits.maximumTextLength) bytes", at: range)
    }
}
