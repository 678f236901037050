import Arcade

/// One fuzz input: its bytes (as UTF-8, invalid sequences repaired) are an Arcade expression, parsed, walked by
/// the analysis and evaluated in each profile on a small feature. Whatever the text, this must return: a
/// syntax, run or limit error is a result like any other; a crash, sanitizer report or hang is a finding.
/// The limits are tighter than the defaults so that each input runs in milliseconds.
enum ArcadeFuzzHarness {
    static let limits = ArcadeLimits(maximumSteps: 200_000, maximumDepth: 64, maximumTextLength: 1 << 20, maximumDuration: 0.2)

    /// A short description of what happened ("syntax error", "Text", "arcade/runtime-error" ...).
    static func run(_ bytes: [UInt8]) -> String {
        let source = String(decoding: bytes, as: UTF8.self)
        let script: ArcadeScript
        switch ArcadeParser.parse(source) {
        case .failure(let errors):
            for error in errors.errors { precondition(error.line >= 1 && error.column >= 1, "a syntax error has no position") }
            return "syntax error (\(errors.errors.count))"
        case .success(let parsed):
            script = parsed
        }
        _ = ArcadeAnalysis(script)
        let program = ArcadeProgram(script: script)
        var outcomes: [String] = []
        for profile in ArcadeProfile.allCases {
            let feature = ArcadeFeature(attributes: ArcadeDictionary([("Status", .text("Damaged")), ("DBH", .number(25)),
                                                                      ("Inspector", .null)]),
                                        geometry: .point(ArcadePoint(x: 1, y: 2, wkid: 3857)))
            let context = ArcadeEvaluationContext(profile: profile, feature: feature, originalFeature: feature, editType: "UPDATE",
                                                  now: 1_700_000_000_000, limits: limits)
            do {
                let value = try program.evaluate(context)
                _ = value.textValue
                outcomes.append(value.typeName)
            } catch let error as ArcadeError {
                outcomes.append(error.ruleId)
            } catch {
                outcomes.append("\(error)")
            }
        }
        return outcomes.joined(separator: ", ")
    }
}
