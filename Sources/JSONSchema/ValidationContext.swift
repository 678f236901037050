import WebMap

/// One step from a value to a member or element, kept only while explaining a failure.
enum PathToken {
    case key(String)
    case index(Int)

    var text: String {
        switch self {
        case .key(let k): return k
        case .index(let i): return String(i)
        }
    }
}

/// The state of one validation run. A run starts in fast mode (`detailed == false`): keywords stop at the first
/// failure and record nothing. Only when the document fails is it validated again in detailed mode, which
/// records every violation with its instance path.
final class ValidationContext {
    /// What keywords read or change as they go (`detailed`, `depth`, and in detailed mode `path` and
    /// `violations`), kept outside the object: as stored properties of a class each access was checked at run
    /// time for exclusivity (`swift_beginAccess`, some of it hoisted to the start of keywords that only read the
    /// path when they fail: a few per cent of validating a large map). A context belongs to one run on one
    /// thread, and none of these values is passed `inout` across a call that could reach it again, so no check
    /// is lost.
    private struct RunState {
        var detailed: Bool
        var depth = 0
        var violations: [SchemaViolation] = []
        var path: [PathToken] = []
    }
    private let state: UnsafeMutablePointer<RunState>

    var detailed: Bool {
        @inline(__always) get { state.pointee.detailed }
        @inline(__always) set { state.pointee.detailed = newValue }
    }
    /// Nesting of in-place applicators, to stop a schema that refers to itself without consuming the instance.
    var depth: Int {
        @inline(__always) get { state.pointee.depth }
        @inline(__always) set { state.pointee.depth = newValue }
    }
    var violations: [SchemaViolation] {
        get { state.pointee.violations }
        set { state.pointee.violations = newValue }
    }
    /// The instance path below `base`, maintained in detailed mode only.
    var path: [PathToken] {
        get { state.pointee.path }
        set { state.pointee.path = newValue }
    }
    let base: JSONPointer
    /// Schema resources entered, outermost first (for `$dynamicRef`); maintained only when the schema uses it.
    var scope: [SchemaResource] = []
    let trackScope: Bool
    /// True when the document repeats keys somewhere: objects are then read with the last occurrence winning.
    let deduplicate: Bool
    static let maximumDepth = 2_000
    /// Where on the stack validation started (the context is made on the thread that validates).
    private let stackStart: UInt = {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }()
    /// Stack validation may use below `stackStart`: threads here have 8 MB (the main thread's rlimit, and
    /// glibc's default for Dispatch's workers).
    static let stackBudget: UInt = 3 << 20

    /// The violation for `tooDeep`, at the keyword (or bare `$ref`) that would have gone one level deeper.
    func reportCycle(keyword: String, location: String, offset: Int) {
        report(keyword: keyword, location: location, offset: offset, expected: "a schema that terminates", found: "a reference cycle",
               message: "The schema refers to itself without end at \(location) (or nests deeper than validation can follow).")
    }

    /// True when in-place applicators nest too deep: past `maximumDepth`, or past `stackBudget` bytes of stack
    /// (a debug build's frames are several times larger than a release build's: `{"anyOf": [{"$ref": "#"}]}`
    /// overflowed 8 MB before 2,000 levels there).
    var tooDeep: Bool {
        @inline(__always) get { depth > 200 && deepEnoughToCheck() }
    }

    @inline(never)
    private func deepEnoughToCheck() -> Bool {
        if depth > Self.maximumDepth { return true }
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        return here < stackStart && stackStart - here > Self.stackBudget
    }

    init(detailed: Bool, base: JSONPointer, trackScope: Bool, deduplicate: Bool) {
        state = UnsafeMutablePointer<RunState>.allocate(capacity: 1)
        state.initialize(to: RunState(detailed: detailed))
        self.base = base
        self.trackScope = trackScope
        self.deduplicate = deduplicate
        if trackScope { scope.reserveCapacity(16) }
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The members of `object` that count: all of them, or the last of each repeated key.
    @inline(__always)
    func members(_ object: JSONObject) -> [JSONMember] {
        deduplicate ? object.uniqueMembers : object.members
    }

    /// Descends to a member or element in detailed mode; returns whether a token was pushed (pass it to `leave`).
    @inline(__always)
    func enter(_ token: @autoclosure () -> PathToken) -> Bool {
        guard detailed else { return false }
        let pushed = token()  // made before the path is changed (see `RunState`)
        state.pointee.path.append(pushed)
        return true
    }

    @inline(__always)
    func leave(_ pushed: Bool) {
        if pushed { state.pointee.path.removeLast() }
    }

    /// Runs `body` in fast mode (no violations recorded), restoring the mode afterwards.
    @inline(__always)
    func quietly<T>(_ body: () -> T) -> T {
        let was = detailed
        detailed = false
        defer { detailed = was }
        return body()
    }

    /// Runs `body` in detailed mode collecting its violations separately; returns them and the result.
    func collecting(_ body: () -> Bool) -> (Bool, [SchemaViolation]) {
        let saved = violations
        let wasDetailed = detailed
        violations = []
        detailed = true
        let valid = body()
        let found = violations
        violations = saved
        detailed = wasDetailed
        return (valid, found)
    }

    var pointer: JSONPointer {
        var pointer = base
        for token in path { pointer = pointer.appending(token.text) }
        return pointer
    }

    /// How messages name the value at the current path: `layerType`, `fieldInfos[3]`, `the document`.
    var subject: String { Self.subject(of: path) }

    /// `message` starting "The document..." / "Item [3]..." rather than in lower case (property names, which
    /// also start messages, keep their case).
    static func capitalized(_ message: String) -> String {
        guard message.hasPrefix("the document") || message.hasPrefix("item [") else { return message }
        return message.prefix(1).uppercased() + message.dropFirst()
    }

    static func subject(of path: [PathToken]) -> String {
        guard let last = path.last else { return "the document" }
        switch last {
        case .key(let key):
            return key
        case .index(let index):
            var indices = "[\(index)]"
            var depth = 1
            var i = path.count - 2
            while i >= 0 {
                switch path[i] {
                case .key(let key): return depth > 3 ? "\(key)[…]\(indices)" : key + indices
                case .index(let outer):
                    depth += 1
                    if depth <= 3 { indices = "[\(outer)]" + indices }
                }
                i -= 1
            }
            return depth > 3 ? "item […]\(indices) (\(depth) levels deep)" : "item " + indices
        }
    }

    /// Records a violation at the current path (detailed mode only). `extra` names a member below the current
    /// value (a property that is not allowed), at byte `offset`.
    /// A `pattern` or `patternProperties` regular expression that found no answer within its step budget.
    func reportGaveUp(keyword: String, location: String, offset: Int, regex: ECMARegex, steps: Int, text: String,
                      extra: PathToken? = nil) {
        report(keyword: keyword, location: location, offset: offset,
               expected: "text matching the pattern \(regex.source)",
               found: "'\(Describe.clip(text))' (not decided within \(steps) matching steps)",
               message: """
                   \(subject) could not be checked against the pattern \(regex.source): matching gave up after \(steps) \
                   steps, as the pattern backtracks exponentially on this text (nested quantifiers such as (a*)*), so \
                   the value is refused. Rewrite the pattern without nested or overlapping quantifiers.
                   """, extra: extra)
    }

    func report(keyword: String, location: String, offset: Int, expected: String, found: String, message: String,
                extra: PathToken? = nil) {
        guard detailed else { return }
        var pointer = self.pointer
        if let extra { pointer = pointer.appending(extra.text) }
        let violation = SchemaViolation(instancePointer: pointer, instanceOffset: offset, keyword: keyword,
                                        schemaLocation: location, expected: expected, found: found,
                                        message: Self.capitalized(message))
        state.pointee.violations.append(violation)
    }
}

/// Which properties and items of one instance the keywords of a schema have evaluated (for
/// `unevaluatedProperties` and `unevaluatedItems`). Created only by schemas that have those keywords.
final class Evaluated {
    private(set) var allProperties = false
    private(set) var allItems = false
    private var properties: [Bool] = []
    private var items: [Bool] = []

    func markProperty(_ index: Int, of count: Int) {
        if allProperties { return }
        if properties.count < count { properties += Array(repeating: false, count: count - properties.count) }
        properties[index] = true
    }

    func markAllProperties() { allProperties = true }

    func markItem(_ index: Int, of count: Int) {
        if allItems { return }
        if items.count < count { items += Array(repeating: false, count: count - items.count) }
        items[index] = true
    }

    func markItems(upTo end: Int, of count: Int) {
        if allItems || end == 0 { return }
        if items.count < count { items += Array(repeating: false, count: count - items.count) }
        for i in 0..<min(end, count) { items[i] = true }
    }

    func markAllItems() { allItems = true }

    func isPropertyEvaluated(_ index: Int) -> Bool { allProperties || (index < properties.count && properties[index]) }
    func isItemEvaluated(_ index: Int) -> Bool { allItems || (index < items.count && items[index]) }

    func merge(_ other: Evaluated) {
        if other.allProperties { allProperties = true }
        if other.allItems { allItems = true }
        if !allProperties {
            if properties.count < other.properties.count {
                properties += Array(repeating: false, count: other.properties.count - properties.count)
            }
            for (i, v) in other.properties.enumerated() where v { properties[i] = true }
        }
        if !allItems {
            if items.count < other.items.count { items += Array(repeating: false, count: other.items.count - items.count) }
            for (i, v) in other.items.enumerated() where v { items[i] = true }
        }
    }
}

/// Words for values, types and lists in violation messages.
enum Describe {
    /// A value as a message shows what was found: `'text'`, `42`, `true`, `null`, `an array of 3 items`, `an object`.
    static func found(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return "'\(clip(s))'"
        case .array(let a): return a.count == 1 ? "an array of 1 item" : "an array of \(a.count) items"
        case .object: return "an object"
        default: return literal(value)
        }
    }

    /// A value as a schema allows it: strings bare, everything else as compact JSON.
    static func allowed(_ value: JSONValue) -> String {
        if case .string(let s) = value { return s }
        return literal(value)
    }

    /// A value as quoted text in a sentence (`'ArcGISFeatureLayer'`, `2`, `null`).
    static func quoted(_ value: JSONValue) -> String {
        if case .string(let s) = value { return "'\(clip(s))'" }
        return clip(literal(value))
    }

    /// Compact JSON text.
    static func literal(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return number(n)
        case .string(let s): return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .array(let a): return "[" + a.map { literal($0.value) }.joined(separator: ",") + "]"
        case .object(let o): return "{" + o.uniqueMembers.map { literal(.string($0.key)) + ":" + literal($0.value.value) }.joined(separator: ",") + "}"
        }
    }

    static func number(_ n: JSONNumber) -> String {
        if let i = n.int { return String(i) }
        if n.double.rounded() == n.double, abs(n.double) < 1e15 { return String(Int(n.double)) }
        return String(n.double)
    }

    /// The JSON Schema type of a value: `integer` for a number with no fractional part.
    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .number(let n): return Numbers.isInteger(n) ? "integer" : "number"
        default: return value.typeName
        }
    }

    /// "a, b, c" with at most `limit` entries ("a, b, … (12 more)").
    static func list(_ items: [String], limit: Int = 12) -> String {
        if items.count <= limit { return items.joined(separator: ", ") }
        return items.prefix(limit).joined(separator: ", ") + ", … (\(items.count - limit) more)"
    }

    /// "a or b", "a, b or c".
    static func alternatives(_ items: [String]) -> String {
        if items.count <= 1 { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items.last!
    }

    static func plural(_ n: Int, _ word: String) -> String { n == 1 ? "1 \(word)" : "\(n) \(word)s" }

    static func clip(_ s: String, to limit: Int = 80) -> String {
        if s.unicodeScalars.count <= limit { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.prefix(limit))) + "…"
    }
}
