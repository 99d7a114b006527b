import JSONStore

/// A mistake in how the command was called: exit status 64 with a one-line hint.
struct UsageError: Error {
    let message: String
    /// The command whose help to point at, if any.
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}

/// A failure that has already been explained on stderr: exit status 1.
struct ReportedFailure: Error {}

/// The exit statuses, as swift-argument-parser and BSD `sysexits.h` have them.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
}

/// Maps any error to its message on stderr and its exit status, in one place.
func report(_ error: any Error) -> Int32 {
    switch error {
    case let usage as UsageError:
        let help = usage.command.map { "jsonstore \($0) --help" } ?? "jsonstore --help"
        Output.error("\(usage.message) (see '\(help)')")
        return ExitStatus.usage
    case is ReportedFailure:
        return ExitStatus.failure
    case let store as StoreError:
        Output.error(store.description)
        return ExitStatus.failure
    default:
        Output.error(Display.escaped("\(error)"))
        return ExitStatus.failure
    }
}
