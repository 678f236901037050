import ArgumentParser
import Foundation
import Runtime
import LintCommands
import LocalFeatureService
import FeatureServiceModel
import WebMap

/// `--user`/`--password`, `--token` and `--timeout`: how `maprules edit` and `maprules offline` sign in to a
/// service and how long each request may take.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "User name to sign in with (with --password).")
    var user: String?

    @Option(help: "Password of --user.")
    var password: String?

    @Option(help: "A token to use instead of --user/--password (or MAPRULES_TOKEN).")
    var token: String?

    @Option(help: "Seconds every request may take.")
    var timeout: Double = 30

    func validate() throws {
        guard timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout must be a positive number of seconds, at most 86400 (a day), not \(timeout).")
        }
        if (user == nil) != (password == nil) { throw ValidationError("--user and --password go together.") }
        if user != nil && token != nil { throw ValidationError("give --user/--password or --token, not both.") }
    }

    /// The credential the options give: a password, else a token (`--token` or MAPRULES_TOKEN), else none.
    var credential: Credential? {
        if let user, let password { return .password(user: user, password: password) }
        if let token = token ?? ProcessInfo.processInfo.environment["MAPRULES_TOKEN"] { return .token(token) }
        return nil
    }
}
