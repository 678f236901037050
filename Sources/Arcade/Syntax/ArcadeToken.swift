/// A token of Arcade's text, as the lexer reads it.
struct ArcadeToken {
    enum Kind: Equatable {
        case number
        case string
        /// A template literal without placeholders: `` `text` ``.
        case templateFull
        /// `` `text${ ``, `}text${`, `}text` ``: the pieces of a template literal around its placeholders.
        case templateHead, templateMiddle, templateTail
        case identifier
        case keyword(ArcadeKeyword)
        case punctuator(ArcadePunctuator)
        case endOfInput
    }

    var kind: Kind
    /// The identifier as written, the string's or template piece's value (escapes applied): its UTF-8 bytes in
    /// the lexer's `texts` (no String per token).
    var text = TextSpan.none
    var number: Double = 0
    var range: ArcadeSourceRange
    /// Whether a line break comes between the previous token and this one (semicolons are optional at line ends).
    var newlineBefore: Bool = false
}

/// A run of UTF-8 bytes in a buffer of texts (the lexer's `texts`, then the tree's).
struct TextSpan {
    var start: Int
    var count: Int

    static let none = TextSpan(start: -1, count: 0)
}

/// Arcade's reserved words (matched without regard to case, as identifiers are).
enum ArcadeKeyword: String {
    case `var`, `if`, `else`, `for`, `in`, `while`, `break`, `continue`, `return`, `function`
    case `true`, `false`, `null`
}

enum ArcadePunctuator: String {
    case leftParen = "(", rightParen = ")", leftBracket = "[", rightBracket = "]", leftBrace = "{", rightBrace = "}"
    case comma = ",", semicolon = ";", colon = ":", dot = "."
    case plus = "+", minus = "-", star = "*", slash = "/", percent = "%"
    case plusPlus = "++", minusMinus = "--"
    case assign = "=", plusAssign = "+=", minusAssign = "-=", starAssign = "*=", slashAssign = "/="
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case and = "&&", or = "||", not = "!"
    case bitAnd = "&", bitOr = "|", bitXor = "^", bitNot = "~", shiftLeft = "<<", shiftRight = ">>"
    case unsignedShiftRight = ">>>"
}
