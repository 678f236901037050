import Foundation
import Testing
import Service
import FeatureServiceModel
import WebMap

/// The users file in JSON and in YAML: same fields, same checks, errors with file and line.
@Suite struct UsersFileTests {
    static let editorHash = "$2b$10$oRdsAb8Hnw/4wTPZSVyDaurEytwoa3ebCPHYlfLU7vnIiKUTbEU8."
    static let adminHash = "$2b$10$7gANeYjR8ro1TQaVVNd0LOmycBe/tSSQfhHJXS7uAjP0ivLOAxgGK"

    /// Writes `text` to a new file named `name` in a fresh temporary folder.
    static func file(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maprules-users-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The details of the ServiceError that loading `path` throws.
    static func loadError(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        do {
            _ = try UsersFile.load(path: path)
            Issue.record("\(path) was accepted", sourceLocation: sourceLocation)
            return ""
        } catch let error as ServiceError {
            #expect(error.code == 400, sourceLocation: sourceLocation)
            return error.details.joined(separator: " ")
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            return ""
        }
    }

    static let yaml = """
        # The sample users, in YAML.
        users:
          - username: editor01
            passwordHash: \(editorHash)
            role: user
            ownedServices: []
          - username: admin
            passwordHash: "\(adminHash)"
            role: admin
            ownedServices:
              - TreesOfPortland
              - DamageAssessment

        """

    @Test(arguments: ["users.yaml", "users.yml", "users.txt"])
    func yamlFileReadsTheSameFieldsAsJSON(name: String) throws {
        let file = try UsersFile.load(path: Self.file(name, Self.yaml))
        #expect(file.users.map(\.username) == ["editor01", "admin"])
        #expect(file.users.map(\.role) == [.user, .admin])
        #expect(file.users.map(\.passwordHash) == [Self.editorHash, Self.adminHash])
        #expect(file.users[0].ownedServices == [])
        #expect(file.users[1].ownedServices == ["TreesOfPortland", "DamageAssessment"])
    }

    @Test func jsonByContentWhateverTheExtension() throws {
        let json = #"{"users": [{"username": "editor01", "passwordHash": "\#(Self.editorHash)", "role": "user"}]}"#
        let file = try UsersFile.load(path: Self.file("users.conf", json))
        #expect(file.users.map(\.username) == ["editor01"])
        #expect(file.users[0].ownedServices == nil)
    }

    @Test func theSampleUsersFileStillReads() throws {
        let file = try UsersFile.load(path: Fixtures.usersFile)
        #expect(file.users.map(\.username) == ["editor01", "editor02", "admin"])
    }

    @Test func signInWithAYAMLUsersFile() async throws {
        let path = try Self.file("users.yaml", Self.yaml)
        let core = try await ServiceCore.open(Fixtures.configuration(.init(sampleFolders: [Fixtures.trees], usersFile: path)))
        let editor = try await core.signIn(username: "editor01", password: "sample-editor01")
        #expect(editor.username == "editor01")
        #expect(core.owners(of: "TreesOfPortland") == ["admin"])
        await expectServiceError(400) { _ = try await core.signIn(username: "editor01", password: "wrong") }
    }

    @Test func duplicateUserGivesFileAndLinesInBothFormats() throws {
        let yaml = """
            users:
              - username: editor01
                passwordHash: \(Self.editorHash)
                role: user
              - username: Editor01
                passwordHash: \(Self.editorHash)
                role: user
            """
        let yamlPath = try Self.file("users.yaml", yaml)
        #expect(Self.loadError(yamlPath) == "\(yamlPath):5: the user 'Editor01' is declared twice (first on line 2).")

        let json = """
            {"users": [
              {"username": "editor01", "passwordHash": "\(Self.editorHash)", "role": "user"},
              {"username": "Editor01", "passwordHash": "\(Self.editorHash)", "role": "user"}
            ]}
            """
        let jsonPath = try Self.file("users.json", json)
        #expect(Self.loadError(jsonPath) == "\(jsonPath):3: the user 'Editor01' is declared twice (first on line 2).")
    }

    @Test func clearTextPasswordIsRefusedWithItsLine() throws {
        let path = try Self.file("users.yml", """
            users:
              - username: editor01
                role: user
                passwordHash: sample-editor01
            """)
        #expect(Self.loadError(path) == "\(path):4: the password of 'editor01' must be a bcrypt hash, never clear text.")
    }

    @Test func wrongShapesNameTheLine() throws {
        let badRole = try Self.file("users.yaml", "users:\n  - username: a\n    passwordHash: \(Self.editorHash)\n    role: owner\n")
        #expect(Self.loadError(badRole).hasPrefix("\(badRole):4: not a valid users file ("))
        #expect(Self.loadError(badRole).hasSuffix("the role of 'a' must be one of admin, publisher, user, not 'owner'."))

        let missing = try Self.file("users.yaml", "users:\n  - username: a\n    role: user\n")
        #expect(Self.loadError(missing).hasSuffix("users[0] has no \"passwordHash\"."))
        #expect(Self.loadError(missing).hasPrefix("\(missing):2: "))

        let notAList = try Self.file("users.yaml", "users: editor01\n")
        #expect(Self.loadError(notAList).hasSuffix("\"users\" must be a list, not a string."))

        let number = try Self.file("users.json", "{\"users\": [{\"username\": 7, \"passwordHash\": \"x\", \"role\": \"user\"}]}")
        #expect(Self.loadError(number).hasSuffix("\"username\" of users[0] must be a string, not a number."))

        let yamlNumber = try Self.file("users.yaml", "users:\n  - username: 7\n    passwordHash: x\n    role: user\n")
        #expect(Self.loadError(yamlNumber) == Self.loadError(number).replacingOccurrences(of: "\(number):1", with: "\(yamlNumber):2"))

        let empty = try Self.file("users.yaml", "")
        #expect(Self.loadError(empty).hasSuffix("the file is empty."))
    }

    @Test func syntaxErrorsNameTheLine() throws {
        let yaml = try Self.file("users.yaml", "users:\n  - username: a\n    role: [user\n")
        let message = Self.loadError(yaml)
        #expect(message.hasPrefix("\(yaml):"), "\(message)")
        #expect(message.contains("not a valid users file"), "\(message)")
        #expect(message.contains("(line 3)"), "the line of the unclosed list: \(message)")

        let json = try Self.file("users.json", "{\"users\": [\n  {\"username\": \"a\",}\n]}")
        let jsonMessage = Self.loadError(json)
        #expect(jsonMessage.hasPrefix("\(json):2: not a valid users file"), "\(jsonMessage)")
    }
}
