import Foundation

/// Plain words for a failed file read or write: Foundation's errors print on Linux as
/// `Error Domain=NSCocoaErrorDomain Code=260 "(null)" UserInfo={...}`, which tells a user nothing.
package enum FileErrorText {
    package static func describe(_ error: Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)).lowercased() }
        guard let cocoa = error as? CocoaError else { return "\(error)" }
        if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue)).lowercased()
        }
        switch cocoa.code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "it is not UTF-8 text"
        case .fileWriteOutOfSpace: return "no space left on the device"
        case .fileWriteVolumeReadOnly: return "the file system is read-only"
        case .fileWriteFileExists: return "a file of that name exists"
        case .fileReadTooLarge: return "it is too large"
        case .fileReadUnknown:
            return "it cannot be read (a directory?)"
        default:
            return "error \(cocoa.code.rawValue) of the file system"
        }
    }
}
