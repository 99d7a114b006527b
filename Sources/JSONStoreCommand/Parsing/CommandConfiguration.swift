/// What a command is, declared once: its name, what it does, its arguments and options.
///
/// Dispatch, `--help`, `jsonstore help COMMAND` and the completion scripts are all made
/// from these declarations, and the parser knows only the options declared here, so the
/// help text cannot drift from what the parser accepts.
struct CommandConfiguration: Sendable {
    /// What the positional arguments are, for completion scripts.
    enum Positionals: Sendable, Equatable {
        /// None.
        case none
        /// Item ids, any number of them.
        case ids
        /// One item id, then a file.
        case idThenFile
        /// One item id, then anything.
        case idThenText
        /// One of these words.
        case words([String])
        /// A command's name.
        case commands
    }

    /// The command's name, as typed.
    var name: String
    /// One line: what the command does.
    var abstract: String
    /// The positional arguments, as in the usage line (`ID [FILE|-]`); empty if none.
    var arguments: String = ""
    /// What the help says after the usage line and before the options.
    var discussion: String = ""
    /// The command's own options (the global ones are added by the parser).
    var options: [OptionDeclaration] = []
    /// What the positionals are, for completion.
    var positionals: Positionals = .none
    /// The global options that matter to this command, the ones its help lists (the
    /// parser takes them all, and `jsonstore --help` lists them all): by default the
    /// store's; `--help` is always listed.
    var globals: [String] = ["--dir", "--store"]

    /// `jsonstore NAME [ARGUMENTS] [OPTIONS]`, with every option spelled out.
    var usage: String { usageWords.joined(separator: " ") }

    /// The usage line's words, an option with its value counting as one.
    var usageWords: [String] {
        var words = ["jsonstore", name]
        if !arguments.isEmpty { words.append(arguments) }
        return words + options.map { "[\($0.synopsis)]" + ($0.repeats ? "..." : "") }
    }
}
