import JSONStore

/// A subcommand of `jsonstore`, in the manner of swift-argument-parser's
/// `ParsableCommand`: one declaration (`configuration`), a parse step into typed fields,
/// and `run`.
///
/// Parsing does no I/O and throws only `UsageError`, so every command's parsing is tested
/// without a store. `run` does the work and throws what went wrong (`StoreError`,
/// `CommandFailure`, `ExitCode`); it writes data to stdout, but never an error message:
/// `CommandLineTool.report` turns errors into text and an exit status in one place.
protocol Command {
    /// The command's name, arguments, options and help.
    static var configuration: CommandConfiguration { get }

    /// The command with its fields filled from `arguments`.
    ///
    /// - Throws: `UsageError` for anything the command cannot take.
    init(_ arguments: Arguments) throws(UsageError)

    /// Does what the command is for, on the store `context` names.
    func run(_ context: Context) throws
}

extension Command {
    /// Every option the command accepts: its own, then the global ones.
    static var acceptedOptions: [OptionDeclaration] {
        configuration.options + CommandLineTool.globalOptions
    }

    /// Parses `arguments` (after the command's name) into the command's arguments, global
    /// options included. No I/O.
    static func arguments(_ arguments: [String]) throws(UsageError) -> Arguments {
        try Arguments(arguments, command: configuration.name, options: acceptedOptions)
    }

    /// Parses `arguments` (after the command's name) into the command. No I/O.
    static func parse(_ arguments: [String]) throws(UsageError) -> Self {
        try Self(Self.arguments(arguments))
    }
}
