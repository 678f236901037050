import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reading files with errors that name the path and the reason.
public enum SourceFile {
    /// The largest document read (a pipe or a growing file is cut off there with an error, not read forever).
    public static let maximumBytes = 1 << 30

    public static func read(path: String) throws(DocumentError) -> (path: String, text: SourceText) {
        // open + fstat first (the common case: a readable regular file); the reason is looked for only when
        // that fails.
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            let reason = errno
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                let broken = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
                throw DocumentError(path: path, message: broken ? "is a broken symbolic link" : "no such file")
            }
            if isDirectory.boolValue { throw DocumentError(path: path, message: "is a directory, not a file") }
            throw DocumentError(path: path, message: reason == EACCES
                ? "cannot be read (check its permissions)" : "cannot be read (\(String(cString: strerror(reason))))")
        }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: throw DocumentError(path: path, message: "is a directory, not a file")
            case S_IFCHR, S_IFBLK: throw DocumentError(path: path, message: "is a device, not a file")
            default: break
            }
        }
        if Int(info.st_size) > maximumBytes {
            throw DocumentError(path: path, message: "is larger than \(maximumBytes >> 30) GiB: too large for a web map or service JSON")
        }
        guard let bytes = readBytes(fd, size: Int(info.st_size)) else {
            throw DocumentError(path: path, message: "cannot be read (check its permissions)")
        }
        if bytes.count > maximumBytes {
            throw DocumentError(path: path, message: "is larger than \(maximumBytes >> 30) GiB (read from a pipe): too large for a web map or service JSON")
        }
        return (path, SourceText(bytes: bytes))
    }

    /// Reads the file at `rawPath`, a path that is not UTF-8 (a name from an older system), which a Swift
    /// `String` cannot hold; `path` is how errors name it.
    public static func read(rawPath: [UInt8], path: String) throws(DocumentError) -> SourceText {
        let fd = open((rawPath + [0]).map { CChar(bitPattern: $0) }, O_RDONLY)
        guard fd >= 0 else { throw DocumentError(path: path, message: "cannot be read (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw DocumentError(path: path, message: "is not a regular file") }
        if Int(info.st_size) > maximumBytes {
            throw DocumentError(path: path, message: "is larger than \(maximumBytes >> 30) GiB: too large for a web map or service JSON")
        }
        guard let bytes = readBytes(fd, size: Int(info.st_size)), bytes.count <= maximumBytes else {
            throw DocumentError(path: path, message: "cannot be read (check its permissions)")
        }
        return SourceText(bytes: bytes)
    }

    /// The size from which a file is read on every core (``readBytes(_:size:)``).
    static let concurrentReadMinimumSize = 8 << 20

    /// Reads a whole file straight into one byte array (no intermediate `Data` copy: maps can be hundreds
    /// of megabytes). A large file is read in parts on every core: copying a 119 MB map out of the page cache
    /// into fresh memory was a tenth of a second on one core while the others waited.
    private static func readBytes(_ fd: Int32, size: Int) -> [UInt8]? {
        var failed = false
        // Uninitialised capacity: the bytes are written by read(2), not zero-filled first.
        var bytes = [UInt8](unsafeUninitializedCapacity: max(size, 0)) { buffer, count in
            if buffer.count >= concurrentReadMinimumSize, ProcessorCount.active > 1,
               readConcurrently(fd, into: buffer) {
                count = buffer.count
                return
            }
            var filled = 0
            while filled < buffer.count {
                let n = Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 { if errno == EINTR { continue }; failed = true; break }
                if n == 0 { break }
                filled += n
            }
            count = filled
        }
        guard !failed else { return nil }
        // A file that grew while being read (or a pipe-like file of size 0): read the rest. One byte first,
        // so that the usual case (nothing more) costs no buffer.
        var probe: UInt8 = 0
        var first = 0
        repeat { first = Glibc.read(fd, &probe, 1) } while first < 0 && errno == EINTR
        guard first == 1 else { return bytes }
        bytes.append(probe)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maximumBytes { break }
        }
        return bytes
    }

    /// Fills `buffer` with the file's first `buffer.count` bytes, parts of it at once with pread(2), and
    /// leaves the file offset after them. False (the offset back at 0) when a part could not be read whole,
    /// e.g. the file is not a regular file or shrank meanwhile: the caller then reads it in one stream.
    private static func readConcurrently(_ fd: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        let parts = ProcessorCount.active * 2
        let size = buffer.count
        let complete = UnsafeMutableBufferPointer<Bool>.allocate(capacity: parts)
        defer { complete.deallocate() }
        complete.initialize(repeating: false)
        let pointer = UnsafeSendable(base: base, complete: complete)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let start = size * part / parts
            let end = size * (part + 1) / parts
            var filled = start
            while filled < end {
                let n = pread(fd, pointer.base + filled, end - filled, off_t(filled))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                filled += n
            }
            pointer.complete[part] = true
        }
        let whole = complete.allSatisfy { $0 }
        return lseek(fd, whole ? off_t(size) : 0, SEEK_SET) >= 0 && whole
    }

    /// The buffers `readConcurrently` shares with its parts: each part writes only its own bytes and flag.
    private struct UnsafeSendable: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let complete: UnsafeMutableBufferPointer<Bool>
    }
}
