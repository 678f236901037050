import Arcade

/// What an expression's text alone decides: its scalars, its tokens (for the rules that read tokens, which
/// also fire on text that does not parse), its syntax errors, and its analysis. Made once per distinct text in
/// a file (``ArcadeExpression/all(in:)``), on any thread; read-only after that.
///
/// The syntax tree itself is not kept: no rule reads it once the analysis is made, and a map's 100,000 trees
/// held to the end of the lint were a sixth of its memory.
final class ArcadeText {
    let scalars: [Unicode.Scalar]
    let tokens: [ArcadeToken]
    /// Nil when the text parses.
    let syntaxErrors: ArcadeSyntaxErrors?
    /// The calls, field reads, profile variables and layer names; nil when the text does not parse.
    let analysis: ArcadeAnalysis?
    let fieldReferences: [ArcadeReference]
    let relationshipReferences: [ArcadeReference]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        tokens = ArcadeTokenizer(scalars).tokens
        let scanner = ArcadeReferenceScanner(tokens: tokens)
        fieldReferences = scanner.fieldReferences
        relationshipReferences = scanner.relationshipReferences
        switch ArcadeParser.parse(text) {
        case .success(let script):
            syntaxErrors = nil
            analysis = ArcadeAnalysis(script)
        case .failure(let errors):
            syntaxErrors = errors
            analysis = nil
        }
    }
}

/// The names an expression's tokens read from `$feature` and ask for as relationships (made once per
/// distinct text, with its other facts).
struct ArcadeReferenceScanner {
    let tokens: [ArcadeToken]

    private func isFeature(_ i: Int) -> Bool {
        i >= 0 && i < tokens.count && tokens[i].kind == .identifier && tokens[i].value.equalsIgnoringCase("$feature")
    }

    private func isPunctuation(_ i: Int, _ value: String) -> Bool {
        i >= 0 && i < tokens.count && tokens[i].kind == .punctuation && tokens[i].value == value
    }

    /// True when token `i` closes a call's argument: `,` or `)`.
    private func endsArgument(_ i: Int) -> Bool { isPunctuation(i, ",") || isPunctuation(i, ")") }

    private func isCall(_ i: Int, _ name: String) -> Bool {
        i < tokens.count && tokens[i].kind == .identifier && tokens[i].value.equalsIgnoringCase(name) && isPunctuation(i + 1, "(")
    }

    /// The field names the expression reads from `$feature`: `$feature.NAME`, `$feature["NAME"]`,
    /// `$feature['NAME']`, and the string arguments of `Expects($feature, 'A', 'B')` (`*` excepted). A
    /// computed name (`$feature[name]`, `$feature['a' + b]`) is not a reference: it cannot be checked.
    var fieldReferences: [ArcadeReference] {
        var found: [ArcadeReference] = []
        var i = 0
        while i < tokens.count {
            if isFeature(i), !isPunctuation(i - 1, ".") {
                if isPunctuation(i + 1, "."), i + 2 < tokens.count, tokens[i + 2].kind == .identifier {
                    found.append(ArcadeReference(name: tokens[i + 2].value, token: tokens[i + 2]))
                } else if isPunctuation(i + 1, "["), i + 2 < tokens.count, tokens[i + 2].kind == .string, isPunctuation(i + 3, "]") {
                    found.append(ArcadeReference(name: tokens[i + 2].value, token: tokens[i + 2]))
                }
            } else if isCall(i, "Expects"), isFeature(i + 2) {
                var j = i + 3
                // A string argument is a name only when it is the whole argument: `'Addr' + 'ess'` is computed.
                while isPunctuation(j, ","), j + 1 < tokens.count, tokens[j + 1].kind == .string, endsArgument(j + 2) {
                    let argument = tokens[j + 1]
                    if !argument.value.contains("*") { found.append(ArcadeReference(name: argument.value, token: argument)) }
                    j += 2
                }
            }
            i += 1
        }
        return found
    }

    /// The relationship names of `FeatureSetByRelationshipName($feature, "NAME", ...)` calls (a name built up
    /// with `+` is not checked).
    var relationshipReferences: [ArcadeReference] {
        var found: [ArcadeReference] = []
        for i in tokens.indices where isCall(i, "FeatureSetByRelationshipName") && isFeature(i + 2) && isPunctuation(i + 3, ",") {
            if i + 4 < tokens.count, tokens[i + 4].kind == .string, endsArgument(i + 5) {
                found.append(ArcadeReference(name: tokens[i + 4].value, token: tokens[i + 4]))
            }
        }
        return found
    }
}
