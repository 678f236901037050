/// `$feature`, `$originalFeature`, `$editcontext`, `$layer`, `$map`, `$datastore`: each offered by some profiles
/// only (ArcadeProfile.variables); using one elsewhere is a run error.
final class ProfileVariableNode: ExpressionNode {
    /// Lower-cased, with `$`.
    let name: String
    let written: String
    init(name: String, range: ArcadeSourceRange) {
        self.written = name
        self.name = name.lowercased()
        super.init(range: range)
    }

    static let known: Set<String> = ["$feature", "$originalfeature", "$editcontext", "$layer", "$map", "$datastore"]

    override func evaluate(_ run: ArcadeRun) throws -> ArcadeValue {
        try ProfileVariableNode.check(name, written, run, range)
        switch name {
        case "$feature", "$originalfeature":
            return .feature(try ProfileVariableNode.feature(original: name == "$originalfeature", run, range))
        case "$editcontext":
            return .dictionary(ArcadeDictionary([("editType", .text(run.context.editType ?? "NA"))]))
        case "$layer":
            let access = try ProfileVariableNode.dataAccess(written, run, range)
            let layer: ArcadeFeatureSource?
            do {
                layer = try access.currentLayer()
            } catch {
                throw runError("$layer could not be read: \(error)")
            }
            guard let layer else { throw runError("$layer is not available: the feature's layer is not known here") }
            return .featureSet(ArcadeFeatureSet(source: layer))
        default:   // $map, $datastore
            _ = try ProfileVariableNode.dataAccess(written, run, range)
            return .featureSetCollection(FeatureSetCollection(name: written))
        }
    }

    static func check(_ name: String, _ written: String, _ run: ArcadeRun, _ range: ArcadeSourceRange) throws {
        let profile = run.context.profile
        guard profile.variables.contains(name) else {
            throw ArcadeError(ArcadeError.runtimeError,
                              "\(written) is not available in the \(profile.rawValue) profile (it offers \(profile.variables.sorted().joined(separator: ", ")))",
                              at: range)
        }
    }

    static func dataAccess(_ written: String, _ run: ArcadeRun, _ range: ArcadeSourceRange) throws -> ArcadeDataAccess {
        guard let access = run.context.dataAccess else {
            throw ArcadeError(ArcadeError.runtimeError, "\(written) is not available: no data access here (no map or service was given)", at: range)
        }
        return access
    }

    /// `$feature` or `$originalFeature`; the original of an inserted feature is an empty feature of the same layer.
    static func feature(original: Bool, _ run: ArcadeRun, _ range: ArcadeSourceRange) throws -> ArcadeFeature {
        try check(original ? "$originalfeature" : "$feature", original ? "$originalFeature" : "$feature", run, range)
        if original {
            if let feature = run.context.originalFeature { return feature }
            return ArcadeFeature(attributes: ArcadeDictionary(), schema: run.context.feature?.schema)
        }
        guard let feature = run.feature else {
            throw ArcadeError(ArcadeError.runtimeError, "$feature is not available: no feature was given to evaluate against", at: range)
        }
        return feature
    }
}

/// The payload of `$map` and `$datastore` values (`ArcadeValue.featureSetCollection`): which of the two it is, as
/// written in the expression ("$map", "$datastore"). The layers themselves come from `ArcadeDataAccess`.
public final class FeatureSetCollection {
    public let name: String
    public init(name: String) { self.name = name }
}
