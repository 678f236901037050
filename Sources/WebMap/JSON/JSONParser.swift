import Foundation

// A byte-level JSON parser written here rather than taken from Foundation: JSONSerialization and
// JSONDecoder keep no source positions, reject duplicate keys silently, and read at about half the speed
// MapRules needs (see Benchmarks/). This one records the byte offset of every value, reports the first
// syntax error where it stopped, warns on repeated keys, bounds nesting, and validates UTF-8 as it goes.

/// Why a document could not be parsed; `offset` is where the parser stopped.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case syntax, encoding, tooDeep
    }

    public var kind: Kind
    public var message: String
    public var offset: Int

    public var description: String { message }
}

/// A repeated key, found at its second and later occurrences.
public struct DuplicateKey: Sendable {
    public var key: String
    /// Pointer to the object's member (the repeated key).
    public var pointer: JSONPointer
    /// Offset of the repeated key's opening quote.
    public var offset: Int
}

/// The outcome of parsing one document: the tree, the repeated keys, and any number out of range.
public struct ParsedJSON: Sendable {
    public var root: JSONNode
    public var duplicateKeys: [DuplicateKey]
    /// Arrays whose elements were counted but not kept (see `JSONParser.Options.elideLargeArraysNamed`).
    public var elidedArrays: [JSONPointer: Int]
    /// How many arrays were read on every core (`JSONParser.Options.concurrentMinimumSize`): the same tree
    /// either way, so only this tells a test that the concurrent reading still happens.
    public var arraysReadConcurrently = 0
}

public struct JSONParser {
    public struct Options: Sendable {
        /// Deepest nesting accepted: a deeper document is refused (`json/too-deep`).
        public var maximumDepth = 512
        /// Member names whose array values are checked but not kept, to bound memory on huge inline feature
        /// sets; applied only when the document is larger than `elisionThreshold` bytes.
        public var elideLargeArraysNamed: Set<String> = ["features"]
        public var elisionThreshold = 16 * 1024 * 1024
        /// Read a `\u` escape of a lone surrogate (half of a UTF-16 pair, which no Unicode scalar is) as U+FFFD
        /// instead of refusing the document. Editors send them (JavaScript strings may hold half an emoji while
        /// it is typed), and U+FFFD keeps UTF-16 positions where they were: one unit for one.
        public var replaceLoneSurrogates = false
        /// Documents of at least this many bytes have the elements of a large array at their top (a map's
        /// `operationalLayers`) parsed on every core (`JSONTreeParser.parseElementsConcurrently`). The tree, the
        /// repeated keys and any error are the same as a serial parse's.
        public var concurrentMinimumSize = 8 << 20

        public init() {}
    }

    /// The largest document the parser reads: offsets are kept in 32 bits (`JSONNode`). Files are refused
    /// long before this (`SourceFile.maximumBytes`); a string handed in directly is checked here.
    public static let maximumBytes = Int(Int32.max)

    public static func parse(_ text: SourceText, options: Options = Options()) throws(JSONParseError) -> ParsedJSON {
        guard text.bytes.count <= maximumBytes else {
            throw JSONParseError(kind: .syntax, message: "the document is 2 GiB or larger: too large to read", offset: 0)
        }
        return try text.bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> ParsedJSON in
            var parser = JSONTreeParser(buffer: buffer, start: text.contentStart, options: options)
            return try parser.parseDocument()
        }
    }

    public static func parse(_ string: String, options: Options = Options()) throws(JSONParseError) -> ParsedJSON {
        try parse(SourceText(string: string), options: options)
    }
}

/// Where the parser is, kept as offsets and indexes (no strings): the pointer is rebuilt only when a
/// repeated key needs one.
enum JSONPathComponent {
    /// The member whose key's opening quote is at this offset.
    case key(offset: Int)
    case index(Int)
}

struct JSONTreeParser {
    let buffer: UnsafeBufferPointer<UInt8>
    var index: Int
    let options: Options
    let elide: Bool
    /// `options.elideLargeArraysNamed` as a list (one or two names: a scan beats hashing every key).
    let elidedNames: [String]
    var depth = 0
    /// False in the parsers of one chunk of a concurrent parse (their arrays are read serially).
    var isConcurrencyAllowed = true
    var arraysReadConcurrently = 0
    var path: [JSONPathComponent] = []
    /// The members of the objects being read, innermost last, and likewise the elements of the arrays: each
    /// object (array) is copied out of here into an array of exactly its size when it closes. Growing an array
    /// per object instead left most of them with room for twice their members: a third of a large map's tree.
    var openMembers: [JSONMember] = []
    var openElements: [JSONNode] = []
    var duplicates: [DuplicateKey] = []
    var elided: [JSONPointer: Int] = [:]
    typealias Options = JSONParser.Options

    init(buffer: UnsafeBufferPointer<UInt8>, start: Int, options: Options) {
        self.buffer = buffer
        self.index = start
        self.options = options
        self.elide = buffer.count > options.elisionThreshold && !options.elideLargeArraysNamed.isEmpty
        self.elidedNames = options.elideLargeArraysNamed.sorted()
    }

    /// The pointer of the current position, re-reading each key from its offset.
    func currentPointer() -> JSONPointer {
        JSONPointer(path.map { component -> String in
            switch component {
            case .key(let offset): return key(at: offset)
            case .index(let i): return String(i)
            }
        })
    }

    /// The key whose opening quote is at `offset` (already parsed once, so it is valid).
    func key(at offset: Int) -> String {
        var end = offset + 1
        while end < buffer.count, buffer[end] != UInt8(ascii: "\""), buffer[end] != UInt8(ascii: "\\") { end += 1 }
        if end < buffer.count, buffer[end] == UInt8(ascii: "\"") {
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[(offset + 1)..<end]), as: UTF8.self)
        }
        // An escaped key (rare): the full string reader.
        var reader = self
        reader.index = offset
        return (try? reader.parseString(keep: true)) ?? ""
    }

    func fail(_ message: String, at offset: Int? = nil, kind: JSONParseError.Kind = .syntax) -> JSONParseError {
        JSONParseError(kind: kind, message: message, offset: offset ?? index)
    }

    mutating func parseDocument() throws(JSONParseError) -> ParsedJSON {
        skipWhitespace()
        guard index < buffer.count else {
            throw fail("the file is empty: expected a JSON object", at: 0)
        }
        let root = try parseValue(keep: true)
        skipWhitespace()
        if index < buffer.count {
            throw fail("unexpected \(describe(at: index)) after the end of the JSON value")
        }
        var parsed = ParsedJSON(root: root, duplicateKeys: duplicates, elidedArrays: elided)
        parsed.arraysReadConcurrently = arraysReadConcurrently
        return parsed
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func describe(at offset: Int) -> String {
        guard offset < buffer.count else { return "end of file" }
        let byte = buffer[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x20 || byte == 0x7F { return "control character U+\(String(format: "%04X", byte))" }
        if byte == 0x20 { return "space" }
        // A non-ASCII character outside a string: decode it for the message when it is valid UTF-8.
        var end = offset + 1
        while end < buffer.count && end < offset + 4 && buffer[end] & 0xC0 == 0x80 { end += 1 }
        if let s = String(validating: UnsafeBufferPointer(rebasing: buffer[offset..<end]), as: UTF8.self) {
            return "'\(s)'"
        }
        return "byte 0x\(String(format: "%02X", byte))"
    }

    mutating func parseValue(keep: Bool) throws(JSONParseError) -> JSONNode {
        guard index < buffer.count else { throw fail("unexpected end of file: expected a value") }
        let start = index
        switch buffer[index] {
        case UInt8(ascii: "{"): return JSONNode(try parseObject(keep: keep), offset: start)
        case UInt8(ascii: "["): return JSONNode(try parseArray(keep: keep), offset: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString(keep: keep)), offset: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(.bool(true), offset: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(.bool(false), offset: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if !keep {
                // Checked, not kept: no Double is made unless the number could be out of range.
                let scanned = try scanNumber()
                if scanned.mayOverflowDouble { _ = try makeNumber(scanned, from: start) }
                return JSONNode(.null, offset: start)
            }
            return JSONNode(.number(try parseNumber()), offset: start)
        default:
            throw fail("unexpected \(describe(at: index)): expected a value (object, array, string, number, true, false or null)")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let start = index
        let count = word.utf8CodeUnitCount
        let ptr = word.utf8Start
        for i in 0..<count {
            guard index < buffer.count, buffer[index] == ptr[i] else {
                throw fail("invalid literal: expected '\(word)'", at: start)
            }
            index += 1
        }
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > options.maximumDepth {
            throw fail("nesting is deeper than \(options.maximumDepth) levels", kind: .tooDeep)
        }
    }

    /// Raw byte ranges of the keys of the objects being skipped, innermost last (shared scratch space, so
    /// skipping allocates nothing per object).
    var skippedKeys: [Range<Int>] = []

    /// Checks an object that is not kept: syntax, encoding, depth and repeated keys, with no allocation.
    mutating func skipObject() throws(JSONParseError) {
        try enter()
        defer { depth -= 1 }
        index += 1
        let base = skippedKeys.count
        defer { skippedKeys.removeSubrange(base...) }
        var large: Set<String>?
        skipWhitespace()
        if index < buffer.count && buffer[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard index < buffer.count else { throw fail("unexpected end of file inside an object: expected a key") }
            guard buffer[index] == UInt8(ascii: "\"") else {
                throw fail("unexpected \(describe(at: index)): expected a key in double quotes")
            }
            let keyOffset = index
            _ = try parseString(keep: false)
            let keyRange = (keyOffset + 1)..<(index - 1)
            skipWhitespace()
            guard index < buffer.count, buffer[index] == UInt8(ascii: ":") else {
                throw fail("unexpected \(describe(at: index)) after a key: expected ':'")
            }
            index += 1
            skipWhitespace()
            var repeated = false
            if let set = large {
                repeated = set.contains(keyText(keyRange))
                large!.insert(keyText(keyRange))
            } else {
                for other in skippedKeys[base...] where sameBytes(other, keyRange) { repeated = true; break }
                if skippedKeys.count - base >= 32 {
                    large = Set(skippedKeys[base...].map(keyText))
                    large!.insert(keyText(keyRange))
                }
            }
            skippedKeys.append(keyRange)
            path.append(.key(offset: keyOffset))
            if repeated {
                duplicates.append(DuplicateKey(key: keyText(keyRange), pointer: currentPointer(), offset: keyOffset))
            }
            try skipValue()
            path.removeLast()
            skipWhitespace()
            guard index < buffer.count else { throw fail("unexpected end of file inside an object: expected ',' or '}'") }
            if buffer[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if buffer[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            throw fail("unexpected \(describe(at: index)) in an object: expected ',' or '}'")
        }
    }

    /// Checks a value that is not kept.
    mutating func skipValue() throws(JSONParseError) {
        guard index < buffer.count else { throw fail("unexpected end of file: expected a value") }
        if buffer[index] == UInt8(ascii: "{") { try skipObject() } else { _ = try parseValue(keep: false) }
    }

    /// String equality with the cheap length test first (most keys of an object differ in length).
    @inline(__always)
    func sameKey(_ a: String, _ b: String) -> Bool { a.utf8.count == b.utf8.count && a == b }

    func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        return memcmp(buffer.baseAddress! + a.lowerBound, buffer.baseAddress! + b.lowerBound, a.count) == 0
    }

    /// A key's text as written (escapes left as they are: enough to tell keys apart and to name one).
    func keyText(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    mutating func parseObject(keep: Bool) throws(JSONParseError) -> JSONValue {
        if !keep {
            try skipObject()
            return .null
        }
        try enter()
        defer { depth -= 1 }
        index += 1
        let base = openMembers.count
        var seen: Set<String>? = nil
        skipWhitespace()
        if index < buffer.count && buffer[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject())
        }
        while true {
            skipWhitespace()
            guard index < buffer.count else { throw fail("unexpected end of file inside an object: expected a key") }
            guard buffer[index] == UInt8(ascii: "\"") else {
                throw fail("unexpected \(describe(at: index)): expected a key in double quotes")
            }
            let keyOffset = index
            let key = try parseString(keep: true)
            skipWhitespace()
            guard index < buffer.count, buffer[index] == UInt8(ascii: ":") else {
                throw fail("unexpected \(describe(at: index)) after key \"\(key)\": expected ':'")
            }
            index += 1
            skipWhitespace()
            // Repeated keys: a linear scan (lengths first) for objects of up to 32 members, which is far cheaper
            // than hashing every key (inline features carry a dozen or more attributes each); a set beyond.
            var repeated = false
            if openMembers.count - base < 32 {
                // By index: a member copied out of the list would retain its key and value at every step.
                var m = base
                while m < openMembers.count, !sameKey(openMembers[m].key, key) { m += 1 }
                repeated = m < openMembers.count
            } else {
                if seen == nil { seen = Set(openMembers[base...].map(\.key)) }
                repeated = !seen!.insert(key).inserted
            }
            path.append(.key(offset: keyOffset))
            if repeated { duplicates.append(DuplicateKey(key: key, pointer: currentPointer(), offset: keyOffset)) }
            let value: JSONNode
            if elide && elidedNames.contains(where: { sameKey($0, key) }),
               index < buffer.count, buffer[index] == UInt8(ascii: "[") {
                let start = index
                let count = try countArray()
                elided[currentPointer()] = count
                value = JSONNode(.array([]), offset: start)
            } else {
                value = try parseValue(keep: keep)
            }
            path.removeLast()
            openMembers.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            guard index < buffer.count else { throw fail("unexpected end of file inside an object: expected ',' or '}'") }
            if buffer[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if buffer[index] == UInt8(ascii: "}") {
                index += 1
                let members = openMembers.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[base...])) }
                openMembers.removeSubrange(base...)
                return .object(JSONObject(members))
            }
            throw fail("unexpected \(describe(at: index)) in an object: expected ',' or '}'")
        }
    }

    /// Parses an array without keeping its elements; returns how many it had.
    mutating func countArray() throws(JSONParseError) -> Int {
        guard case .array = try parseArray(keep: false) else { return 0 }
        return lastCount
    }

    var lastCount = 0

    mutating func parseArray(keep: Bool) throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        let base = openElements.count
        var count = 0
        skipWhitespace()
        if index < buffer.count && buffer[index] == UInt8(ascii: "]") {
            index += 1
            lastCount = 0
            return .array([])
        }
        if keep, isConcurrencyAllowed, depth <= Self.concurrentDepth, buffer.count >= options.concurrentMinimumSize,
           let elements = parseElementsConcurrently() {
            arraysReadConcurrently += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append(.index(count))
            let element = try parseValue(keep: keep)
            path.removeLast()
            if keep { openElements.append(element) }
            count += 1
            skipWhitespace()
            guard index < buffer.count else { throw fail("unexpected end of file inside an array: expected ',' or ']'") }
            if buffer[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if buffer[index] == UInt8(ascii: "]") {
                index += 1
                lastCount = count
                guard keep else { return .array([]) }
                let elements = openElements.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[base...])) }
                openElements.removeSubrange(base...)
                return .array(elements)
            }
            throw fail("unexpected \(describe(at: index)) in an array: expected ',' or ']'")
        }
    }

    mutating func parseString(keep: Bool) throws(JSONParseError) -> String {
        let quote = index
        index += 1
        let start = index
        var ascii = true
        // Fast path: scan to the closing quote; fall back to unescaping when a backslash appears.
        while index < buffer.count {
            index = Self.skipPlainBytes(buffer, from: index, allowNonASCII: !ascii)
            guard index < buffer.count else { break }
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<index])
                index += 1
                if !keep {
                    // Not kept, but still checked: a skipped string must be UTF-8 like any other.
                    if !ascii && !Self.isValidUTF8(slice) {
                        throw fail("the string is not valid UTF-8", at: firstInvalidUTF8(from: start, to: index - 1), kind: .encoding)
                    }
                    return ""
                }
                if ascii {
                    // Short strings live inside the String value; longer ones repeat a lot in web maps
                    // (field types, field names, edit-tracking keys): those are made once per document. Small
                    // documents (a stored row, a request parameter) skip it: the table would cost more than
                    // the strings.
                    if slice.count > 15 && slice.count <= 64 && buffer.count >= Self.internMinimumSize { return interned(slice) }
                    return String(decoding: slice, as: UTF8.self)
                }
                guard let s = String(validating: slice, as: UTF8.self) else {
                    throw fail("the string is not valid UTF-8", at: firstInvalidUTF8(from: start, to: index - 1), kind: .encoding)
                }
                return s
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start, keep: keep) }
            if byte < 0x20 {
                throw fail("unescaped control character U+\(String(format: "%04X", byte)) in a string (write it as \\u\(String(format: "%04x", byte)))")
            }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        throw fail("unterminated string: no closing '\"'", at: quote)
    }

    /// The offset of the first byte at or after `start` that a string scan must look at: a quote, a
    /// backslash, a control character, or (unless `allowNonASCII`) a byte of a non-ASCII character. Eight
    /// bytes at a time: most string bytes are plain ASCII.
    @inline(__always)
    static func skipPlainBytes(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, allowNonASCII: Bool) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let base = buffer.baseAddress!
        var i = start
        while i + 8 <= buffer.count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // The classic "has a zero byte" and "has a byte below n" tests; their lowest flagged byte is
            // always a real match, which is all that is used here.
            var flags = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            flags &= high
            if !allowNonASCII { flags |= word & high }
            if flags != 0 { return i + flags.trailingZeroBitCount / 8 }
            i += 8
        }
        return i
    }

    /// Documents smaller than this make their strings without the intern table.
    static let internMinimumSize = 4096

    /// Strings of this document already made, by a hash of their bytes (one per slot, the latest wins).
    var internTable: [String?] = []

    /// The string of these ASCII bytes, shared with an earlier equal string of the document when there is
    /// one: no allocation and no second copy of the text.
    mutating func interned(_ slice: UnsafeBufferPointer<UInt8>) -> String {
        if internTable.isEmpty { internTable = Array(repeating: nil, count: 512) }
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in slice { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let slot = Int(hash & 511)
        if let cached = internTable[slot], cached.utf8.count == slice.count,
           cached.utf8.withContiguousStorageIfAvailable({ stored in
               memcmp(stored.baseAddress!, slice.baseAddress!, slice.count) == 0
           }) == true {
            return cached
        }
        let made = String(decoding: slice, as: UTF8.self)
        internTable[slot] = made
        return made
    }

    /// Validates UTF-8 without building a string.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    func firstInvalidUTF8(from start: Int, to end: Int) -> Int {
        var i = start
        while i < end {
            let b = buffer[i]
            let length: Int
            if b < 0x80 { length = 1 } else if b & 0xE0 == 0xC0 { length = 2 } else if b & 0xF0 == 0xE0 { length = 3 } else if b & 0xF8 == 0xF0 { length = 4 } else { return i }
            if i + length > end { return i }
            if String(validating: UnsafeBufferPointer(rebasing: buffer[i..<(i + length)]), as: UTF8.self) == nil { return i }
            i += length
        }
        return start
    }

    mutating func parseEscapedString(from start: Int, keep: Bool) throws(JSONParseError) -> String {
        var bytes = Array(UnsafeBufferPointer(rebasing: buffer[start..<index]))
        while index < buffer.count {
            let byte = buffer[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                if !keep {
                    if !bytes.withUnsafeBufferPointer(Self.isValidUTF8) {
                        throw fail("the string is not valid UTF-8", at: start, kind: .encoding)
                    }
                    return ""
                }
                guard let s = String(validating: bytes, as: UTF8.self) else {
                    throw fail("the string is not valid UTF-8", at: start, kind: .encoding)
                }
                return s
            case UInt8(ascii: "\\"):
                let escape = index
                index += 1
                guard index < buffer.count else { break }
                let code = buffer[index]
                index += 1
                switch code {
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "/"): bytes.append(0x2F)
                case UInt8(ascii: "b"): bytes.append(0x08)
                case UInt8(ascii: "f"): bytes.append(0x0C)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(escapeAt: escape)
                    if (0xD800...0xDBFF).contains(scalar) {
                        // A high surrogate must be followed by a low one to form one scalar.
                        if index + 1 < buffer.count, buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u") {
                            let second = index
                            index += 2
                            let low = try hex4(escapeAt: second)
                            if (0xDC00...0xDFFF).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            } else if options.replaceLoneSurrogates {
                                scalar = 0xFFFD
                                index = second  // the second escape is read on its own
                            } else {
                                throw fail("invalid surrogate pair in \\u escape", at: escape)
                            }
                        } else if options.replaceLoneSurrogates {
                            scalar = 0xFFFD
                        } else {
                            throw fail("lone high surrogate in \\u escape", at: escape)
                        }
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        guard options.replaceLoneSurrogates else { throw fail("lone low surrogate in \\u escape", at: escape) }
                        scalar = 0xFFFD
                    }
                    bytes.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    throw fail("invalid escape '\\\(Character(Unicode.Scalar(code)))' in a string", at: escape)
                }
            default:
                if byte < 0x20 {
                    throw fail("unescaped control character U+\(String(format: "%04X", byte)) in a string")
                }
                bytes.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string: no closing '\"'", at: start - 1)
    }

    mutating func hex4(escapeAt escape: Int) throws(JSONParseError) -> UInt32 {
        guard index + 4 <= buffer.count else { throw fail("incomplete \\u escape", at: escape) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = buffer[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape: expected four hex digits", at: escape)
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    /// What `scanNumber` found between `start` and the parser's index.
    struct ScannedNumber {
        var negative: Bool
        var mantissa: UInt64
        var integerDigits: Int
        var overflow: Bool
        var isInteger: Bool
        var hasExponent: Bool
        /// Every digit written (integer and fraction) as one integer, and the power of ten it is scaled by;
        /// `exact` is false when either went beyond what the fast conversion takes.
        var significand: UInt64
        var decimalExponent: Int
        var exact: Bool

        /// Only a number with an exponent or hundreds of digits can fall outside a Double's range.
        var mayOverflowDouble: Bool { hasExponent || integerDigits > 300 }
    }

    /// Checks a number's syntax and moves past it, reading the integer part's value on the way.
    mutating func scanNumber() throws(JSONParseError) -> ScannedNumber {
        let start = index
        var negative = false
        if buffer[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < buffer.count, isDigit(buffer[index]) else {
            throw fail("invalid number: expected a digit after '-'", at: start)
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var overflow = false
        if buffer[index] == UInt8(ascii: "0") {
            index += 1
            digits = 1
            if index < buffer.count, isDigit(buffer[index]) {
                throw fail("invalid number: leading zeros are not allowed", at: start)
            }
        } else {
            while index < buffer.count, isDigit(buffer[index]) {
                let (m1, o1) = mantissa.multipliedReportingOverflow(by: 10)
                let (m2, o2) = m1.addingReportingOverflow(UInt64(buffer[index] - UInt8(ascii: "0")))
                if o1 || o2 { overflow = true } else { mantissa = m2 }
                digits += 1
                index += 1
            }
        }
        var isInteger = true
        var hasExponent = false
        var significand = mantissa
        var decimalExponent = 0
        var exact = !overflow && mantissa <= Self.largestExactSignificand
        if index < buffer.count, buffer[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < buffer.count, isDigit(buffer[index]) else {
                throw fail("invalid number: expected a digit after '.'", at: start)
            }
            while index < buffer.count, isDigit(buffer[index]) {
                if exact {
                    let next = significand &* 10 &+ UInt64(buffer[index] - UInt8(ascii: "0"))
                    if significand <= Self.largestExactSignificand / 10, next <= Self.largestExactSignificand {
                        significand = next
                        decimalExponent -= 1
                    } else {
                        exact = false
                    }
                }
                index += 1
            }
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: "e") || buffer[index] == UInt8(ascii: "E") {
            isInteger = false
            hasExponent = true
            index += 1
            var exponentSign = 1
            if index < buffer.count, buffer[index] == UInt8(ascii: "+") || buffer[index] == UInt8(ascii: "-") {
                if buffer[index] == UInt8(ascii: "-") { exponentSign = -1 }
                index += 1
            }
            guard index < buffer.count, isDigit(buffer[index]) else {
                throw fail("invalid number: expected a digit in the exponent", at: start)
            }
            var exponent = 0
            while index < buffer.count, isDigit(buffer[index]) {
                if exponent < 10_000 { exponent = exponent * 10 + Int(buffer[index] - UInt8(ascii: "0")) }
                index += 1
            }
            decimalExponent += exponentSign * exponent
        }
        return ScannedNumber(negative: negative, mantissa: mantissa, integerDigits: digits, overflow: overflow,
                             isInteger: isInteger, hasExponent: hasExponent, significand: significand,
                             decimalExponent: decimalExponent, exact: exact)
    }

    /// The value of the number scanned from `start` to the parser's index.
    func makeNumber(_ scanned: ScannedNumber, from start: Int) throws(JSONParseError) -> JSONNumber {
        if scanned.isInteger && !scanned.overflow && scanned.mantissa <= UInt64(Int.max) {
            let int = scanned.negative ? -Int(scanned.mantissa) : Int(scanned.mantissa)
            return JSONNumber(double: Double(int), int: int, isInteger: true)
        }
        // Clinger's fast path: a significand of at most 53 bits and a power of ten up to 10^22 are both exact
        // doubles, so one correctly rounded multiplication or division gives the correctly rounded value
        // (most coordinates and measures qualify). Anything else goes through the standard library.
        if scanned.exact && scanned.decimalExponent >= -22 && scanned.decimalExponent <= 22 {
            let power = Self.exactPowersOfTen[abs(scanned.decimalExponent)]
            var value = Double(scanned.significand)
            value = scanned.decimalExponent < 0 ? value / power : value * power
            return JSONNumber(double: scanned.negative ? -value : value, int: nil, isInteger: scanned.isInteger)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw fail("number \(text) is out of range (larger than a 64-bit floating-point number can hold)", at: start)
        }
        return JSONNumber(double: double, int: nil, isInteger: scanned.isInteger)
    }

    static let largestExactSignificand: UInt64 = 1 << 53
    static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        // Two statements: in one, `self` would be captured for `makeNumber` before `scanNumber` moves `index`.
        let scanned = try scanNumber()
        return try makeNumber(scanned, from: start)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
