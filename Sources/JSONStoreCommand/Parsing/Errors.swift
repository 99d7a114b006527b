import JSONStore

/// A mistake in how the command was called: exit status 64 with a one-line hint.
struct UsageError: Error, Equatable {
    let message: String
    /// The command whose help to point at, if any.
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}

/// A failure to report on stderr, one line per message, with exit status 1.
struct CommandFailure: Error {
    /// Each line's text, already safe to print.
    var messages: [String]

    init(_ messages: String...) {
        self.messages = messages
    }

    init(messages: [String]) {
        self.messages = messages
    }

    /// `no item "ID" in STORE`.
    static func noItem(_ id: String, in store: String) -> String {
        "no item \"\(Display.escaped(id))\" in \(Display.escaped(store))"
    }
}

/// An exit status with nothing more to say (the output already said it), as
/// swift-argument-parser's `ExitCode`.
struct ExitCode: Error, Equatable {
    let rawValue: Int32

    static let success = ExitCode(rawValue: 0)
    static let failure = ExitCode(rawValue: 1)
    /// BSD `sysexits.h`'s `EX_USAGE`.
    static let usage = ExitCode(rawValue: 64)
}

/// Maps any error to its text on stderr and its exit status: the only place that does.
func report(_ error: any Error) -> Int32 {
    switch error {
    case let usage as UsageError:
        let help = usage.command.map { "jsonstore \($0) --help" } ?? "jsonstore --help"
        Output.error("\(usage.message) (see '\(help)')")
        return ExitCode.usage.rawValue
    case let exit as ExitCode:
        return exit.rawValue
    case let failure as CommandFailure:
        for message in failure.messages { Output.error(message) }
        return ExitCode.failure.rawValue
    case let store as StoreError:
        Output.error(store.description)
        return ExitCode.failure.rawValue
    default:
        Output.error(Display.escaped("\(error)"))
        return ExitCode.failure.rawValue
    }
}
