import Foundation

/// Where an expression runs (arcade.md, "Profile variables"): which profile variables it may use and what it must
/// return.
public enum ArcadeProfile: String, CaseIterable, Sendable {
    /// Pop-up titles and expression fields: `$feature`, `$layer`, `$map`, `$datastore`; returns any value.
    case popup
    /// Form visibility, required and editable expressions: `$feature`, `$originalFeature`, `$editcontext`; must
    /// return a Boolean.
    case formConstraint = "form-constraint"
    /// Form value expressions: `$feature`, `$originalFeature`, `$editcontext`, `$layer`, `$map`, `$datastore`;
    /// return Number, Text, Date or null.
    case formCalculation = "form-calculation"

    /// The profile variables (lower-cased, with `$`) the profile offers.
    public var variables: Set<String> {
        switch self {
        case .popup: return Self.popupVariables
        case .formConstraint: return Self.formConstraintVariables
        case .formCalculation: return Self.formCalculationVariables
        }
    }

    // Made once: the linter asks for them once an expression.
    private static let popupVariables: Set<String> = ["$feature", "$layer", "$map", "$datastore"]
    private static let formConstraintVariables: Set<String> = ["$feature", "$originalfeature", "$editcontext"]
    private static let formCalculationVariables: Set<String> = ["$feature", "$originalfeature", "$editcontext", "$layer", "$map", "$datastore"]
}

/// The bounds of one evaluation: past them it stops with `arcade/too-long` (arcade.md, "Evaluation errors and
/// limits").
public struct ArcadeLimits: Sendable {
    /// Loop iterations, function calls and library work (`ArcadeCallContext.step`) counted together.
    public var maximumSteps: Int
    /// How deeply user functions may call one another (recursion).
    public var maximumDepth: Int
    /// The longest text a concatenation or template may build, in UTF-8 bytes.
    public var maximumTextLength: Int
    /// Processor seconds (of the evaluating thread) an evaluation may use, checked every few thousand steps: an
    /// endless loop stops in about this time even where steps are slow (a debug build runs 10,000,000 steps in
    /// seconds). Time waiting for the host's data (FeatureSet reads) does not count.
    public var maximumDuration: Double

    public init(maximumSteps: Int = 10_000_000, maximumDepth: Int = 256, maximumTextLength: Int = 64 << 20,
                maximumDuration: Double = 0.5) {
        self.maximumSteps = maximumSteps
        self.maximumDepth = maximumDepth
        self.maximumTextLength = maximumTextLength
        self.maximumDuration = maximumDuration
    }
}

/// What an evaluation sees: the profile, the feature and its original, the edit type, the host's data, the time
/// zone and clock, and the limits. Every part is optional.
///
///     let context = ArcadeEvaluationContext(profile: .formConstraint, feature: feature)
///     let visible = try ArcadeEvaluator.evaluate("$feature.Status == 'Damaged'", context: context)
public struct ArcadeEvaluationContext {
    public var profile: ArcadeProfile
    /// `$feature`.
    public var feature: ArcadeFeature?
    /// `$originalFeature` in form profiles: the feature as loaded (nil on insert: every field reads null).
    public var originalFeature: ArcadeFeature?
    /// `$editcontext.editType`: "INSERT", "UPDATE", "DELETE" or "NA" (nil reads "NA").
    public var editType: String?
    /// `$map`, `$layer`, `$datastore` and the FeatureSet functions; nil where data access is not available.
    public var dataAccess: ArcadeDataAccess?
    /// The zone of dates that carry none (UTC by default).
    public var timeZone: TimeZone
    /// A fixed instant for `Now()` and `Today()`, in epoch milliseconds; nil reads the clock once per evaluation.
    public var now: Double?
    public var limits: ArcadeLimits

    public init(profile: ArcadeProfile = .popup, feature: ArcadeFeature? = nil, originalFeature: ArcadeFeature? = nil,
                editType: String? = nil, dataAccess: ArcadeDataAccess? = nil, timeZone: TimeZone = ArcadeDate.utc,
                now: Double? = nil, limits: ArcadeLimits = ArcadeLimits()) {
        self.profile = profile
        self.feature = feature
        self.originalFeature = originalFeature
        self.editType = editType
        self.dataAccess = dataAccess
        self.timeZone = timeZone
        self.now = now
        self.limits = limits
    }
}
