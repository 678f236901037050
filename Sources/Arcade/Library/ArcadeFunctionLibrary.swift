/// Every function MapRules evaluates, by lower-cased name. Each category of the function reference has its own
/// file that adds a list (`logicalFunctions`, `mathFunctions`, ...); a name that is a real Arcade function but is
/// not here fails evaluation with `arcade/unsupported-function` (`ArcadeFunctionCatalog` knows every real name).
public enum ArcadeFunctionLibrary {
    public static let all: [String: ArcadeFunctionDefinition] = {
        var table: [String: ArcadeFunctionDefinition] = [:]
        for list in categories {
            for definition in list { table[definition.name.lowercased()] = definition }
        }
        return table
    }()

    public static func function(named name: String) -> ArcadeFunctionDefinition? { all[name.lowercased()] }
}

extension ArcadeFunctionLibrary {
    /// The categories of the function reference, each defined in its own folder under `Functions/`.
    static var categories: [[ArcadeFunctionDefinition]] {
        [logicalFunctions, mathFunctions, textFunctions, dateFunctions, arrayFunctions, dictionaryFunctions,
         geometryFunctions, featureSetFunctions]
    }
}

extension ArcadeFunctionLibrary {
    /// Names that are values, not functions: `PI`, `Infinity`, `TextFormatting` (its members: `TextFormatting.NewLine`,
    /// ...), by lower-cased name. The evaluator looks a bare identifier up here when no variable has that name.
    public static let constants: [String: ArcadeValue] = {
        var table: [String: ArcadeValue] = ["pi": .number(Double.pi), "infinity": .number(.infinity)]
        table["textformatting"] = .dictionary(textFormattingConstants)
        return table
    }()
}
