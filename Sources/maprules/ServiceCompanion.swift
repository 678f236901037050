import Foundation
import LintCommands

/// Finds and runs `maprules-service`, the executable with `serve`, `edit` and `offline`, in place of this process
/// (`execv`: same process id, signals such as SIGTERM reach the server itself, the exit code is its own).
///
/// Where it looks, in order: beside this executable (an install, or the build folder); the build folders of
/// the package this executable was built from (a copy of the binary run elsewhere on the machine that built it);
/// `PATH`. From a source checkout where it was not built yet (`swift run maprules serve` builds only
/// `maprules`), it is built first with `swift build --product maprules-service`, with the build's progress on
/// standard error.
enum ServiceCompanion {
    static let commands: Set<String> = ["serve", "edit", "offline"]
    static let name = "maprules-service"

    static func run(_ arguments: [String]) -> Never {
        let path: String
        if let found = locate() {
            path = found
        } else if let built = buildFromSource() {
            path = built
        } else {
            Console.error("""
                error: 'maprules \(arguments[0])' is run by the companion executable '\(name)', which is neither beside \
                this maprules (\(ownFolder ?? "?")) nor on PATH. Install both executables together (a release \
                ships '\(name)' as the complete maprules), or build it from the source: swift build --product \(name)
                """)
            exit(2)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        Console.error("error: cannot run \(path): \(String(cString: strerror(errno)))")
        exit(2)
    }

    /// The folder of this executable (symbolic links resolved).
    static var ownFolder: String? {
        let own = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        return URL(fileURLWithPath: own).deletingLastPathComponent().path
    }

    /// The package this executable was built from (its sources' root), when it is still there.
    static var packageRoot: URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) ? root : nil
    }

    #if DEBUG
    static let configuration = "debug"
    #else
    static let configuration = "release"
    #endif

    static func locate() -> String? {
        var candidates: [String] = []
        if let ownFolder { candidates.append(ownFolder + "/" + name) }
        if let packageRoot {
            let build = packageRoot.appendingPathComponent(".build")
            candidates.append(build.appendingPathComponent("\(configuration)/\(name)").path)
            let triples = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
            for triple in triples.sorted() where triple.contains("-") {
                candidates.append(build.appendingPathComponent("\(triple)/\(configuration)/\(name)").path)
            }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append("\(folder)/\(name)")
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Builds the companion in the package this executable came from, when it was built from a source checkout
    /// by SwiftPM (the executable lives under the package's `.build`).
    static func buildFromSource() -> String? {
        guard let packageRoot, let ownFolder, ownFolder.hasPrefix(packageRoot.appendingPathComponent(".build").path) else { return nil }
        FileHandle.standardError.write(Data("maprules: building \(name) (serve, edit, offline) once: swift build --product \(name) -c \(configuration)\n".utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--product", name, "-c", configuration]
        process.currentDirectoryURL = packageRoot
        process.standardOutput = FileHandle.standardError
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return locate()
    }
}
