import JSONStore

extension CommandLineTool {
    /// Maps any error to its text on stderr and its exit status: the only place that does.
    static func report(_ error: any Error) -> Int32 {
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
            for line in SchemaWords.lines(of: store) { Output.error(line) }
            return ExitCode.failure.rawValue
        default:
            Output.error(Display.escaped("\(error)"))
            return ExitCode.failure.rawValue
        }
    }
}
