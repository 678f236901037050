import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix

/// Runs each connection's requests on the connection's own event loop thread.
///
/// Hummingbird handles a connection in a task of Swift's concurrency pool: every request then crosses threads
/// twice (the event loop hands the parsed request to a pool thread, and the pool thread hands the response back to
/// the event loop to write), each crossing a wake-up of a sleeping thread. With the connection's task preferring its
/// event loop as task executor (SE-0417, `withTaskExecutorPreference`), the request is read, answered and written on
/// one thread: a page of 20 costs the server about a third less CPU. Work that waits (GRDB's asynchronous reads and
/// writes, PostgreSQL, password hashing on its own queue) still leaves the loop while it waits; what stays on it is
/// the handlers' own CPU, as in an event-loop server such as Vapor. `ServiceCore.queryText`'s short reads run on the
/// calling thread: a bounded read of at most `maxRecordCount` rows by primary key.
///
/// The server's loops are its own (`ServerEventLoops`), not NIO's shared ones: a handler's CPU then delays the connections of
/// its loop, never the PostgreSQL connections or HTTP clients of the same process, which stay on
/// `MultiThreadedEventLoopGroup.singleton`.
struct EventLoopConnections<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// The event loops of every HTTP server of the process: one a core, made on first use and never shut down, as NIO's
/// singleton group is.
enum ServerEventLoops {
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with each connection's requests answered on its event loop (`EventLoopConnections`).
    static func http1OnEventLoops() -> HTTPServerBuilder {
        HTTPServerBuilder { responder in EventLoopConnections(base: HTTP1Channel(responder: responder)) }
    }
}

/// A NIO event loop as a task executor: jobs of tasks that prefer it run on the loop's thread, queued behind the
/// loop's own work (`EventLoop.execute`).
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
