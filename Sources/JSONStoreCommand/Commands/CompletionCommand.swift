import JSONStore

/// `jsonstore completion bash|zsh|fish`: a completion script made from the command table.
struct CompletionCommand: Command {
    enum Shell: String, CaseIterable { case bash, zsh, fish }

    static let configuration = CommandConfiguration(
        name: "completion", abstract: "print a completion script for bash, zsh or fish",
        arguments: "bash|zsh|fish",
        discussion: """
            Prints a script that completes commands, options, option values and, for get, \
            put, set and delete, the ids of the store (asked of jsonstore list -o ids as you \
            type, with the --dir typed, if any). Load it in your shell:

              bash:  source <(jsonstore completion bash)    (in ~/.bashrc)
              zsh:   source <(jsonstore completion zsh)     (in ~/.zshrc, after compinit)
              fish:  jsonstore completion fish > ~/.config/fish/completions/jsonstore.fish
            """,
        positionals: .words(Shell.allCases.map(\.rawValue)), globals: [])

    var shell: Shell

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let name = arguments.positionals.first else {
            throw UsageError("completion takes one shell: bash, zsh or fish", command: "completion")
        }
        guard let shell = Shell(rawValue: name) else {
            throw UsageError(
                "completion takes bash, zsh or fish, not '\(Display.escaped(name))'",
                command: "completion")
        }
        self.shell = shell
    }

    /// The script for `shell`.
    static func script(_ shell: Shell) -> String {
        let spec = CompletionSpec.jsonstore
        switch shell {
        case .bash: return ShellCompletion(spec: spec, shell: .bash).script
        case .zsh: return ShellCompletion(spec: spec, shell: .zsh).script
        case .fish: return FishCompletion(spec: spec).script
        }
    }

    func run(_ context: Context) throws {
        Output.out(Self.script(shell))
    }
}
