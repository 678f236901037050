import Foundation
import Service
import FeatureServiceModel
import Runtime
import WebMap

/// The replica operations of the in-process service: the core's own, as the signed-in caller.
extension InProcessFeatureService {
    public func createReplica(_ request: ReplicaRequest) async throws -> ReplicaPackage {
        let core = self.core, name = serviceName
        return try await call("Creating a replica of '\(name)'") { caller in try await core.createReplica(service: name, request, as: caller) }
    }

    public func synchronizeReplica(_ request: SyncRequest) async throws -> SyncAnswer {
        let core = self.core, name = serviceName
        return try await call("Synchronizing replica \(request.replicaID)") { caller in try await core.synchronizeReplica(service: name, request, as: caller) }
    }

    public func unRegisterReplica(id: String) async throws {
        let core = self.core, name = serviceName
        try await call("Unregistering replica \(id)") { caller in try await core.unRegisterReplica(service: name, replicaID: id, as: caller) }
    }

    public func replicas() async throws -> [ReplicaInfo] {
        let core = self.core, name = serviceName
        return try await call("Listing the replicas of '\(name)'") { caller in try await core.replicas(service: name, as: caller) }
    }
}
