import Foundation
import TestSupport
import Testing

@testable import JSONStoreCommand

/// Where `name` is on the PATH, if anywhere.
func executable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}

/// `jsonstore completion bash|zsh|fish`: scripts made from the command table, valid in
/// their shell, that really complete commands, options, values and the store's ids.
@Suite("Completion scripts")
struct CompletionTests {
    /// Runs `shell arguments…` on a thread of its own (`blocking { }`).
    static func run(_ shell: String, _ arguments: [String]) async throws -> (
        status: Int32, output: String
    ) {
        try await blocking { try run(shell, arguments) }
    }

    /// Runs `shell arguments…` with the built binary's directory first on the PATH.
    static func run(_ shell: String, _ arguments: [String]) throws -> (
        status: Int32, output: String
    ) {
        PoolGuard.check("running \(shell) to its end")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] =
            HelperProcess.buildDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["JSONSTORE_DIR"] = nil
        process.environment = environment
        let pipe = ChildOutput.pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: ChildOutput.collect(process, [pipe])[0], as: UTF8.self)
        return (process.terminationStatus, output)
    }

    /// The script for `shell`, as the built binary prints it, in a file of its own.
    static func scriptFile(_ shell: String, in scratch: TemporaryStore) async throws -> String {
        let result = try await jsonstore(scratch, ["completion", shell])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        try scratch.writeFile("completion.\(shell)", result.stdout)
        return scratch.path + "/completion.\(shell)"
    }

    @Test(
        "every command and option of the table is in every script",
        arguments: CompletionCommand.Shell.allCases)
    func fromTheTable(_ shell: CompletionCommand.Shell) {
        let script = CompletionCommand.script(shell)
        for command in CommandLineTool.commands {
            #expect(script.contains(command.configuration.name))
            for option in command.acceptedOptions {
                for name in option.names {
                    // fish spells options without their dashes (-l output, -s o).
                    let spelled = shell == .fish ? String(name.drop { $0 == "-" }) : name
                    #expect(
                        script.contains(spelled),
                        "\(shell): \(name) of \(command.configuration.name)")
                }
                for choice in option.choices { #expect(script.contains(choice)) }
            }
        }
        #expect(script.contains("list -o ids --no-headers"))
    }

    @Test("the command: one shell, named; documented in --help")
    func command() async throws {
        let scratch = try TemporaryStore()
        for bad in [["completion"], ["completion", "tcsh"], ["completion", "bash", "zsh"]] {
            let result = try await jsonstore(scratch, bad)
            #expect(result.status == 64, "\(bad)")
        }
        #expect(
            try await jsonstore(scratch, ["--help"]).stdout.contains("completion bash|zsh|fish"))
        let help = try await jsonstore(scratch, ["completion", "--help"])
        #expect(help.stdout.contains("source <(jsonstore completion bash)"))
    }

    @Test(
        "bash: the script parses, and completes a command, an option's values and an id",
        .enabled(if: executable("bash") != nil, "bash is not installed"))
    func bash() async throws {
        let temp = try sampleStore()
        let script = try await Self.scriptFile("bash", in: temp)
        await #expect(try Self.run(executable("bash")!, ["-n", script]).status == 0)
        let program = JSONStoreBinary.path
        let probe = """
            source \(script)
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _jsonstore; echo "[${COMPREPLY[*]}]"; }
            t jsonstore de
            t jsonstore --dir \(temp.path) get t
            t \(program) delete --dir=\(temp.path) ''
            t jsonstore list -o n
            t jsonstore list --no-he
            t jsonstore help ch
            t jsonstore completion z
            """
        let result = try await Self.run(executable("bash")!, ["-c", probe])
        #expect(result.status == 0)
        #expect(
            result.output == """
                [delete demo]
                [taxes tea]
                [bike taxes tea]
                [ndjson]
                [--no-headers]
                [check]
                [zsh]

                """)
    }

    @Test(
        "bash and fish: ids of the store on etcd typed with --store",
        .enabled(
            if: EtcdServer.isInstalled,
            "etcd is not installed: apt-get install etcd-server etcd-client"))
    func etcdIDs() async throws {
        let server = try await blocking { try EtcdServer() }
        for id in ["tea", "taxes", "bike"] {
            try await server.etcdctl(["put", "tasks/\(id)", "{}"])
        }
        let temp = try TemporaryStore()
        let address = "etcd://\(server.endpoint)/tasks"
        let bash = try await Self.scriptFile("bash", in: temp)
        let probe = """
            source \(bash)
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _jsonstore; echo "[${COMPREPLY[*]}]"; }
            t \(JSONStoreBinary.path) --store \(address) get t
            t \(JSONStoreBinary.path) get --store=\(address) b
            """
        let result = try await Self.run(executable("bash")!, ["-c", probe])
        #expect(result.output == "[taxes tea]\n[bike]\n", "\(result.output)")
        guard let shell = executable("fish") else { return }  // .ci/run installs fish
        let fish = try await Self.scriptFile("fish", in: temp)
        let fished = try await Self.run(
            shell,
            [
                "--no-config", "-c",
                "source \(fish); complete -C '\(JSONStoreBinary.path) --store \(address) get t'",
            ])
        #expect(
            fished.output.split(separator: "\n").map { $0.split(separator: "\t")[0] } == [
                "taxes", "tea",
            ], "\(fished.output)")
    }

    @Test(
        "zsh: the script parses, and offers commands, values and ids (compadd stubbed)",
        .enabled(if: executable("zsh") != nil, "zsh is not installed: apt-get install zsh"))
    func zsh() async throws {
        let temp = try sampleStore()
        let script = try await Self.scriptFile("zsh", in: temp)
        await #expect(try Self.run(executable("zsh")!, ["-n", script]).status == 0)
        // The completion system itself needs a terminal; its builtins are stubbed to print
        // what the script offers (zsh filters by the prefix afterwards).
        let probe = """
            compdef() { :; }
            compadd() { if [[ $1 == -a ]]; then print -r -- "[${(P)2}]"; else shift; print -r -- "[$*]"; fi }
            _describe() { print -r -- "[${(P)2}]"; }
            source \(script)
            t() { words=("$@"); CURRENT=${#words}; _jsonstore; }
            t jsonstore ''
            t jsonstore --dir \(temp.path) get t
            t jsonstore list --color ''
            """
        let result = try await Self.run(executable("zsh")!, ["-f", "-c", probe])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 3, "\(result.output)")
        #expect(lines.first?.hasPrefix("[list:print the items") == true)
        #expect(lines.dropFirst().first == "[bike taxes tea]")
        #expect(lines.last == "[auto always never]")
    }

    @Test(
        "fish: the script parses, and completes commands, options and ids",
        .enabled(if: executable("fish") != nil, "fish is not installed: apt-get install fish"))
    func fish() async throws {
        let temp = try sampleStore()
        let script = try await Self.scriptFile("fish", in: temp)
        await #expect(try Self.run(executable("fish")!, ["--no-execute", script]).status == 0)
        let probe = """
            source \(script)
            complete -C 'jsonstore de'
            complete -C 'jsonstore --dir \(temp.path) get t'
            complete -C 'jsonstore list -o nd'
            """
        let result = try await Self.run(executable("fish")!, ["--no-config", "-c", probe])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map {
            $0.split(separator: "\t").first.map(String.init) ?? ""
        }
        #expect(lines == ["delete", "demo", "taxes", "tea", "ndjson"], "\(result.output)")
    }
}
