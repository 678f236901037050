import Foundation

/// Walking folders for the files to read, with POSIX `readdir` and the entry types it returns: Foundation's
/// `FileManager` makes a system call or two per entry to tell files, folders and links apart, which for a
/// folder of thousands of maps costs more than reading some of them.
public enum DirectoryWalk {
    public enum Entry: Sendable {
        /// A regular file, or a symbolic link to one (FIFOs, sockets and devices are left out).
        case file(path: String, name: String)
        /// A symbolic link whose target does not exist.
        case brokenLink(path: String, name: String)
        /// A folder that could not be opened.
        case unreadableFolder(path: String)
        /// A folder nested deeper than the walk goes.
        case tooDeep(path: String)
        /// An entry whose name is not UTF-8 (a Latin-1 `café.json` copied from an old system): `path` shows
        /// each byte that is not part of valid UTF-8 as `\xNN`, `rawPath` is the path the system knows.
        case undecodableName(path: String, rawPath: [UInt8], isFolder: Bool)
    }

    /// `bytes` (a file name) as text, every byte that is not part of valid UTF-8 written `\xNN`.
    public static func escapedName(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            // The longest valid UTF-8 sequence starting here (1 to 4 bytes), else one escaped byte.
            var decoded: String?
            for length in 1...4 where index + length <= bytes.count {
                if let text = String(validating: bytes[index..<(index + length)], as: UTF8.self), text.unicodeScalars.count == 1 {
                    decoded = text
                    index += length
                    break
                }
            }
            if let decoded {
                out += decoded
            } else {
                out += "\\x" + String(bytes[index], radix: 16, uppercase: true).leftPadded(to: 2)
                index += 1
            }
        }
        return out
    }

    /// Visits every entry below `directory`, depth first (in no particular order: callers sort). Hidden
    /// entries (names starting with ".") are left out unless `includeHidden` says otherwise; symbolic links to
    /// folders are not followed (they can form cycles).
    public static func walk(_ directory: String, maximumDepth: Int = 64, includeHidden: (String) -> Bool = { _ in false },
                            visit: (Entry) -> Void) {
        let root = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        walk(root, depth: 0, maximumDepth: maximumDepth, includeHidden: includeHidden, visit: visit)
    }

    private static func walk(_ directory: String, depth: Int, maximumDepth: Int, includeHidden: (String) -> Bool,
                             visit: (Entry) -> Void) {
        guard depth < maximumDepth else { return visit(.tooDeep(path: directory)) }
        guard let handle = opendir(directory) else { return visit(.unreadableFolder(path: directory)) }
        defer { closedir(handle) }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        while let entry = readdir(handle) {
            let nameBytes: [UInt8] = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { name in
                    (0..<strlen(name)).map { UInt8(bitPattern: name[$0]) }
                }
            }
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                // `String(cString:)` would repair the name into one that names no file (which was then reported
                // as unreadable): hand the caller the bytes.
                if nameBytes.first == UInt8(ascii: ".") && !includeHidden(escapedName(nameBytes)) { continue }
                let rawPath = Array(prefix.utf8) + nameBytes
                var info = stat()
                let cPath = (rawPath + [0]).map { CChar(bitPattern: $0) }
                let isFolder = stat(cPath, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                visit(.undecodableName(path: prefix + escapedName(nameBytes), rawPath: rawPath, isFolder: isFolder))
                continue
            }
            if name == "." || name == ".." || (name.hasPrefix(".") && !includeHidden(name)) { continue }
            let path = prefix + name
            switch Int(entry.pointee.d_type) {
            case Int(DT_DIR):
                walk(path, depth: depth + 1, maximumDepth: maximumDepth, includeHidden: includeHidden, visit: visit)
            case Int(DT_REG):
                visit(.file(path: path, name: name))
            case Int(DT_LNK):
                // Followed only to a regular file.
                var info = stat()
                if stat(path, &info) != 0 {
                    visit(.brokenLink(path: path, name: name))
                } else if info.st_mode & S_IFMT == S_IFREG {
                    visit(.file(path: path, name: name))
                }
            case Int(DT_FIFO), Int(DT_CHR), Int(DT_BLK), Int(DT_SOCK):
                // Never files to read: opening a FIFO waits for a writer forever (a `.services.json` FIFO beside a
                // map hung `maprules lsp`).
                continue
            default:
                // A file system that does not give types: ask (without following links).
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    walk(path, depth: depth + 1, maximumDepth: maximumDepth, includeHidden: includeHidden, visit: visit)
                case S_IFLNK:
                    if stat(path, &info) != 0 {
                        visit(.brokenLink(path: path, name: name))
                    } else if info.st_mode & S_IFMT == S_IFREG {
                        visit(.file(path: path, name: name))
                    }
                case S_IFREG:
                    visit(.file(path: path, name: name))
                default:
                    continue
                }
            }
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
