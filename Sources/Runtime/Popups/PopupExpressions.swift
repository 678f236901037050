import Arcade
import FeatureServiceModel
import Rules
import WebMap

/// The value of one pop-up expression (`popupInfo.expressionInfos[i]`, shown as `{expression/NAME}`) for one
/// feature, as the app computes it: the expression evaluated with `$feature` the feature (popup profile).
/// A failing expression shows nothing in the app: `text` is then empty and `error` says why.
public struct PopupExpressionValue: Sendable, Equatable {
    /// The expression's `name`.
    public let name: String
    /// The value as Arcade's `Text()` shows it ("" when it failed or is null).
    public let text: String
    /// The value's `TypeOf` name ("Text", "Number", ...); nil when it failed.
    public let type: String?
    /// The syntax, run or limit error, with its line and column in the expression.
    public let error: ArcadeError?
}

/// Evaluates the pop-up expressions of a layer or table on its features. With `dataAccess` (the geodatabase's,
/// on an `ArcadeThread`), FeatureSet functions read the service, version and local edits; without it they fail
/// with Arcade's run error that says data access is not available.
struct PopupExpressions {
    let info: TableInfo
    var dataAccess: ArcadeDataAccess? = nil

    /// The expression named `name` (case-insensitive, as the app matches `{expression/NAME}`), evaluated on
    /// `feature`; nil when the pop-up has no expression of that name.
    func value(named name: String, for feature: TableFeature) -> PopupExpressionValue? {
        guard let expression = info.behavior.popup?.expressionInfos.first(where: {
            ($0.node["name"]?.string ?? "").caseInsensitiveCompare(name) == .orderedSame
        }) else { return nil }
        let source = expression.node["expression"]?.string ?? ""
        let context = ArcadeEvaluationContext(profile: .popup, feature: ArcadeFeatureConversion(info: info).feature(feature),
                                              dataAccess: dataAccess)
        do {
            let value = try ArcadeEvaluator.evaluate(source, context: context)
            return PopupExpressionValue(name: name, text: value.isNull ? "" : value.textValue, type: value.typeName, error: nil)
        } catch let error as ArcadeError {
            return PopupExpressionValue(name: name, text: "", type: nil, error: error)
        } catch {
            let failure = ArcadeError(ruleId: ArcadeError.runtimeError, message: "\(error)", line: 1, column: 1, offset: 0)
            return PopupExpressionValue(name: name, text: "", type: nil, error: failure)
        }
    }

    /// Every expression of the pop-up, in order, evaluated on `feature`.
    func values(for feature: TableFeature) -> [PopupExpressionValue] {
        (info.behavior.popup?.expressionInfos ?? []).compactMap { entry in
            entry.node["name"]?.string.flatMap { value(named: $0, for: feature) }
        }
    }

    /// The pop-up's title with `{field}` replaced by the feature's values and `{expression/NAME}` by the
    /// expression's value (nothing where it fails).
    func title(for feature: TableFeature) -> String {
        let template = info.behavior.popup?.title ?? ""
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = rest[rest.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            if name.lowercased().hasPrefix("expression/") {
                result += value(named: String(name.dropFirst("expression/".count)), for: feature)?.text ?? ""
            } else {
                let value = feature[name] ?? .null
                result += value.isNull ? "" : (value.string ?? value.description)
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
