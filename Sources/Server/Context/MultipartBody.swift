import Foundation
import MultipartKit
import NIOCore
import Service
import FeatureServiceModel
import WebMap

extension RequestArguments {
    /// Parses a `multipart/form-data` body: parts with a `filename` become files, the others values.
    static func multipart(_ body: ByteBuffer, boundary: String) throws -> RequestArguments {
        struct Part {
            var headers: [(String, String)] = []
            var body = ByteBuffer()
        }
        // MultipartKit's parser asserts a non-empty boundary (a precondition: it would stop the server).
        guard !boundary.isEmpty else {
            throw ServiceError.invalidParameter("A multipart/form-data body needs a non-empty boundary in its Content-Type.")
        }
        var parts: [Part] = []
        var current = Part()
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in current.headers.append((name, value)) }
        parser.onBody = { chunk in current.body.writeBuffer(&chunk) }
        parser.onPartComplete = {
            parts.append(current)
            current = Part()
        }
        do {
            try parser.execute(body)
        } catch {
            throw ServiceError.invalidParameter("The multipart/form-data body cannot be read: \(error).")
        }

        var arguments = RequestArguments()
        for part in parts {
            let disposition = part.headers.last { $0.0.caseInsensitiveCompare("Content-Disposition") == .orderedSame }?.1 ?? ""
            let attributes = headerAttributes(disposition)
            guard let name = attributes["name"], !name.isEmpty else { continue }
            let data = Data(part.body.readableBytesView)
            if let filename = attributes["filename"] {
                let type = part.headers.last { $0.0.caseInsensitiveCompare("Content-Type") == .orderedSame }?.1 ?? "application/octet-stream"
                arguments.set(file: UploadedFile(filename: filename, contentType: type.trimmingCharacters(in: .whitespaces), data: data), named: name)
            } else {
                arguments.set(name, String(decoding: data, as: UTF8.self))
            }
        }
        return arguments
    }

    /// `form-data; name="x"; filename="a b.jpg"` → ["name": "x", "filename": "a b.jpg"] (keys lower-cased).
    static func headerAttributes(_ header: String) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(header)
        while let semicolon = rest.firstIndex(of: ";") {
            rest = rest[rest.index(after: semicolon)...]
            let trimmed = rest.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "=") else { break }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var valueStart = trimmed[trimmed.index(after: equals)...]
            var value = ""
            if valueStart.first == "\"" {
                valueStart = valueStart.dropFirst()
                var escaped = false
                var end = valueStart.endIndex
                for index in valueStart.indices {
                    let c = valueStart[index]
                    if escaped { value.append(c); escaped = false; continue }
                    if c == "\\" { escaped = true; continue }
                    if c == "\"" { end = index; break }
                    value.append(c)
                }
                rest = end < valueStart.endIndex ? valueStart[valueStart.index(after: end)...] : ""
            } else {
                let end = valueStart.firstIndex(of: ";") ?? valueStart.endIndex
                value = valueStart[..<end].trimmingCharacters(in: .whitespaces)
                rest = valueStart[end...]
            }
            result[key] = value
        }
        return result
    }

    /// The boundary of a `multipart/form-data; boundary=...` content type.
    static func boundary(ofContentType contentType: String) -> String? {
        headerAttributes(contentType)["boundary"]
    }
}
