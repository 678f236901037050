import Foundation
import FeatureServiceModel
import WebMap

/// The `FeatureService` operations of `RemoteFeatureService`: which URL each one asks, with which
/// parameters (RequestEncoding) and how its answer is read (AnswerDecoding). Sending, tokens, retries and
/// errors are `document(_:url:_:kind:)`'s.
extension RemoteFeatureService {
    // MARK: Describing

    public func describe() async throws -> ServiceDescription {
        let operation = "describe"
        let root = try await document(operation, url: url, FormParameters([("f", "json")]), kind: .read) { root in
            guard root["layers"]?.array != nil || root["tables"]?.array != nil else {
                throw AnswerDecoding.malformed("a feature service's root (no layers or tables)", root)
            }
            return root
        }
        return ServiceDescription(name: urls.serviceName, root: root, layers: try await layerMetadata(root: root))
    }

    /// Every layer's and table's metadata: one `layers` request, else one request per layer.
    fileprivate func layerMetadata(root: JSON) async throws -> [(id: Int, metadata: JSON)] {
        let listed = ((root["layers"]?.array ?? []) + (root["tables"]?.array ?? [])).compactMap { $0["id"]?.int }
        do {
            let all = try await document("describe layers", url: "\(url)/layers", FormParameters([("f", "json")]), kind: .read)
            if let layers = all["layers"]?.array {
                let found = (layers + (all["tables"]?.array ?? [])).compactMap { item in item["id"]?.int.map { (id: $0, metadata: item) } }
                if Set(found.map(\.id)).isSuperset(of: listed) { return found }
            }
        } catch let error as RuntimeError where error.identifier == RuntimeError.Identifier.serviceError {
            // An older or stricter server without `layers`: ask each layer below.
        }
        var result: [(id: Int, metadata: JSON)] = []
        for id in listed {
            result.append((id, try await document("describe layer \(id)", url: urls.layer(id), FormParameters([("f", "json")]), kind: .read)))
        }
        return result
    }

    // MARK: Queries

    public func queryFeatures(layer: Int, _ parameters: QueryParameters) async throws -> FeatureSet {
        var p = parameters
        p.returnCountOnly = false
        p.returnIdsOnly = false
        p.returnExtentOnly = false
        return try await query(layer, p, "query", as: AnswerDecoding.featureSet)
    }

    public func queryCount(layer: Int, _ parameters: QueryParameters) async throws -> Int {
        var p = parameters
        p.returnCountOnly = true
        p.returnIdsOnly = false
        p.returnGeometry = false
        p.resultOffset = nil
        p.resultRecordCount = nil
        p.orderByFields = nil
        return try await query(layer, p, "count", as: AnswerDecoding.count)
    }

    public func queryObjectIds(layer: Int, _ parameters: QueryParameters) async throws -> [Int64] {
        var p = parameters
        p.returnIdsOnly = true
        p.returnCountOnly = false
        p.returnGeometry = false
        p.resultOffset = nil
        p.resultRecordCount = nil
        return try await query(layer, p, "query object ids", as: AnswerDecoding.objectIds)
    }

    fileprivate func query<T>(_ layer: Int, _ parameters: QueryParameters, _ what: String, as decode: (JSON) throws -> T) async throws -> T {
        let url = "\(urls.layer(layer))/query"
        return try await document("\(what) of layer \(layer)", url: url, RequestEncoding.query(parameters), kind: .read, as: decode)
    }

    // MARK: Edits

    public func applyEdits(_ edits: [LayerEdits], options: EditOptions) async throws -> [LayerEditResults] {
        let url = "\(self.url)/applyEdits"
        let layers = edits.map { $0.id.map(String.init) ?? "?" }.joined(separator: ", ")
        return try await document("applyEdits on layers \(layers)", url: url, RequestEncoding.applyEdits(edits, options: options), kind: .write,
                                  as: AnswerDecoding.layerEditResults)
    }

    // MARK: Attachments

    public func attachments(layer: Int, objectId: Int64, gdbVersion: String?) async throws -> [AttachmentInfo] {
        let url = "\(urls.layer(layer))/\(objectId)/attachments"
        var form = FormParameters([("f", "json")])
        form["gdbVersion"] = gdbVersion.flatMap { $0.isEmpty ? nil : $0 }
        return try await document("attachments of feature \(objectId) of layer \(layer)", url: url, form, kind: .read, as: AnswerDecoding.attachmentInfos)
    }

    public func attachmentData(layer: Int, objectId: Int64, attachmentId: Int64, gdbVersion: String?) async throws -> Data {
        let url = "\(urls.layer(layer))/\(objectId)/attachments/\(attachmentId)"
        var form = FormParameters()
        form["gdbVersion"] = gdbVersion.flatMap { $0.isEmpty ? nil : $0 }
        return try await bytes("attachment \(attachmentId) of feature \(objectId) of layer \(layer)", url: url, form)
    }

    // MARK: Versions

    public func versionManagementInfo() async throws -> VersionManagementInfo {
        let url = urls.versionManagementServer
        let name = urls.serviceName
        return try await document("version management", url: url, FormParameters([("f", "json")]), kind: .read) {
            try AnswerDecoding.versionManagementInfo($0, serviceName: name)
        }
    }

    public func versions() async throws -> [VersionInfo] {
        let url = "\(urls.versionManagementServer)/versionInfos"
        return try await document("list versions", url: url, FormParameters([("f", "json")]), kind: .read, as: AnswerDecoding.versionInfos)
    }

    /// A version by GUID (braces optional) or by name, without regard to case: qualified (`owner.name`), or
    /// bare (`name`: the signed-in user's version of that name, else the only visible one).
    public func version(named name: String) async throws -> VersionInfo {
        if let guid = Self.bracedGUID(name) { return try await versionInfo(guid: guid, shownAs: name) }
        let all = try await versions()
        let lower = name.lowercased()
        var match = all.first { $0.versionName.lowercased() == lower }
        if match == nil, !name.contains(".") {
            let sameName = all.filter { $0.versionName.split(separator: ".", maxSplits: 1).last?.lowercased() == lower }
            let user = await userName()?.lowercased()
            match = sameName.first { $0.owner.lowercased() == user } ?? (sameName.count == 1 ? sameName[0] : nil)
            if match == nil && sameName.count > 1 {
                throw RuntimeError(RuntimeError.Identifier.versionNotFound,
                                   "Version '\(name)' is ambiguous at \(urls.versionManagementServer): name one of \(sameName.map(\.versionName).joined(separator: ", ")).")
            }
        }
        guard let match else {
            throw RuntimeError(RuntimeError.Identifier.versionNotFound,
                               "Version '\(name)' does not exist at \(urls.versionManagementServer), or you may not see it.", serviceCode: 404)
        }
        guard let guid = Self.bracedGUID(match.versionGuid) else { return match }
        return try await versionInfo(guid: guid, shownAs: name)
    }

    fileprivate func versionInfo(guid: String, shownAs name: String) async throws -> VersionInfo {
        let url = "\(urls.versionManagementServer)/versions/\(FormParameters.escape(guid))"
        return try await document("version '\(name)'", url: url, FormParameters([("f", "json")]), kind: .read, as: AnswerDecoding.versionInfo)
    }

    public func createVersion(name: String, access: String?, description: String) async throws -> VersionInfo {
        let url = "\(urls.versionManagementServer)/create"
        return try await document("create version '\(name)'", url: url,
                                  RequestEncoding.createVersion(name: name, access: access, description: description), kind: .write,
                                  as: AnswerDecoding.versionInfo)
    }

    /// `{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}` upper-case, from a GUID with or without braces; nil otherwise.
    static func bracedGUID(_ text: String) -> String? {
        var core = text.trimmingCharacters(in: .whitespaces)
        if core.hasPrefix("{") && core.hasSuffix("}") { core = String(core.dropFirst().dropLast()) }
        guard UUID(uuidString: core) != nil else { return nil }
        return "{\(core.uppercased())}"
    }
}
