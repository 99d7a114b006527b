import JSONStore

/// `jsonstore help [COMMAND]`: the overview, or one command's help.
struct HelpCommand: Command {
    static let configuration = CommandConfiguration(
        name: "help", abstract: "show this help, or a command's", arguments: "[COMMAND]",
        positionals: .commands, globals: [])

    /// The command to explain, `nil` for the overview.
    var topic: (any Command.Type)?

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("help takes one COMMAND", command: "help")
        }
        guard let name = arguments.positionals.first else { return }
        guard let command = CommandLineTool.command(named: name) else {
            throw UsageError("unknown command '\(Display.escaped(name))'", command: "help")
        }
        topic = command
    }

    func run(_ context: Context) throws {
        Output.out(topic.map { Help.text(for: $0.configuration) } ?? Help.overview)
    }
}
