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

    /// `jsonstore NAME [ARGUMENTS] [OPTIONS]`, with every option spelled out.
    var usage: String { usageWords.joined(separator: " ") }

    /// The usage line's words, an option with its value counting as one.
    var usageWords: [String] {
        var words = ["jsonstore", name]
        if !arguments.isEmpty { words.append(arguments) }
        return words + options.map { "[\($0.synopsis)]" + ($0.repeats ? "..." : "") }
    }
}

/// One option of a command: its names, the value it takes (if any), and its help.
struct OptionDeclaration: Sendable {
    /// Every spelling, the canonical one first (`--output`, `-o`).
    var names: [String]
    /// The value's name in help (`FORMAT`), or `nil` for a flag.
    var value: String?
    /// One line of help.
    var help: String
    /// The values it accepts, when they are a fixed set (offered by completion).
    var choices: [String] = []
    /// Whether it may be given more than once, each value kept.
    var repeats = false

    /// A flag: present or not.
    static func flag(_ names: String..., help: String) -> OptionDeclaration {
        OptionDeclaration(names: names, value: nil, help: help)
    }

    /// An option that takes a value.
    static func option(
        _ names: String..., value: String, help: String, choices: [String] = [], repeats: Bool = false
    ) -> OptionDeclaration {
        OptionDeclaration(names: names, value: value, help: help, choices: choices, repeats: repeats)
    }

    /// The canonical name, the one the parser files values under.
    var name: String { names[0] }

    /// `-o FORMAT` / `--follow`: the shortest spelling with its value, for usage lines.
    var synopsis: String {
        let shortest = names.min { $0.count < $1.count } ?? name
        return value.map { "\(shortest) \($0)" } ?? shortest
    }

    /// `-o, --output FORMAT`: every spelling, for the options list.
    var spellings: String {
        let sorted = names.sorted { $0.count < $1.count }.joined(separator: ", ")
        return value.map { "\(sorted) \($0)" } ?? sorted
    }
}
