import Foundation

/// Paths of reported files as CI tools want them: relative to the repository root, with forward slashes.
enum ReportPaths {
    /// `path` relative to `base`, with `/` separators, or nil when `path` is not inside `base`. Both are made
    /// absolute from the current directory when relative, and `.` and `..` are resolved (symbolic links are
    /// not: the same spelling always gives the same answer).
    static func relative(_ path: String, to base: String) -> String? {
        let file = components(ofAbsolute: path)
        let root = components(ofAbsolute: base)
        guard file.count > root.count, Array(file.prefix(root.count)) == root else { return nil }
        return file.dropFirst(root.count).joined(separator: "/")
    }

    /// The path to show for a file: relative to `base` when inside it, else as given (with `/` separators).
    static func display(_ path: String, base: String) -> String {
        relative(path, to: base) ?? slashed(path)
    }

    /// `path` made absolute and split into components, `.` and `..` resolved.
    static func components(ofAbsolute path: String) -> [String] {
        let slashedPath = slashed(path)
        let absolute = slashedPath.hasPrefix("/") || isWindowsAbsolute(slashedPath)
            ? slashedPath
            : slashed(FileManager.default.currentDirectoryPath) + "/" + slashedPath
        var result: [String] = []
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !result.isEmpty { result.removeLast() }
            default: result.append(String(part))
            }
        }
        return result
    }

    /// A `file:` URI for an absolute folder, ending with `/` as SARIF's `originalUriBaseIds` requires.
    static func folderURI(_ path: String) -> String {
        let parts = components(ofAbsolute: path).map(percentEncoded)
        let joined = parts.joined(separator: "/")
        if let first = parts.first, isWindowsDrive(first) { return "file:///" + joined + "/" }
        return parts.isEmpty ? "file:///" : "file:///" + joined + "/"
    }

    /// A `file:` URI for an absolute file path.
    static func fileURI(_ path: String) -> String {
        "file:///" + components(ofAbsolute: path).map(percentEncoded).joined(separator: "/")
    }

    /// A relative path as a URI reference: each component percent-encoded, `/` kept.
    static func uriReference(_ relativePath: String) -> String {
        relativePath.split(separator: "/", omittingEmptySubsequences: false).map { percentEncoded(String($0)) }.joined(separator: "/")
    }

    /// RFC 3986 unreserved characters plus the sub-delimiters and `:`/`@` that a path segment may hold
    /// as they are; everything else as UTF-8 `%XX`.
    static func percentEncoded(_ segment: String) -> String {
        var out = ""
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
                 UInt8(ascii: ":"), UInt8(ascii: "@"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    private static func slashed(_ path: String) -> String {
        #if os(Windows)
        return path.replacingOccurrences(of: "\\", with: "/")
        #else
        return path
        #endif
    }

    private static func isWindowsAbsolute(_ path: String) -> Bool {
        #if os(Windows)
        let chars = Array(path.prefix(3))
        return chars.count >= 2 && chars[0].isLetter && chars[1] == ":"
        #else
        return false
        #endif
    }

    private static func isWindowsDrive(_ component: String) -> Bool {
        #if os(Windows)
        return component.count == 2 && component.first!.isLetter && component.last == ":"
        #else
        return false
        #endif
    }
}
