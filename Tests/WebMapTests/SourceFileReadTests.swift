import Foundation
import Testing
import WebMap

/// `SourceFile.read`: a file of `concurrentReadMinimumSize` bytes or more is read in parts on every core; the
/// bytes must be the file's, in order, whatever the size (parts of unequal length, sizes around the threshold).
@Suite struct SourceFileReadTests {
    /// A file of `size` bytes whose every 4-byte word holds its own offset, so that a part read into the wrong
    /// place or twice cannot go unnoticed.
    private func patternFile(size: Int) throws -> (path: String, bytes: [UInt8]) {
        var bytes = [UInt8](repeating: 0, count: size)
        for offset in stride(from: 0, to: size, by: 4) {
            let word = UInt32(truncatingIfNeeded: offset &* 2_654_435_761)
            for k in 0..<min(4, size - offset) { bytes[offset + k] = UInt8(truncatingIfNeeded: word >> (8 * k)) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-read-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return (path, bytes)
    }

    @Test(arguments: [0, 1, 1_000, (8 << 20) - 1, 8 << 20, (8 << 20) + 1, (9 << 20) + 12_345])
    func aFileReadsAsItsBytes(size: Int) throws {
        let (path, bytes) = try patternFile(size: size)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let read = try SourceFile.read(path: path).text.bytes
        #expect(read.count == bytes.count)
        #expect(read == bytes)
    }

    @Test func aLargeFileReadByItsRawPathReadsAsItsBytes() throws {
        let (path, bytes) = try patternFile(size: (8 << 20) + 7)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SourceFile.read(rawPath: Array(path.utf8), path: path).bytes == bytes)
    }
}
