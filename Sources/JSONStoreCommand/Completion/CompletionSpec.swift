/// What the completion scripts know, read from the command table: the commands, their
/// options (which take values, which values), and what their positionals are.
struct CompletionSpec {
    struct CommandEntry {
        var name: String
        var abstract: String
        var options: [OptionDeclaration]
        var positionals: CommandConfiguration.Positionals
    }

    var program: String
    var commands: [CommandEntry]
    /// The options every command takes, before or after its name.
    var globals: [OptionDeclaration]
    /// The options only taken before a command.
    var leading: [OptionDeclaration]

    /// The spec of `jsonstore`'s command table.
    static var jsonstore: CompletionSpec {
        CompletionSpec(
            program: "jsonstore",
            commands: CommandLineTool.commands.map {
                let configuration = $0.configuration
                return CommandEntry(
                    name: configuration.name, abstract: configuration.abstract,
                    options: configuration.options,
                    positionals: configuration.positionals)
            },
            globals: CommandLineTool.globalOptions,
            leading: CommandLineTool.leadingOptions.filter { leading in
                !CommandLineTool.globalOptions.contains { $0.name == leading.name }
            })
    }

    var commandNames: [String] { commands.map(\.name) }

    /// The option's help, cut to about 60 characters at a word, for a completion menu.
    static func summary(_ help: String) -> String {
        let limit = 60
        let first = help.split(separator: ";", maxSplits: 1).first.map(String.init) ?? help
        guard first.count > limit else { return first }
        var cut = ""
        for word in first.split(separator: " ") {
            if cut.count + word.count + 1 > limit - 1 { break }
            cut += (cut.isEmpty ? "" : " ") + word
        }
        return cut + "…"
    }

    /// `text` in single quotes for a POSIX shell.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
