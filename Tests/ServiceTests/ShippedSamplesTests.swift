import Foundation
import Testing
@testable import Service
@testable import FeatureServiceModel
import WebMap

/// The samples built into the binary (Samples/embed.sh → ShippedSampleFiles.swift) are the files of
/// Samples/, byte for byte, and load through the same code as the folders.
@Suite struct ShippedSamplesTests {
    /// Every file the script embeds: Samples/users.json and the shipped folders, recursively.
    static func filesOnDisk() throws -> [String: String] {
        var files: [String: String] = [:]
        let root = URL(fileURLWithPath: Fixtures.samples)
        files["users.json"] = try String(contentsOf: root.appendingPathComponent("users.json"), encoding: .utf8)
        for folder in ShippedSamples.folderNames {
            let base = root.appendingPathComponent(folder)
            let walker = try #require(FileManager.default.enumerator(atPath: base.path))
            for case let relative as String in walker where !(relative as NSString).lastPathComponent.hasPrefix(".") {
                var isDirectory: ObjCBool = false
                let full = base.appendingPathComponent(relative)
                guard FileManager.default.fileExists(atPath: full.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                files["\(folder)/\(relative)"] = try String(contentsOf: full, encoding: .utf8)
            }
        }
        return files
    }

    @Test func theEmbeddedCopyEqualsSamples() throws {
        let onDisk = try Self.filesOnDisk()
        let embedded = ShippedSamples.allFiles
        #expect(Set(embedded.keys) == Set(onDisk.keys), "run Samples/embed.sh: the embedded file list differs from Samples/")
        for (path, text) in onDisk {
            #expect(embedded[path] == text, "run Samples/embed.sh: \(path) differs from its embedded copy")
        }
        #expect(ShippedSamples.folderNames == ["TreesOfPortland", "DamageAssessment"])
    }

    @Test func foldersAreFoundByNameAndListTheirFiles() throws {
        let trees = try #require(ShippedSamples.folder("treesofportland"))
        #expect(trees.name == "TreesOfPortland" && trees.isEmbedded)
        #expect(trees.topLevelFileNames() == ["TreesOfPortland.json", "TreesOfPortland.services.json", "service.json"])
        #expect(trees.contains("features/0.json") && !trees.contains("features/9.json"))
        #expect(SampleFiles.folder(Fixtures.trees).topLevelFileNames() == trees.topLevelFileNames())
        #expect(ShippedSamples.folder("Broken") == nil)
        #expect(ShippedSamples.folders.map(\.name) == ["TreesOfPortland", "DamageAssessment"])
        #expect(try ShippedSamples.users().users.map(\.username) == ["editor01", "editor02", "admin"])
    }

    /// The built-in samples load exactly as the folders do: the same services, layers and features.
    @Test func theBuiltInSamplesLoadLikeTheFolders() async throws {
        let builtIn = try await ServiceCore.open(Fixtures.configuration(.init(samples: ShippedSamples.folders, users: try ShippedSamples.users())))
        let folders = try await Fixtures.core()
        #expect(builtIn.serviceNames == folders.serviceNames)
        #expect(builtIn.startup.warnings.contains { $0.hasPrefix("Using the sample credentials of \(ShippedSamples.usersLocation)") })
        for name in folders.serviceNames {
            let layers = try folders.service(name).layers.map(\.id)
            #expect(try builtIn.service(name).layers.map(\.id) == layers)
            for layer in try folders.service(name).layers {
                let objectIds: @Sendable ([Feature]) -> [AttributeValue?] = { $0.map { $0.attributes[layer.objectIdField] } }
                let expected = objectIds(try await folders.features(name, layer.id))
                #expect(objectIds(try await builtIn.features(name, layer.id)) == expected, "\(name)/\(layer.id)")
                #expect(try await builtIn.count(name, layer.id) == folders.count(name, layer.id))
            }
        }
        #expect(try await builtIn.signIn(username: "editor01", password: "sample-editor01").username == "editor01")
        #expect(try builtIn.service("DamageAssessment").isBranchVersioned)
    }
}
