import Arcade

/// What an expression's text alone decides: its field and relationship references (read from its tokens, so
/// they are found also in text that does not parse), its syntax errors, and its analysis. Made once per
/// distinct text in a file (``ArcadeExpression/all(in:)``), on any thread; read-only after that.
///
/// Neither the syntax tree nor the tokens are kept: no rule reads them once the analysis and the references
/// are made, and a map's 100,000 trees and token lists held to the end of the lint were a large part of its
/// memory.
final class ArcadeText {
    /// The text itself (the string the inventory found, not a copy).
    let source: String
    /// Nil when the text parses.
    let syntaxErrors: ArcadeSyntaxErrors?
    /// The lists of its analysis the rules read (``ArcadeAnalysis``), each kept on its own: a rule walking
    /// 100,000 expressions then retains the one list it reads, where reading it out of a kept analysis copied
    /// (retained and released) all five. Empty when the text does not parse.
    let calls: [ArcadeAnalysis.Call]
    let profileVariableUses: [ArcadeAnalysis.ProfileVariableUse]
    let layerNames: [ArcadeAnalysis.NamedReference]
    let fieldReferences: [ArcadeReference]
    let relationshipReferences: [ArcadeReference]

    init(_ text: String) {
        source = text
        let references = ArcadeReferenceScanner(tokens: ArcadeTokenizer(Array(text.unicodeScalars)).tokens).references
        fieldReferences = references.fields
        relationshipReferences = references.relationships
        switch ArcadeParser.parse(text) {
        case .success(let script):
            syntaxErrors = nil
            let analysis = ArcadeAnalysis(script)
            calls = analysis.calls
            profileVariableUses = analysis.profileVariables
            layerNames = analysis.layerNames
        case .failure(let errors):
            syntaxErrors = errors
            calls = []
            profileVariableUses = []
            layerNames = []
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

    /// Both kinds of references, found in one pass over the tokens:
    /// - fields: the field names the expression reads from `$feature`: `$feature.NAME`, `$feature["NAME"]`,
    ///   `$feature['NAME']`, and the string arguments of `Expects($feature, 'A', 'B')` (`*` excepted). A
    ///   computed name (`$feature[name]`, `$feature['a' + b]`) is not a reference: it cannot be checked.
    /// - relationships: the relationship names of `FeatureSetByRelationshipName($feature, "NAME", ...)` calls
    ///   (a name built up with `+` is not checked).
    var references: (fields: [ArcadeReference], relationships: [ArcadeReference]) {
        var fields: [ArcadeReference] = []
        var relationships: [ArcadeReference] = []
        var i = 0
        while i < tokens.count {
            if isFeature(i), !isPunctuation(i - 1, ".") {
                if isPunctuation(i + 1, "."), i + 2 < tokens.count, tokens[i + 2].kind == .identifier {
                    fields.append(ArcadeReference(name: tokens[i + 2].value, token: tokens[i + 2]))
                } else if isPunctuation(i + 1, "["), i + 2 < tokens.count, tokens[i + 2].kind == .string, isPunctuation(i + 3, "]") {
                    fields.append(ArcadeReference(name: tokens[i + 2].value, token: tokens[i + 2]))
                }
            } else if isCall(i, "Expects"), isFeature(i + 2) {
                var j = i + 3
                // A string argument is a name only when it is the whole argument: `'Addr' + 'ess'` is computed.
                while isPunctuation(j, ","), j + 1 < tokens.count, tokens[j + 1].kind == .string, endsArgument(j + 2) {
                    let argument = tokens[j + 1]
                    if !argument.value.contains("*") { fields.append(ArcadeReference(name: argument.value, token: argument)) }
                    j += 2
                }
            } else if isCall(i, "FeatureSetByRelationshipName") && isFeature(i + 2) && isPunctuation(i + 3, ","),
                      i + 4 < tokens.count, tokens[i + 4].kind == .string, endsArgument(i + 5) {
                relationships.append(ArcadeReference(name: tokens[i + 4].value, token: tokens[i + 4]))
            }
            i += 1
        }
        return (fields, relationships)
    }
}
