import Foundation

/// Reading files with errors that name the path and the reason.
public enum SourceFile {
    public static func read(path: String) throws(DocumentError) -> (path: String, text: SourceText) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let broken = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
            throw DocumentError(path: path, message: broken ? "is a broken symbolic link" : "no such file")
        }
        if isDirectory.boolValue { throw DocumentError(path: path, message: "is a directory, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DocumentError(path: path, message: "cannot be read (check its permissions)")
        }
        return (path, SourceText(bytes: [UInt8](data)))
    }
}
