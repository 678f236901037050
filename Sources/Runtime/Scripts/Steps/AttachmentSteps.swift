import Foundation
import FeatureServiceModel
import WebMap

// Attachments, staged as local edits: addAttachment, deleteAttachment.

/// `addAttachment: {layer, objectId, file, contentType}`: `file` is relative to the script and looked for before
/// anything runs; saves the temporary `attachmentId`.
struct AddAttachmentStep: ScriptOperation {
    static let name = "addAttachment"
    /// `layer` and `objectId`.
    let target: FeatureArgument
    let file: String
    /// Nil: from the file's extension.
    let contentType: String?

    init(arguments: JSON) {
        target = FeatureArgument(arguments)
        file = arguments["file"]?.string ?? ""
        contentType = arguments["contentType"]?.string
    }

    /// A file named in the script must exist (one a reference names is looked for when the step runs).
    static func problems(in step: WrittenStep) -> [String] {
        guard let file = step.arguments["file"]?.string, !file.contains("$") else { return [] }
        let resolved = EditScript.resolve(file, in: step.directory)
        var isDirectory: ObjCBool = false
        guard !FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) || isDirectory.boolValue else { return [] }
        return ["\(step.place(ofArgument: "file", operation: name)): step \(step.index) (\(name)): the file '\(file)' \(isDirectory.boolValue ? "is a directory" : "does not exist") (looked for \(resolved))."]
    }

    func run(in context: StepContext) async throws -> StepResult {
        let (table, feature) = try await target.feature(in: context.geodatabase)
        let path = EditScript.resolve(file, in: context.directory)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RuntimeError(RuntimeError.Identifier.scriptArgument, "Adding attachment: cannot read the file '\(path)'.")
        }
        let fileName = (file as NSString).lastPathComponent
        let id = try await table.addAttachment(to: feature, name: fileName, contentType: contentType ?? StepText.contentType(of: fileName), data: data)
        return StepResult("staged attachment \(id) '\(fileName)' (\(data.count) bytes) on feature \(feature.objectId ?? 0)",
                          value: .object([("attachmentId", .int(Int(id)))]))
    }
}

/// `deleteAttachment: {layer, objectId, attachmentId}`: stages the delete (a temporary id names a staged add).
struct DeleteAttachmentStep: ScriptOperation {
    static let name = "deleteAttachment"
    /// `layer` and `objectId`.
    let target: FeatureArgument
    let attachmentId: ObjectIdArgument

    init(arguments: JSON) {
        target = FeatureArgument(arguments)
        attachmentId = ObjectIdArgument(arguments["attachmentId"])
    }

    func run(in context: StepContext) async throws -> StepResult {
        let (table, feature) = try await target.feature(in: context.geodatabase)
        let attachment = try attachmentId.value(of: nil)
        try await table.deleteAttachment(of: feature, attachmentId: attachment)
        return StepResult("staged the delete of attachment \(attachment) of feature \(feature.objectId ?? 0)")
    }
}
