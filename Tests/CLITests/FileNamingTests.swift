import Foundation
import Testing

/// Which files `lint` finds: names that are not UTF-8, and one file named twice (issue 31, item 7).
@Suite(.serialized) struct FileNamingTests {
    static let map = #"{"operationalLayers": [], "baseMap": {"baseMapLayers": []}, "version": "2.28"}"#

    /// Writes `text` to the file `folder/name`, `name` given as bytes (a Latin-1 name is not UTF-8).
    static func write(_ text: String, to folder: URL, rawName: [UInt8]) throws {
        let path = (Array(folder.path.utf8) + [UInt8(ascii: "/")] + rawName + [0]).map { CChar(bitPattern: $0) }
        let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        try #require(fd >= 0, "cannot create the file: errno \(errno)")
        defer { close(fd) }
        let bytes = Array(text.utf8)
        #expect(Glibc.write(fd, bytes, bytes.count) == bytes.count)
    }

    /// A Latin-1 `café.json` in a folder was skipped as "permission denied" and the run exited 0: it is
    /// linted now, under its name with the byte that is not UTF-8 written `\xE9`.
    @Test func aFileWhoseNameIsNotUTF8IsLinted() throws {
        let dir = try CLI.temporaryDirectory()
        try Self.write(Self.map, to: dir, rawName: Array("caf".utf8) + [0xE9] + Array(".json".utf8))
        try Data(Self.map.utf8).write(to: dir.appendingPathComponent("plain.json"))
        let result = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        #expect(!result.stderr.contains("permission denied"), "\(result.stderr)")
        let report = try #require(try CLI.json(result.stdout) as? [String: Any], "\(result.stdout) \(result.stderr)")
        let files = (report["files"] as? [[String: Any]]) ?? []
        let paths = files.compactMap { $0["path"] as? String }
        #expect(paths.contains { $0.hasSuffix("caf\\xE9.json") }, "\(paths)")
        let cafe = files.first { ($0["path"] as? String)?.hasSuffix("caf\\xE9.json") == true }
        let rules = ((cafe?["diagnostics"] as? [[String: Any]]) ?? []).compactMap { $0["ruleId"] as? String }
        #expect(rules == ["map/no-operational-layers"], "\(rules)")
    }

    @Test func aFolderWhoseNameIsNotUTF8IsNamedWithTheReason() throws {
        let dir = try CLI.temporaryDirectory()
        let folder = (Array(dir.path.utf8) + Array("/d".utf8) + [0xFC, 0] as [UInt8]).map { CChar(bitPattern: $0) }
        #expect(mkdir(folder, 0o755) == 0)
        try Data(Self.map.utf8).write(to: dir.appendingPathComponent("plain.json"))
        let result = try CLI.run(["lint", ".", "--format", "json"], in: dir)
        #expect(result.stderr.contains("d\\xFC") && result.stderr.contains("not UTF-8"), "\(result.stderr)")
    }

    /// `map.json ./map.json` and `. map.json` linted the file twice.
    @Test func aFileNamedTwiceIsLintedOnce() throws {
        let dir = try CLI.temporaryDirectory()
        try Data(Self.map.utf8).write(to: dir.appendingPathComponent("map.json"))
        for arguments in [["map.json", "./map.json"], [".", "map.json"], ["map.json", "\(dir.path)/map.json"]] {
            let result = try CLI.run(["lint"] + arguments + ["--format", "json"], in: dir)
            let report = try #require(try CLI.json(result.stdout) as? [String: Any], "\(result.stdout) \(result.stderr)")
            #expect((report["files"] as? [[String: Any]])?.count == 1, "\(arguments): \(result.stdout)")
        }
    }
}
