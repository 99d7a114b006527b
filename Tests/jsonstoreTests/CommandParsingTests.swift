import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// Every command's parse step, without a store or a process: typed fields in, usage
/// errors out.
@Suite("Parsing each command's arguments")
struct CommandParsingTests {
    /// The usage error `body` throws, if any.
    func usageError(_ body: () throws -> Void) -> UsageError? {
        do {
            try body()
            return nil
        } catch {
            return error as? UsageError
        }
    }

    @Test("the table: every command is found by its name, and names are distinct")
    func table() {
        let names = CommandLineTool.commands.map { $0.configuration.name }
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(CommandLineTool.command(named: name)?.configuration.name == name)
        }
        #expect(CommandLineTool.command(named: "frobnicate") == nil)
    }

    @Test("global options before the command, its name, and the rest; -- before the name")
    func split() throws {
        let (leading, name, rest) = try CommandLineTool.split([
            "--dir", "d", "--color=never", "get", "--dir", "e", "x",
        ])
        #expect(leading.value("--dir") == "d")
        #expect(leading.value("--color") == "never")
        #expect(name == "get")
        #expect(rest == ["--dir", "e", "x"])
        let (none, missing, nothing) = try CommandLineTool.split(["--version"])
        #expect(none.has("--version") && missing == nil && nothing.isEmpty)
        #expect(try CommandLineTool.split(["--", "list"]).1 == "list")
        #expect(usageError { _ = try CommandLineTool.split(["--frob", "list"]) }?.command == nil)
    }

    @Test("global options after the command win; $JSONSTORE_DIR is the default, then data")
    func context() throws {
        var context = Context(environment: ["JSONSTORE_DIR": "/env"])
        #expect(context.directory == "/env")
        #expect(Context(environment: ["JSONSTORE_DIR": ""]).directory == "data")
        #expect(Context(environment: [:]).directory == "data")
        try context.apply(GetCommand.arguments(["x", "--dir", "/flag", "--color", "always"]))
        #expect(context.directory == "/flag")
        #expect(context.color == .always)
        #expect(usageError { try context.apply(GetCommand.arguments(["x", "--dir="])) } != nil)
    }

    @Test("--store or --dir, the later; then $JSONSTORE_STORE, then $JSONSTORE_DIR")
    func store() throws {
        let etcd = "etcd://127.0.0.1:2379/tasks"
        var context = Context(environment: ["JSONSTORE_DIR": "/dir", "JSONSTORE_STORE": etcd])
        #expect(context.store == etcd && context.isEtcd)
        #expect(
            Context(environment: ["JSONSTORE_DIR": "/dir", "JSONSTORE_STORE": ""]).store == "/dir")
        // The command line wins over the environment, and the later option over the earlier.
        try context.apply(GetCommand.arguments(["x", "--dir", "/flag"]))
        #expect(context.store == "/flag" && !context.isEtcd)
        try context.apply(GetCommand.arguments(["x", "--dir", "/a", "--store", etcd]))
        #expect(context.store == etcd)
        try context.apply(GetCommand.arguments(["x", "--store", etcd, "--dir", "/b"]))
        #expect(context.store == "/b")
        #expect(
            usageError { try context.apply(GetCommand.arguments(["x", "--dir", etcd])) } != nil)
        #expect(usageError { try context.apply(GetCommand.arguments(["x", "--store="])) } != nil)
        // A bad address is the store's error, naming what is wrong.
        for (address, reason) in [
            ("etcd://127.0.0.1:2379", "needs a key prefix"),
            ("etcd://127.0.0.1:99999/tasks", "not an etcd endpoint"),
            ("etcd:///tasks", "not an etcd endpoint"), ("etcd://127.0.0.1:2379/", "the key prefix"),
        ] {
            context.store = address
            let error = #expect(throws: StoreError.self) { try context.open() }
            #expect(
                error?.message.contains(reason) == true, "\(address): \(String(describing: error))")
        }
    }

    @Test("-- ends the options: get -- --help is the item --help")
    func doubleDash() throws {
        #expect(try GetCommand.parse(["--", "--help"]).id == "--help")
        #expect(try GetCommand.arguments(["--", "--help"]).has("--help") == false)
        #expect(try GetCommand.arguments(["x", "-h"]).has("--help"))
        #expect(try DeleteCommand.parse(["a", "--", "-b", "--dir"]).ids == ["a", "-b", "--dir"])
        #expect(try SetCommand.parse(["--", "-x", "a=b"]).id == "-x")
    }

    @Test("list: follow, json, where, sort, columns, poll")
    func list() throws {
        let list = try ListCommand.parse([
            "--follow", "--json", "--where", "status=todo", "--sort", "-priority", "--columns",
            "title, status",
            "--poll=0.5",
        ])
        #expect(list.follow && list.format == .json && list.headers)
        #expect(list.columns == ["title", "status"])
        #expect(list.poll == 0.5)
        #expect(list.query.order == .field("priority", descending: true))
        #expect(list.conditions == [try Condition(parsing: "status=todo")])
        let keys = try ListCommand.parse([
            "--sort", "-priority,title", "--sort", "owner.name", "--where", "a", "--where", "!b",
        ])
        #expect(SortField.text(keys.sort) == "-priority,title,owner.name")
        #expect(keys.conditions.map(\.op) == [.present, .absent])
        #expect(keys.query.order == .value("-priority,title,owner.name", descending: false))
        #expect(try ListCommand.parse([]).query.order == .id)
        #expect(try ListCommand.parse([]).format == nil, "decided by the terminal when run")
        #expect(try ListCommand.parse(["-o", "ids", "--no-headers"]).format == .ids)
        #expect(try !ListCommand.parse(["--no-headers"]).headers)
        #expect(try ListCommand.parse(["--output=ndjson"]).format == .ndjson)
        #expect(try ListCommand.parse(["-o", "json", "--json"]).format == .json)
        for bad in [
            ["x"], ["--sort"], ["--sort", "-"], ["--where", "=x"], ["--columns", ","],
            ["--poll", "0"], ["--json=1"],
            ["-o", "xml"], ["-o"], ["-o", "tsv", "--json"], ["--no-headers=1"],
        ] {
            #expect(usageError { _ = try ListCommand.parse(bad) }?.command == "list", "\(bad)")
        }
    }

    @Test("get: one id, --json")
    func get() throws {
        let get = try GetCommand.parse(["tea", "--json"])
        #expect(get.id == "tea" && get.json)
        #expect(try !GetCommand.parse(["tea"]).json)
        #expect(usageError { _ = try GetCommand.parse([]) }?.message == "get needs an ID")
        #expect(usageError { _ = try GetCommand.parse(["a", "b"]) }?.message == "get takes one ID")
    }

    @Test("put: an id and a file, - or none for stdin")
    func put() throws {
        #expect(try PutCommand.parse(["tea", "in.json"]).file == "in.json")
        #expect(try PutCommand.parse(["tea", "-"]).file == nil)
        #expect(try PutCommand.parse(["tea"]).file == nil)
        #expect(usageError { _ = try PutCommand.parse([]) } != nil)
        #expect(usageError { _ = try PutCommand.parse(["a", "b", "c"]) } != nil)
    }

    @Test("set: strings, JSON values, and what is neither")
    func set() throws {
        let set = try SetCommand.parse([
            "tea", "status=done", "priority:=2", "note=a=b", "tags:=[\"x\"]", "owner.name=zed",
        ])
        #expect(set.id == "tea")
        #expect(
            set.changes.map(\.path)
                == [["status"], ["priority"], ["note"], ["tags"], ["owner", "name"]])
        #expect(set.changes.map(\.value) == ["done", 2, "a=b", ["x"], "zed"])
        for bad in [
            ["a"], ["a", "novalue"], ["a", "=x"], ["a", ":=1"], ["a", "n:=tru"], ["a", "x.=1"],
            ["a", ".x=1"],
        ] {
            #expect(usageError { _ = try SetCommand.parse(bad) }?.command == "set", "\(bad)")
        }
        #expect(usageError { _ = try SetCommand.parse([]) } != nil)
    }

    @Test("delete: one id or more; check: nothing")
    func deleteAndCheck() throws {
        #expect(try DeleteCommand.parse(["a", "b"]).ids == ["a", "b"])
        #expect(usageError { _ = try DeleteCommand.parse([]) } != nil)
        _ = try CheckCommand.parse([])
        #expect(usageError { _ = try CheckCommand.parse(["x"]) }?.command == "check")
    }

    @Test("demo: interval and count, within bounds")
    func demo() throws {
        let demo = try DemoCommand.parse(["--interval", "0.25", "--count=3"])
        #expect(demo.interval == 0.25 && demo.count == 3)
        let defaults = try DemoCommand.parse([])
        #expect(defaults.interval == 2 && defaults.count == 10 && !defaults.keep)
        #expect(try DemoCommand.parse(["--keep"]).keep)
        for bad in [
            ["x"], ["--interval", "-1"], ["--interval", "nan"], ["--count", "0"],
            ["--count", "10001"],
        ] {
            #expect(usageError { _ = try DemoCommand.parse(bad) }?.command == "demo", "\(bad)")
        }
    }

    @Test("completion: one of bash, zsh, fish")
    func completion() throws {
        #expect(try CompletionCommand.parse(["zsh"]).shell == .zsh)
        for bad in [[], ["tcsh"], ["bash", "fish"], ["--shell", "bash"]] {
            #expect(
                usageError { _ = try CompletionCommand.parse(bad) }?.command == "completion",
                "\(bad)")
        }
    }

    @Test("help: the overview or a known command")
    func help() throws {
        #expect(try HelpCommand.parse([]).topic == nil)
        #expect(try HelpCommand.parse(["list"]).topic?.configuration.name == "list")
        #expect(usageError { _ = try HelpCommand.parse(["nothing"]) } != nil)
        #expect(usageError { _ = try HelpCommand.parse(["a", "b"]) } != nil)
    }

    @Test("help lists every option each command's parser accepts, and the usage names them all")
    func helpMatchesParser() throws {
        for command in CommandLineTool.commands {
            let configuration = command.configuration
            let help = Help.text(for: configuration)
            #expect(help.hasPrefix("usage: jsonstore \(configuration.name)"))
            for option in command.acceptedOptions {
                for name in option.names {
                    #expect(
                        help.contains(name), "\(configuration.name) --help does not mention \(name)"
                    )
                    // The parser takes every name the help lists.
                    let sample = option.value == nil ? [name] : [name, option.choices.first ?? "1"]
                    #expect(throws: Never.self) { _ = try command.arguments(sample) }
                }
            }
            for option in configuration.options {
                #expect(configuration.usage.contains(option.synopsis))
            }
            #expect(Help.overview.contains("  \(configuration.name)"))
        }
    }
}
