/// The help texts, made from the command table: `jsonstore --help`, `jsonstore help
/// COMMAND` and `COMMAND --help` print these, so they list exactly what the parser takes.
enum Help {
    /// The width help is wrapped to.
    static let width = 80

    /// `jsonstore --help`.
    static var overview: String {
        var text = """
            jsonstore: a directory of JSON files, one item per file, watched live.

            usage: jsonstore [--dir DIR | --store ADDRESS] [--color WHEN] COMMAND [ARGUMENTS]
                             [OPTIONS]

            The store is --store ADDRESS or --dir DIR (the later one), else
            $JSONSTORE_STORE, else $JSONSTORE_DIR, else ./data. An ADDRESS is a directory
            or etcd://HOST:PORT[,HOST:PORT...]/PREFIX (the keys PREFIX/ID). Global options
            go before or after the command; -- ends the options.

            commands:

            """
        let entries = CommandLineTool.commands.map { command in
            let configuration = command.configuration
            let name = [configuration.name, configuration.arguments].filter { !$0.isEmpty }.joined(
                separator: " ")
            return (name, configuration.abstract)
        }
        text += table(entries)
        text += "\noptions:\n"
        text += table(CommandLineTool.leadingOptions.map { ($0.spellings, $0.help) })
        text += """

            'jsonstore COMMAND --help' or 'jsonstore help COMMAND' shows a command's options.
            Exit status: 0 success, 1 failure (the reason on stderr), 64 usage error.

            """
        return text
    }

    /// `jsonstore COMMAND --help`.
    static func text(for configuration: CommandConfiguration) -> String {
        var text = wrap(words: ["usage:"] + configuration.usageWords, indent: 7) + "\n\n"
        text += wrap(capitalized(configuration.abstract) + ".") + "\n"
        // Paragraphs are wrapped; one indented by two spaces is kept as written.
        if !configuration.discussion.isEmpty {
            text +=
                "\n"
                + configuration.discussion.split(
                    separator: "\n\n", omittingEmptySubsequences: false
                )
                .map {
                    $0.hasPrefix("  ")
                        ? String($0) : wrap($0.split(separator: "\n").joined(separator: " "))
                }
                .joined(separator: "\n\n") + "\n"
        }
        if !configuration.options.isEmpty {
            text += "\noptions:\n" + table(configuration.options.map { ($0.spellings, $0.help) })
        }
        text += "\nglobal options:\n" + globalOptions(for: configuration)
        return text
    }

    /// The global options that matter to a command, then the names of the others, which
    /// `jsonstore --help` explains: 16 lines of etcd and colour options in every command's
    /// help buried its own.
    private static func globalOptions(for configuration: CommandConfiguration) -> String {
        let all = CommandLineTool.globalOptions
        let shown = all.filter { configuration.globals.contains($0.name) || $0.name == "--help" }
        let others = all.filter { option in !shown.contains { $0.name == option.name } }
        var text = table(shown.map { ($0.spellings, $0.help) })
        if !others.isEmpty {
            let names = others.map(\.name).joined(separator: ", ")
            text +=
                "\n"
                + wrap(
                    "Also taken, as every command takes them: \(names) ('jsonstore --help' says what each does)."
                ) + "\n"
        }
        return text
    }

    /// Two columns, the second wrapped; a first column too wide for the table puts the
    /// second on the lines after it.
    static func table(_ rows: [(String, String)]) -> String {
        let column = min(24, (rows.map(\.0.count).max() ?? 0) + 4)
        var text = ""
        for (left, right) in rows {
            let head = "  " + left
            let body = wrap(right, firstColumn: column, indent: column)
            if head.count + 2 <= column {
                text += head + String(repeating: " ", count: column - head.count) + body + "\n"
            } else {
                text += head + "\n" + String(repeating: " ", count: column) + body + "\n"
            }
        }
        return text
    }

    /// `text` as lines of at most `width` columns (a longer word has a line of its own).
    /// The first line starts at `firstColumn`, after whatever the caller puts before it;
    /// the others are indented by `indent` spaces.
    static func wrap(_ text: String, firstColumn: Int = 0, indent: Int = 0) -> String {
        wrap(
            words: text.split(separator: " ").map(String.init), firstColumn: firstColumn,
            indent: indent)
    }

    /// `words` joined by spaces as lines of at most `width` columns, as `wrap`.
    static func wrap(words: [String], firstColumn: Int = 0, indent: Int = 0) -> String {
        var lines: [String] = []
        var line = ""
        var start = firstColumn
        for word in words {
            if !line.isEmpty && start + line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
                start = indent
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
