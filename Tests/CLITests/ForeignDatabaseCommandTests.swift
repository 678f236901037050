import Foundation
import Testing

/// Commands given a SQLite database MapRules did not make refuse it, exit 2, and leave it as it was: the same
/// bytes, no lock, journal or write-ahead-log file beside it (opening a service store migrates it otherwise).
struct ForeignDatabaseCommandTests {
    /// A 1 KB SQLite database (page size 512) with one table, `notes`, and one row: made by Python's sqlite3.
    static let foreignDatabase = Data(base64Encoded: "U1FMaXRlIGZvcm1hdCAzAAIAAQEAQCAgAAAAAwAAAAIAAAAAAAAAAAAAAAIAAAAEAAAAAAAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADAC5jAQ0AAAABAbgAAbgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABGAQYXFxcBbXRhYmxlbm90ZXNub3RlcwJDUkVBVEUgVEFCTEUgbm90ZXMoaWQgaW50ZWdlciBwcmltYXJ5IGtleSwgdGV4dCkNAAAAAQHXAAHXAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAnAQMAVWZpZWxkIG5vdGVzLCBub3QgYSBNYXBSdWxlcyBkYXRhYmFzZQ==")!

    @Test(arguments: [
        ["offline", "status", "notes.geodatabase"],
        ["offline", "sync", "notes.geodatabase", "--progress", "never"],
        ["offline", "export-delta", "notes.geodatabase", "--output", "delta.json"],
        ["edit", "script.yaml", "--service", "notes.geodatabase"],
        ["serve", "--database", "notes.geodatabase", "--port", "0"],
    ])
    func aForeignDatabaseIsRefusedUntouched(arguments: [String]) async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.foreignDatabase.write(to: folder.appendingPathComponent("notes.geodatabase"))
        try "steps:\n  - expect: {layer: Trees, where: \"1=1\", count: 1}\n".write(to: folder.appendingPathComponent("script.yaml"), atomically: true, encoding: .utf8)
        // `serve` would run until stopped if it took the file: 60 s bound it.
        let result = try await CLI.detached(arguments, in: folder, timeout: 60)
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("notes.geodatabase"), "\(result.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("notes.geodatabase")) == Self.foreignDatabase, "the file changed")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["notes.geodatabase", "script.yaml"], "files beside it: \(left)")
    }
}
