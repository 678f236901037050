import Foundation
import WebMap

/// One attachment as `<oid>/attachments` and `queryAttachments` describe it.
public struct AttachmentInfo: Sendable, Codable, Equatable {
    public var id: Int64
    public var globalId: String
    public var parentGlobalId: String
    public var name: String
    public var contentType: String
    public var size: Int64
    public var keywords: String?

    public init(id: Int64, globalId: String, parentGlobalId: String, name: String, contentType: String, size: Int64, keywords: String? = nil) {
        self.id = id
        self.globalId = globalId
        self.parentGlobalId = parentGlobalId
        self.name = name
        self.contentType = contentType
        self.size = size
        self.keywords = keywords
    }
}

/// `<oid>/attachments`.
public struct AttachmentInfoList: Sendable, Codable, Equatable {
    public init(attachmentInfos: [AttachmentInfo]) {
        self.attachmentInfos = attachmentInfos
    }

    public var attachmentInfos: [AttachmentInfo]
}

/// `queryAttachments`: the attachments of each feature.
public struct AttachmentGroups: Sendable, Codable, Equatable {
    public init(attachmentGroups: [Group]) {
        self.attachmentGroups = attachmentGroups
    }

    public struct Group: Sendable, Codable, Equatable {
        public init(parentObjectId: Int64, parentGlobalId: String, attachmentInfos: [AttachmentInfo]) {
            self.parentObjectId = parentObjectId
            self.parentGlobalId = parentGlobalId
            self.attachmentInfos = attachmentInfos
        }

        public var parentObjectId: Int64
        public var parentGlobalId: String
        public var attachmentInfos: [AttachmentInfo]
    }
    public var attachmentGroups: [Group]
}

/// `<oid>/attachments/<aid>`: the bytes and how to serve them.
public struct AttachmentContent: Sendable, Equatable {
    public init(name: String, contentType: String, data: Data) {
        self.name = name
        self.contentType = contentType
        self.data = data
    }

    public var name: String
    public var contentType: String
    public var data: Data
}

/// `addAttachment` / `updateAttachment`.
public struct AttachmentEditResponse: Sendable, Codable, Equatable {
    public init(addAttachmentResult: EditResult? = nil, updateAttachmentResult: EditResult? = nil) {
        self.addAttachmentResult = addAttachmentResult
        self.updateAttachmentResult = updateAttachmentResult
    }

    public var addAttachmentResult: EditResult?
    public var updateAttachmentResult: EditResult?
}

/// `deleteAttachments`.
public struct DeleteAttachmentsResponse: Sendable, Codable, Equatable {
    public init(deleteAttachmentResults: [EditResult]) {
        self.deleteAttachmentResults = deleteAttachmentResults
    }

    public var deleteAttachmentResults: [EditResult]
}
