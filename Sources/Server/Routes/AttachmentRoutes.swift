import Foundation
import HTTPTypes
import Hummingbird
import Service
import FeatureServiceModel
import WebMap

/// Attachments: `<layer>/<oid>/attachments` (list), `<layer>/<oid>/attachments/<aid>` (the bytes),
/// `addAttachment` and `updateAttachment` (multipart uploads), `deleteAttachments`, and
/// `<layer>/queryAttachments`.
struct AttachmentRoutes {
    let core: ServiceCore

    func register(on router: some RouterMethods<MapRulesRequestContext>) {
        let group = router.group(FeatureServerRoutes.prefix)
        group.getAndPost(":layer/queryAttachments", use: queryAttachments)
        group.getAndPost(":layer/:oid/attachments", use: list)
        group.getAndPost(":layer/:oid/attachments/:aid", use: data)
        group.getAndPost(":layer/:oid/addAttachment", use: add)
        group.getAndPost(":layer/:oid/updateAttachment", use: update)
        group.getAndPost(":layer/:oid/deleteAttachments", use: delete)
    }

    @Sendable func list(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let answer = try await core.attachments(service: try context.serviceName(), layer: try context.integer("layer"),
                                                objectId: Int64(try context.integer("oid")), gdbVersion: context.arguments.string("gdbVersion"),
                                                as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func data(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let content = try await core.attachmentData(service: try context.serviceName(), layer: try context.integer("layer"),
                                                    objectId: Int64(try context.integer("oid")), attachmentId: Int64(try context.integer("aid")),
                                                    gdbVersion: context.arguments.string("gdbVersion"), as: context.caller)
        let safeName = content.name.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
        // Uploaded bytes are served as the uploader typed them, so they must never run as this site's
        // pages: no sniffing, and a sandbox for anything a browser would render.
        return ArcGISResponse.bytes(content.data, contentType: content.contentType,
                                    extraHeaders: [.contentDisposition: "inline; filename=\"\(safeName)\"",
                                                   HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                                                   .contentSecurityPolicy: "sandbox"])
    }

    @Sendable func add(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let upload = try Self.upload(context.arguments)
        let answer = try await core.addAttachment(service: try context.serviceName(), layer: try context.integer("layer"),
                                                  objectId: Int64(try context.integer("oid")), name: upload.filename,
                                                  contentType: upload.contentType, data: upload.data, keywords: context.arguments.string("keywords"),
                                                  options: try EditOptions(arguments: context.arguments), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func update(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let upload = try Self.upload(context.arguments)
        guard let attachmentId = try context.arguments.int("attachmentId") else {
            throw ServiceError.invalidParameter("attachmentId is required.")
        }
        let answer = try await core.updateAttachment(service: try context.serviceName(), layer: try context.integer("layer"),
                                                     objectId: Int64(try context.integer("oid")), attachmentId: Int64(attachmentId),
                                                     name: upload.filename, contentType: upload.contentType, data: upload.data,
                                                     options: try EditOptions(arguments: context.arguments), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func delete(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        guard let ids = try context.arguments.integers("attachmentIds"), !ids.isEmpty else {
            throw ServiceError.invalidParameter("attachmentIds is required.")
        }
        let answer = try await core.deleteAttachments(service: try context.serviceName(), layer: try context.integer("layer"),
                                                      objectId: Int64(try context.integer("oid")), attachmentIds: ids,
                                                      options: try EditOptions(arguments: context.arguments), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    @Sendable func queryAttachments(_ request: Request, _ context: MapRulesRequestContext) async throws -> Response {
        let a = context.arguments
        let answer = try await core.queryAttachments(service: try context.serviceName(), layer: try context.integer("layer"),
                                                     objectIds: try a.integers("objectIds"),
                                                     where: a.string("definitionExpression") ?? a.string("where"),
                                                     gdbVersion: a.string("gdbVersion"), as: context.caller)
        return try ArcGISResponse.json(answer, context: context)
    }

    /// The uploaded file: the multipart part `attachment` (or `file`).
    static func upload(_ arguments: RequestArguments) throws -> RequestArguments.UploadedFile {
        guard let file = arguments.file("attachment") ?? arguments.file("file") else {
            throw ServiceError.invalidParameter("Send the file as the multipart/form-data part 'attachment' (with a filename).")
        }
        return file
    }
}
