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

/// Evaluates the pop-up expressions of a layer or table on its features.
///
/// FeatureSet functions (`FeatureSetByName($map, ...)`, `FeatureSetByRelationshipName`) have no data access
/// here yet: they fail with Arcade's run error that says so.
struct PopupExpressions {
    let info: TableInfo

    /// The layer's fields, types and coded domains, for `$feature`.
    var schema: ArcadeLayerSchema { ArcadeLayerSchema(metadata: info.metadata) }

    /// The expression named `name` (case-insensitive, as the app matches `{expression/NAME}`), evaluated on
    /// `feature`; nil when the pop-up has no expression of that name.
    func value(named name: String, for feature: TableFeature) -> PopupExpressionValue? {
        guard let expression = info.behavior.popup?.expressionInfos.first(where: {
            ($0.node["name"]?.string ?? "").caseInsensitiveCompare(name) == .orderedSame
        }) else { return nil }
        let source = expression.node["expression"]?.string ?? ""
        let context = ArcadeEvaluationContext(profile: .popup, feature: arcadeFeature(feature))
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

    /// The feature as `$feature`: attributes (dates of date fields as Dates), geometry, the layer's schema.
    func arcadeFeature(_ feature: TableFeature) -> ArcadeFeature {
        let schema = self.schema
        let attributes = ArcadeDictionary()
        for (name, value) in feature.attributes.entries {
            let isDate = schema.field(named: name)?.type == "esriFieldTypeDate"
            switch value {
            case .null: attributes[name] = .null
            case .int(let i): attributes[name] = isDate ? .date(ArcadeDate(epochMilliseconds: Double(i))) : .number(Double(i))
            case .double(let d): attributes[name] = isDate ? .date(ArcadeDate(epochMilliseconds: d)) : .number(d)
            case .string(let s): attributes[name] = .text(s)
            }
        }
        let wkid = (feature.spatialReference ?? info.spatialReference).wkid
        return ArcadeFeature(attributes: attributes, geometry: feature.geometry.map { Self.geometry($0, wkid: wkid) }, schema: schema)
    }

    static func geometry(_ geometry: Geometry, wkid: Int) -> ArcadeGeometry {
        func point(_ p: Point) -> ArcadePoint { ArcadePoint(x: p.x, y: p.y, wkid: wkid) }
        switch geometry {
        case .point(let p): return .point(point(p))
        case .multipoint(let points): return .multipoint(points: points.map(point), wkid: wkid)
        case .polyline(let paths): return .polyline(paths: paths.map { $0.map(point) }, wkid: wkid)
        case .polygon(let rings): return .polygon(rings: rings.map { $0.map(point) }, wkid: wkid)
        case .envelope(let e): return .extent(xmin: e.xmin, ymin: e.ymin, xmax: e.xmax, ymax: e.ymax, wkid: wkid)
        }
    }
}
