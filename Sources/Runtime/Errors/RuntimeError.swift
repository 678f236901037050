import Foundation
import FeatureServiceModel
import WebMap

/// Every failure of the runtime: an identifier from docs/runtime.md's Errors table (a rule ID of docs/rules.md such as
/// `add-feature/not-point`, a validation code `11001`...`11007`, or a `runtime/...` ID), a message naming the
/// operation, layer, feature and field, and the service's numeric code for service errors.
///
/// When several conditions fail at once (`startEditing`, `finish`, `addFeature`), `identifier` is the first
/// one's and `problems` lists all of them.
public struct RuntimeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var identifier: String
    public var message: String
    /// The service's code (`1023`, `1003`, `403`...) for errors the service answered.
    public var serviceCode: Int?
    public var layer: LayerReference?
    public var objectId: Int64?
    public var field: String?
    /// Every failed condition when more than one failed (each with its own identifier); empty otherwise.
    public var problems: [RuntimeError]

    public init(_ identifier: String, _ message: String, serviceCode: Int? = nil, layer: LayerReference? = nil,
                objectId: Int64? = nil, field: String? = nil, problems: [RuntimeError] = []) {
        self.identifier = identifier
        self.message = message
        self.serviceCode = serviceCode
        self.layer = layer
        self.objectId = objectId
        self.field = field
        self.problems = problems
    }

    public var description: String {
        var text = "\(identifier): \(message)"
        if let serviceCode, !message.contains("(code \(serviceCode))") { text += " (code \(serviceCode))" }
        return text
    }

    /// Every identifier this error carries: its own and its problems'.
    public var identifiers: [String] { [identifier] + problems.map(\.identifier) }

    /// True when this error, or one of its problems, has `identifier` (a rule ID, `runtime/...`, a validation
    /// code) or the service code it names.
    public func matches(_ expected: String) -> Bool {
        if identifiers.contains(expected) { return true }
        if let code = Int(expected) { return serviceCode == code || problems.contains { $0.serviceCode == code } }
        return false
    }

    /// Several failed conditions as one error: the first one's identifier, every message.
    public static func combining(_ problems: [RuntimeError], operation: String) -> RuntimeError {
        guard let first = problems.first else { return RuntimeError(Identifier.serviceError, "\(operation) failed.") }
        if problems.count == 1 { return first }
        let list = problems.map { "\($0.identifier): \($0.message)" }.joined(separator: "; ")
        return RuntimeError(first.identifier, "\(operation) failed with \(problems.count) problems: \(list)", serviceCode: first.serviceCode,
                            layer: first.layer, objectId: first.objectId, field: first.field, problems: problems)
    }
}

/// A layer or table named in an error: its title and id.
public struct LayerReference: Sendable, Equatable, CustomStringConvertible {
    public var title: String
    public var id: Int
    public init(title: String, id: Int) {
        self.title = title
        self.id = id
    }
    /// "'Trees' (layer 0)".
    public var description: String { "'\(title)' (id \(id))" }
}

extension RuntimeError {
    /// The `runtime/...` identifiers of docs/runtime.md's Errors table.
    public enum Identifier {
        public static let localEditsPending = "runtime/local-edits-pending"
        public static let defaultVersionReadOnly = "runtime/default-version-read-only"
        public static let versionNotFound = "runtime/version-not-found"
        public static let cannotAdd = "runtime/cannot-add"
        public static let cannotUpdate = "runtime/cannot-update"
        public static let cannotDelete = "runtime/cannot-delete"
        public static let notPopupEnabled = "runtime/not-popup-enabled"
        public static let fieldNotEditable = "runtime/field-not-editable"
        public static let unknownField = "runtime/unknown-field"
        public static let featureNotFound = "runtime/feature-not-found"
        public static let relationshipNotFound = "runtime/relationship-not-found"
        public static let compositeRelatedRequired = "runtime/composite-related-required"
        public static let parentBeingEdited = "runtime/parent-being-edited"
        public static let invalidGeometry = "runtime/invalid-geometry"
        /// Form edit sessions (forms.md, "Runtime"): a required element without a value, a text shorter or longer
        /// than its input allows, a value outside the element's own domain, value expressions that never settle,
        /// and a session asked of a layer without a form.
        public static let formRequired = "runtime/form-required"
        public static let formLength = "runtime/form-length"
        public static let formDomain = "runtime/form-domain"
        public static let formCalculationCycle = "runtime/form-calculation-cycle"
        public static let notFormEnabled = "runtime/not-form-enabled"
        public static let notServiceBacked = "runtime/not-service-backed"
        public static let notALayer = "runtime/not-a-layer"
        public static let authentication = "runtime/authentication"
        public static let unreachable = "runtime/unreachable"
        public static let serviceError = "runtime/service-error"
        /// Offline geodatabases (docs/runtime.md, "Offline"; not in the Errors table): another command holds the file
        /// (docs/cli.md: "in use"), and a file that is not a usable offline geodatabase (missing, damaged,
        /// unregistered for a sync).
        public static let inUse = "runtime/in-use"
        public static let offlineGeodatabase = "runtime/offline-geodatabase"
        /// Edit scripts (edit-scripts.md; not runtime.md's table): a value a step cannot use as its argument (text
        /// for a count, a whole feature for an attribute, an unreadable attachment file), a `$NAME` reference whose
        /// value was not saved (its step failed) or does not hold the path, and an `expect` step whose check fails.
        public static let scriptArgument = "script/argument"
        public static let scriptReference = "script/reference"
        public static let expectFailed = "expect/failed"
        /// Every `runtime/...` identifier, for documentation and tests.
        public static let all = [localEditsPending, defaultVersionReadOnly, versionNotFound, cannotAdd, cannotUpdate, cannotDelete,
                                 notPopupEnabled, fieldNotEditable, unknownField, featureNotFound, relationshipNotFound,
                                 compositeRelatedRequired, parentBeingEdited, invalidGeometry, notServiceBacked, notALayer,
                                 authentication, unreachable, serviceError, formRequired, formLength, formDomain,
                                 formCalculationCycle, notFormEnabled]
    }

    /// A refusal answered by the service: `runtime/authentication` for 498/499/401/403, `runtime/version-not-found`
    /// for a version that does not exist or is not visible, `runtime/service-error` otherwise.
    public static func service(_ error: ServiceError, operation: String, layer: LayerReference? = nil) -> RuntimeError {
        let text = "\(operation): the service refused: \(error.description)"
        switch error.code {
        case 401, 403, 498, 499:
            return RuntimeError(Identifier.authentication, text, serviceCode: error.code, layer: layer)
        case 404 where error.message.hasPrefix("Version not found") || error.extendedCode == -2147217146:
            return RuntimeError(Identifier.versionNotFound, text, serviceCode: error.code, layer: layer)
        default:
            return RuntimeError(Identifier.serviceError, text, serviceCode: error.code, layer: layer)
        }
    }

    /// Any error thrown while talking to a service, as a `RuntimeError`.
    public static func wrapping(_ error: any Error, operation: String, layer: LayerReference? = nil) -> RuntimeError {
        if let runtime = error as? RuntimeError { return runtime }
        if let service = error as? ServiceError { return .service(service, operation: operation, layer: layer) }
        if error is CancellationError { return RuntimeError(Identifier.unreachable, "\(operation) was cancelled.", layer: layer) }
        return RuntimeError(Identifier.serviceError, "\(operation) failed: \(error)", layer: layer)
    }
}
