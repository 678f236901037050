import Foundation
import Testing
import WebMap

/// The readdir walk behind `maprules lint` and `validate` on folders: what it lists, follows and reports.
@Suite struct DirectoryWalkTests {
    private func entries(below folder: String, maximumDepth: Int = 64, includeHidden: @escaping (String) -> Bool = { _ in false }) -> [String] {
        var found: [String] = []
        let prefix = (folder.hasSuffix("/") ? String(folder.dropLast()) : folder).count + 1
        DirectoryWalk.walk(folder, maximumDepth: maximumDepth, includeHidden: includeHidden) { entry in
            switch entry {
            case .file(let path, _): found.append("file " + path.dropFirst(prefix))
            case .brokenLink(let path, _): found.append("broken " + path.dropFirst(prefix))
            case .unreadableFolder(let path): found.append("unreadable " + path.dropFirst(prefix))
            case .tooDeep(let path): found.append("deep " + path.dropFirst(prefix))
            case .undecodableName(let path, _, let isFolder): found.append((isFolder ? "undecodable folder " : "undecodable ") + path.dropFirst(prefix))
            }
        }
        return found.sorted()
    }

    /// Issue 31, item 7: a name that is not UTF-8 was repaired by `String(cString:)` into one that names no
    /// file; it is handed over with its bytes, shown with `\xNN` for each byte that is not UTF-8.
    @Test func namesThatAreNotUTF8AreHandedOverWithTheirBytes() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)").path
        defer { try? fm.removeItem(atPath: root) }
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        let file = Array(root.utf8) + Array("/caf".utf8) + [0xE9] + Array(".json".utf8)
        let fd = open((file + [0]).map { CChar(bitPattern: $0) }, O_CREAT | O_WRONLY, 0o644)
        #expect(fd >= 0)
        close(fd)
        #expect(mkdir((Array(root.utf8) + Array("/d".utf8) + [0xFC, 0]).map { CChar(bitPattern: $0) }, 0o755) == 0)
        #expect(entries(below: root) == ["undecodable caf\\xE9.json", "undecodable folder d\\xFC"])
        var raw: [UInt8]?
        DirectoryWalk.walk(root) { entry in
            if case .undecodableName(_, let bytes, false) = entry { raw = bytes }
        }
        #expect(raw == file)
        #expect(DirectoryWalk.escapedName(Array("é".utf8) + [0xFF, 0x41]) == "é\\xFFA")
    }

    @Test func listsFilesFollowsLinksToFilesOnlyAndReportsBrokenOnes() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)").path
        defer { try? fm.removeItem(atPath: root) }
        try fm.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/.hidden", withIntermediateDirectories: true)
        for file in ["top.json", "a/one.json", "a/b/two.txt", ".hidden/secret.json", ".maprules.json"] {
            try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/" + file))
        }
        try fm.createSymbolicLink(atPath: root + "/to-file.json", withDestinationPath: root + "/top.json")
        try fm.createSymbolicLink(atPath: root + "/to-folder", withDestinationPath: root + "/a")
        try fm.createSymbolicLink(atPath: root + "/broken.json", withDestinationPath: root + "/missing.json")

        #expect(entries(below: root) == ["broken broken.json", "file a/b/two.txt", "file a/one.json", "file to-file.json", "file top.json"])
        #expect(entries(below: root + "/", includeHidden: { $0 == ".maprules.json" })
                == ["broken broken.json", "file .maprules.json", "file a/b/two.txt", "file a/one.json", "file to-file.json", "file top.json"])
        #expect(entries(below: root, maximumDepth: 2) == ["broken broken.json", "deep a/b", "file a/one.json", "file to-file.json", "file top.json"])
        #expect(entries(below: root + "/no-such-folder").count == 1)
    }

    /// A FIFO (or a link to one) is never a file to read: opening it waits for a writer forever, which hung
    /// `maprules lsp` when a `.services.json` beside a map was one.
    @Test func leavesOutFIFOs() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)").path
        defer { try? fm.removeItem(atPath: root) }
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/map.json"))
        #expect(mkfifo(root + "/map.services.json", 0o644) == 0)
        try fm.createSymbolicLink(atPath: root + "/services.json", withDestinationPath: root + "/map.services.json")
        #expect(entries(below: root) == ["file map.json"])
    }
}
