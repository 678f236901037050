import Foundation
import FeatureServiceModel
import WebMap

/// The samples `maprules serve` serves with no DIR — Samples/TreesOfPortland, Samples/DamageAssessment
/// and the sample users of Samples/users.json — carried inside the binary (generated source,
/// ShippedSampleFiles.swift, written by Samples/embed.sh; a test keeps it equal to Samples/), so they are
/// found from any working directory and wherever the binary is copied.
///
/// ```swift
/// let core = try await ServiceCore.open(.init(samples: ShippedSamples.folders, users: try ShippedSamples.users()))
/// let trees = ShippedSamples.folder("TreesOfPortland")   // the same files, for in-process loading
/// ```
public enum ShippedSamples {
    /// The shipped sample folders, in the order `maprules serve` loads them.
    public static var folders: [SampleFiles] { folderNames.compactMap(folder) }

    /// One shipped sample folder by name (case-insensitive); nil when there is none of that name.
    public static func folder(_ name: String) -> SampleFiles? {
        guard let folderName = folderNames.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) else { return nil }
        let prefix = folderName + "/"
        var contents: [String: String] = [:]
        for (path, text) in files where path.hasPrefix(prefix) { contents[String(path.dropFirst(prefix.count))] = text }
        return .embedded(name: folderName, files: contents)
    }

    /// Where the shipped users come from, for messages.
    public static let usersLocation = "(built in)/users.json"

    /// The text of Samples/users.json (editor01, editor02 and admin; development only).
    public static var usersText: String { files["users.json"] ?? #"{"users": []}"# }

    /// The sample users, read and checked as a users file.
    public static func users() throws -> UsersFile { try UsersFile.parse(usersText, path: usersLocation) }

    /// Every shipped file by its path below Samples/ (`TreesOfPortland/features/0.json`, `users.json`).
    public static var allFiles: [String: String] { files }
}

extension UsersFile {
    /// True when a user's password hash is one of the shipped sample users' (its password is then public):
    /// the start-up warns about it, wherever the file lives.
    var hasSampleCredentials: Bool {
        guard let samples = try? ShippedSamples.users() else { return false }
        let sampleHashes = Set(samples.users.map(\.passwordHash))
        return users.contains { sampleHashes.contains($0.passwordHash) }
    }
}
