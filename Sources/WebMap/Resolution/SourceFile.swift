import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading files with errors that name the path and the reason.
public enum SourceFile {
    public static func read(path: String) throws(DocumentError) -> (path: String, text: SourceText) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let broken = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
            throw DocumentError(path: path, message: broken ? "is a broken symbolic link" : "no such file")
        }
        if isDirectory.boolValue { throw DocumentError(path: path, message: "is a directory, not a file") }
        guard let bytes = readBytes(path) else {
            throw DocumentError(path: path, message: "cannot be read (check its permissions)")
        }
        return (path, SourceText(bytes: bytes))
    }

    /// Reads a whole file straight into one byte array (no intermediate `Data` copy: maps can be hundreds
    /// of megabytes).
    private static func readBytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0))
        var filled = 0
        let ok = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while filled < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 { if errno == EINTR { continue }; return false }
                if n == 0 { break }
                filled += n
            }
            return true
        }
        guard ok else { return nil }
        if filled < bytes.count { bytes.removeLast(bytes.count - filled) }
        // A file that grew while being read (or a pipe-like file of size 0): read the rest.
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }
}
