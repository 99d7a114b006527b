import FoundationEssentials
import Glibc
import JSONStore
import JSONStoreEtcd

/// The `jsonstore` command: the table of subcommands, the global options, and dispatch.
public enum CommandLineTool {
    static let version = "0.1.0"

    /// Every subcommand, in the order help lists them. Dispatch, help and the completion
    /// scripts all read this table.
    static var commands: [any Command.Type] {
        [
            ListCommand.self, GetCommand.self, PutCommand.self, SetCommand.self, EditCommand.self,
            DeleteCommand.self,
            LogCommand.self, ShowCommand.self, DiffCommand.self, UndoCommand.self,
            CheckCommand.self, SchemaCommand.self, ResolveCommand.self, MirrorCommand.self,
            DoctorCommand.self,
            DemoCommand.self,
            MergeDriverCommand.self, CompletionCommand.self,
            HelpCommand.self,
        ]
    }

    /// The options every command accepts, before or after its name.
    static let globalOptions: [OptionDeclaration] =
        [
            .option(
                "--dir", value: "DIR",
                help: "the store directory (default: $JSONSTORE_DIR, else ./data)"),
            .option(
                "--store", value: "ADDRESS",
                help:
                    "where the store is: a directory, or etcd://HOST:PORT[,HOST:PORT...]/PREFIX (default: $JSONSTORE_STORE)"
            ),
            .option(
                "--user", value: "NAME",
                help:
                    "the etcd user (the password from $JSONSTORE_ETCD_PASSWORD, else asked on the terminal)"
            ),
            .option(
                "--cacert", value: "FILE",
                help:
                    "for etcds://: the CA certificates that sign the server's (default: the system's)"
            ),
            .option(
                "--cert", value: "FILE", help: "for etcds://: the client certificate to present"),
            .option("--key", value: "FILE", help: "for etcds://: the client certificate's key"),
            .option(
                "--etcd-transport", value: "API",
                help:
                    "how to speak to etcd: auto (gRPC, else the JSON gateway where HTTP/2 is not spoken), grpc, gateway",
                choices: EtcdClient.Transport.allCases.map(\.rawValue)),
            .option(
                "--color", value: "WHEN",
                help: "colour on a terminal: auto (honours NO_COLOR, TERM=dumb), always, never",
                choices: ColorChoice.allCases.map(\.rawValue)),
        ] + HistoryOptions.declarations + [
            .flag("--help", "-h", help: "show the help of the command")
        ]

    /// The options only taken before a command.
    static let leadingOptions: [OptionDeclaration] =
        globalOptions + [
            .flag("--version", help: "print the version")
        ]

    /// The subcommand called `name`.
    static func command(named name: String) -> (any Command.Type)? {
        commands.first { $0.configuration.name == name }
    }

    /// Runs the command with the process's arguments and exits.
    ///
    /// The arguments are taken as the bytes the process was given: one that is not valid
    /// UTF-8 is refused (exit 64) before anything is touched, rather than decoded with
    /// U+FFFD in place of its bad bytes, which would let two byte strings name one item.
    public static func main() -> Never {
        LargeBlocks.returnWhenFreed()
        var arguments: [String] = []
        for index in stride(from: 1, to: Int(CommandLine.argc), by: 1) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            guard let text = String(validatingCString: raw) else {
                let bytes = UnsafeBufferPointer(start: raw, count: strlen(raw))
                let shown = Display.bytes(bytes.map { UInt8(bitPattern: $0) })
                exit(
                    report(
                        UsageError(
                            "the argument '\(shown)' is not valid UTF-8 (ids, fields and values are UTF-8 text)"
                        )))
            }
            arguments.append(text)
        }
        main(arguments)
    }

    /// Runs the command with `arguments` (without the program name) and exits.
    public static func main(_ arguments: [String]) -> Never {
        do {
            try run(arguments)
            exit(ExitCode.success.rawValue)
        } catch {
            exit(report(error))
        }
    }

    /// Parses the global options, finds the command, parses its arguments and runs it.
    static func run(_ arguments: [String]) throws {
        var context = Context(environment: ProcessInfo.processInfo.environment)
        let (leading, name, rest) = try split(arguments)
        context = try apply(leading, to: context)
        if leading.has("--version") {
            Output.line("jsonstore \(version)")
            return
        }
        guard let name else {
            if leading.has("--help") { return Output.out(Help.overview) }
            throw UsageError("no command given")
        }
        guard let command = command(named: name) else {
            throw UsageError("unknown command '\(Display.escaped(name))'")
        }
        // `jsonstore --help list` is `jsonstore list --help`.
        try run(command, leading.has("--help") ? ["--help"] + rest : rest, context)
    }

    private static func apply(_ leading: Arguments, to context: Context) throws(UsageError)
        -> Context
    {
        var context = context
        try context.apply(leading)
        return context
    }

    private static func run<C: Command>(
        _ command: C.Type, _ arguments: [String], _ context: Context
    ) throws {
        let parsed = try C.arguments(arguments)
        if parsed.has("--help") { return Output.out(Help.text(for: C.configuration)) }
        var context = context
        try context.apply(parsed)
        context.command = C.configuration.name
        try C(parsed).run(context)
    }

    /// The options before the command, the command's name, and the arguments after it.
    static func split(_ arguments: [String]) throws(UsageError) -> (Arguments, String?, [String]) {
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index].hasPrefix("-"), arguments[index] != "--"
        {
            let (name, inline) = Arguments.split(arguments[index])
            let takesValue = leadingOptions.contains { $0.names.contains(name) && $0.value != nil }
            index += takesValue && inline == nil ? 2 : 1
        }
        index = min(index, arguments.endIndex)
        let leading = try Arguments(
            Array(arguments[..<index]), command: nil, options: leadingOptions)
        if index < arguments.endIndex, arguments[index] == "--" { index += 1 }
        let name = index < arguments.endIndex ? arguments[index] : nil
        let rest = index < arguments.endIndex ? Array(arguments[(index + 1)...]) : []
        return (leading, name, rest)
    }
}
