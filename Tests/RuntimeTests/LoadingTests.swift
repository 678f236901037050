import Foundation
import Runtime
import Testing
import FeatureServiceModel
import LocalFeatureService
import WebMap

@Suite struct LoadingTests {
    private final class Counter: @unchecked Sendable {
        let lock = NSLock()
        var calls = 0
        func next() -> Int { lock.withLock { calls += 1; return calls } }
    }

    @Test func concurrentCallersShareOneAttempt() async throws {
        let counter = Counter()
        let loader = LoadOnce<Int> {
            try await Task.sleep(for: .milliseconds(50))
            return counter.next()
        }
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await loader.load() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 1, count: 8))
        #expect(await loader.attemptCount == 1)
        // Idempotent: a loaded value is answered again without another attempt.
        #expect(try await loader.load() == 1)
        #expect(await loader.attemptCount == 1)
        #expect(await loader.status == .loaded)
    }

    @Test func aFailedLoadCanBeRetried() async throws {
        let counter = Counter()
        let loader = LoadOnce<Int> {
            let call = counter.next()
            if call == 1 { throw RuntimeError(RuntimeError.Identifier.unreachable, "first attempt fails") }
            return call
        }
        await #expect(throws: RuntimeError.self) { try await loader.load() }
        #expect(await loader.status == .failed)
        #expect(try await loader.load() == 2)
        #expect(await loader.attemptCount == 2)
    }

    @Test func aLoadInProgressCanBeCancelled() async throws {
        let loader = LoadOnce<Int> {
            try await Task.sleep(for: .seconds(30))
            return 1
        }
        let waiting = Task { try await loader.load() }
        for _ in 0..<200 where await loader.status != .loading { try await Task.sleep(for: .milliseconds(5)) }
        await loader.cancelLoad()
        await #expect(throws: (any Error).self) { try await waiting.value }
        #expect(await loader.status == .failed)
    }

    @Test func geodatabaseLoadsOnceAndKnowsItsService() async throws {
        let geodatabase = try await Runtimes.geodatabase("DamageAssessment")
        try await geodatabase.load()
        #expect(try await geodatabase.supportsBranchVersioning)
        #expect(try await geodatabase.defaultVersionName == "sde.DEFAULT")
        #expect(await geodatabase.versionName == "sde.DEFAULT")
        let trees = try await Runtimes.geodatabase("TreesOfPortland")
        #expect(try await trees.supportsBranchVersioning == false)
        #expect(try await trees.layerInfos.map(\.name) == ["Trees", "Neighborhoods", "Species", "Inspections"])
    }

    @Test func badCredentialsAreAnAuthenticationError() async throws {
        let error = await runtimeError {
            _ = try await Runtimes.service("TreesOfPortland", credential: .password(user: "editor01", password: "wrong"))
        }
        #expect(error?.identifier == RuntimeError.Identifier.authentication)
    }
}
