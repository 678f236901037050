/// An upper bound of how deeply a YAML text nests, found in one pass over its bytes, before any parser sees it.
///
/// Yams composes a document recursively: a few thousand levels of `[` or of `- ` overflow the stack and kill the
/// process, before any depth limit of the caller can apply. Callers refuse a text whose bound passes
/// `limit` and hand the rest to Yams. Hand-written because no YAML library offers a non-recursive depth check.
///
/// Not a YAML parser: block nesting is bounded by the column a line's content starts at (each level of a block
/// collection is indented further than its parent, `- - x` included), flow nesting by the `[` and `{` that open
/// a node, outside quoted scalars, comments and block scalars. It can over-count (a literal text line inside
/// a quoted scalar spanning lines, indentation of 1,000 columns), never under-count.
public enum YAMLNesting {
    /// Texts nesting deeper than this are refused: Yams composes 3,000 levels in a debug build on a default
    /// stack, and crashes before 10,000.
    public static let limit = 1_000

    /// An upper bound of the document's nesting depth.
    public static func upperBound(of text: String) -> Int {
        var scanner = Scanner(bytes: Array(text.utf8))
        return scanner.run()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var flowDepth = 0
        var maxFlowDepth = 0
        var maxColumn = 0
        /// True where a node may start: a quote, `[`, `{`, `|` or `>` there opens one.
        var atNodeStart = true
        /// While inside a block scalar (`|`, `>`): its parent line's indentation; deeper lines are its text.
        var blockScalarParent: Int?
        var lineIndentation = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }
        static func isBlank(_ byte: UInt8?) -> Bool { byte == nil || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        mutating func run() -> Int {
            while index < bytes.count {
                startLine()
                scanLine()
            }
            return maxColumn + 1 + maxFlowDepth
        }

        /// Indentation, then `- ` and `? ` indicators: the column the content starts at bounds the block depth.
        mutating func startLine() {
            var column = 0
            while byte(at: index) == 0x20 { index += 1; column += 1 }
            if let parent = blockScalarParent {
                let blank = byte(at: index) == 0x0A || byte(at: index) == 0x0D || byte(at: index) == nil
                if blank || column > parent { skipToLineEnd(); return }
                blockScalarParent = nil
            }
            lineIndentation = column
            if flowDepth == 0 { atNodeStart = true }
            while let b = byte(at: index), b == UInt8(ascii: "-") || b == UInt8(ascii: "?"), Self.isBlank(byte(at: index + 1)) {
                index += 1; column += 1
                while byte(at: index) == 0x20 || byte(at: index) == 0x09 { index += 1; column += 1 }
            }
            maxColumn = max(maxColumn, column)
        }

        mutating func scanLine() {
            while let b = byte(at: index) {
                if b == 0x0A { index += 1; return }
                switch b {
                case 0x20, 0x09, 0x0D:
                    index += 1
                case UInt8(ascii: "#") where index == 0 || Self.isBlank(bytes[index - 1]):
                    skipToLineEnd()
                case UInt8(ascii: "\"") where atNodeStart, UInt8(ascii: "'") where atNodeStart:
                    skipQuoted(b)
                    atNodeStart = false
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    if atNodeStart { flowDepth += 1; maxFlowDepth = max(maxFlowDepth, flowDepth) }
                    index += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if flowDepth > 0 { flowDepth -= 1 }
                    atNodeStart = false
                    index += 1
                case UInt8(ascii: ","):
                    if flowDepth > 0 { atNodeStart = true }
                    index += 1
                case UInt8(ascii: ":"):
                    let next = byte(at: index + 1)
                    if Self.isBlank(next) || next == UInt8(ascii: "[") || next == UInt8(ascii: "{") || next == UInt8(ascii: ",") {
                        atNodeStart = true
                    }
                    index += 1
                case UInt8(ascii: "&") where atNodeStart, UInt8(ascii: "!") where atNodeStart:
                    // An anchor or a tag: the node it names starts after it.
                    while !Self.isBlank(byte(at: index)) { index += 1 }
                case UInt8(ascii: "|") where atNodeStart && flowDepth == 0, UInt8(ascii: ">") where atNodeStart && flowDepth == 0:
                    blockScalarParent = lineIndentation
                    skipToLineEnd()
                case UInt8(ascii: "-") where atNodeStart && Self.isBlank(byte(at: index + 1)),
                     UInt8(ascii: "?") where atNodeStart && Self.isBlank(byte(at: index + 1)):
                    index += 1
                default:
                    atNodeStart = false
                    index += 1
                }
            }
        }

        /// To the line's newline (which `scanLine` takes).
        mutating func skipToLineEnd() {
            while let b = byte(at: index), b != 0x0A { index += 1 }
        }

        /// Past a quoted scalar, which may span lines: `''` inside single quotes, backslash escapes inside double.
        mutating func skipQuoted(_ quote: UInt8) {
            index += 1
            while let b = byte(at: index) {
                if quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\") { index += 2; continue }
                if b == quote {
                    if quote == UInt8(ascii: "'"), byte(at: index + 1) == quote { index += 2; continue }
                    index += 1
                    return
                }
                index += 1
            }
        }
    }
}
