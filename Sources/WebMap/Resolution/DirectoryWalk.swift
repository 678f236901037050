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
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
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
