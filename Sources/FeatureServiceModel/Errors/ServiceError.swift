import WebMap
/// A refused or failed request, carrying the ArcGIS REST error code that the HTTP face answers with.
///
/// The HTTP face encodes it as `{"error": {"code", "message", "details"}}` (HTTP 200), or, for version
/// management operations, as `{"success": false, "error": {"extendedCode", "message", "details"}}`.
/// `description` reads as a sentence that says what went wrong and how to fix it.
public struct ServiceError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The Esri code: 400 (bad request), 403 (not permitted), 404 (not found), 498 (invalid token),
    /// 499 (token required), 500 (internal error).
    public var code: Int
    public var message: String
    public var details: [String]
    /// The version management `extendedCode` (an HRESULT-like negative number), when there is one.
    public var extendedCode: Int?

    public init(code: Int, message: String, details: [String] = [], extendedCode: Int? = nil) {
        self.code = code
        self.message = message
        self.details = details
        self.extendedCode = extendedCode
    }

    public var description: String {
        details.isEmpty ? "\(message) (code \(code))" : "\(message) (code \(code)): \(details.joined(separator: " "))"
    }

    // MARK: Common refusals

    /// The store cannot be reached or opened (a PostgreSQL server down, a wrong URL).
    public static func storeUnavailable(_ message: String) -> ServiceError { ServiceError(code: 503, message: message) }

    public static func invalidParameter(_ detail: String) -> ServiceError {
        ServiceError(code: 400, message: "Unable to complete operation.", details: [detail])
    }

    public static func invalidQuery(_ detail: String) -> ServiceError {
        ServiceError(code: 400, message: "Unable to perform query. Please check your parameters.", details: [detail])
    }

    public static func serviceNotFound(_ name: String) -> ServiceError {
        ServiceError(code: 404, message: "Service not found.", details: ["There is no feature service named '\(name)'."])
    }

    public static func layerNotFound(_ id: Int, service: String) -> ServiceError {
        ServiceError(code: 404, message: "Layer not found.", details: ["Service '\(service)' has no layer or table with id \(id)."])
    }

    public static func objectNotFound(_ objectId: Int, layer: String) -> ServiceError {
        ServiceError(code: 404, message: "Object not found.", details: ["\(layer) has no feature with object id \(objectId)."])
    }

    /// A version that does not exist, or that the caller may not see: the same answer for both, so that a
    /// private version's existence does not leak.
    public static func versionNotFound(_ name: String) -> ServiceError {
        ServiceError(code: 404, message: "Version not found.",
                     details: ["The version '\(name)' does not exist or you do not have permission to access it."],
                     extendedCode: -2147217146)
    }

    public static let tokenRequired = ServiceError(code: 499, message: "Token Required",
                                                   details: ["Sign in (generateToken) and pass the token to edit or manage versions."])
    public static let invalidToken = ServiceError(code: 498, message: "Invalid token.",
                                                  details: ["The token is unknown or has expired: generate a new one."])

    public static func notPermitted(_ detail: String) -> ServiceError {
        ServiceError(code: 403, message: "You do not have permissions to access this resource or perform this operation.", details: [detail])
    }

    public static func notSupported(_ detail: String) -> ServiceError {
        ServiceError(code: 400, message: "Requested operation is not supported by this service.", details: [detail])
    }

    public static func versionOperationFailed(_ message: String, _ detail: String, extendedCode: Int = -2147467259) -> ServiceError {
        ServiceError(code: 400, message: message, details: [detail], extendedCode: extendedCode)
    }

    public static func `internal`(_ detail: String) -> ServiceError {
        ServiceError(code: 500, message: "An internal error occurred.", details: [detail])
    }
}

/// The error of one feature in an applyEdits result: an Esri edit error code (1000-1023) and a
/// description naming the layer, field and value.
public struct EditError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public var code: Int
    public var description: String

    public init(code: Int, description: String) {
        self.code = code
        self.description = description
    }

    /// 1000: non-specific edit content error.
    public static func general(_ text: String) -> EditError { EditError(code: 1000, description: text) }
    /// 1001: a null where the field is not nullable.
    public static func notNullable(_ field: String) -> EditError {
        EditError(code: 1001, description: "Field: \(field) is not nullable. Cannot set null value.")
    }
    /// 1003: the feature was valid but the whole request was rolled back.
    public static let rolledBack = EditError(code: 1003, description: "Operation rolled back.")
    /// 1004: the layer does not allow geometry updates.
    public static func geometryUpdateNotAllowed(_ layer: String) -> EditError {
        EditError(code: 1004, description: "Geometry update not allowed: \(layer) has allowGeometryUpdates false.")
    }
    /// 1007: ownership-based access control.
    public static func ownership(_ text: String) -> EditError {
        EditError(code: 1007, description: "Edit denied due to ownership-based access control: \(text)")
    }
    /// 1011: the object to update or delete does not exist.
    public static func missing(_ text: String) -> EditError { EditError(code: 1011, description: "Object is missing: \(text)") }
    /// 1015: wrong geometry type or unreadable geometry.
    public static func geometry(_ text: String) -> EditError { EditError(code: 1015, description: "Geometry could not be set: \(text)") }
    /// 1016: a value of the wrong type, too long, or outside the field's domain.
    public static func value(_ field: String, _ why: String) -> EditError {
        EditError(code: 1016, description: "Setting of value for \(field) failed: \(why)")
    }
    /// 1020: missing global id where `useGlobalIds` requires one.
    public static func missingGlobalId(_ text: String) -> EditError { EditError(code: 1020, description: "Missing GlobalID: \(text)") }
    /// 1022: a global id that already exists.
    public static func duplicateGlobalId(_ id: String) -> EditError {
        EditError(code: 1022, description: "Unique constraint violation error on inserting the value: GlobalID \(id) already exists.")
    }
    /// 1023: a value for a field that is not editable.
    public static func notEditable(_ field: String) -> EditError {
        EditError(code: 1023, description: "Field: \(field) is not editable.")
    }
    /// 1008 / 1010: attachment add or delete failures.
    public static func attachmentAdd(_ text: String) -> EditError { EditError(code: 1008, description: "Adding an attachment failed: \(text)") }
    public static func attachmentDelete(_ text: String) -> EditError { EditError(code: 1010, description: "Deleting an attachment failed: \(text)") }
}
