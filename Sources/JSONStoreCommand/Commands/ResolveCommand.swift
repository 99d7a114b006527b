import JSONStore

/// `jsonstore resolve ID --keep mine|theirs|FILE`: ends an item's conflicts
/// (`JSONStore.resolve(_:keeping:)`).
struct ResolveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "resolve", abstract: "end an item's conflicts, keeping one version",
        arguments: "ID",
        discussion: """
            Ends the conflicts of the item ID (jsonstore check lists them, and which \
            version each word keeps). --keep mine keeps the version made on this machine: \
            the one the mirror kept as a conflict (this directory's edit that lost). \
            --keep theirs keeps the other machine's: the item as it is, the edit etcd took \
            first. --keep FILE makes FILE the item (a kept version, or one merged by hand; \
            - reads stdin). Where mine and theirs cannot be told (another sync tool's \
            copies, or several kept versions), resolve lists the versions with where each \
            came from, changes nothing and asks for --keep FILE. Then every kept version of \
            the item is removed. On a mirrored directory the mirror sends the result to \
            etcd, so every machine gets it.
            """,
        options: [
            .option(
                "--keep", value: "mine|theirs|FILE",
                help:
                    "which version the item keeps: mine (this machine's), theirs (the other's), or a file's"
            )
        ],
        positionals: .ids)

    var id: String
    var keep: String

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError("resolve takes one ID", command: "resolve")
        }
        guard let keep = arguments.value("--keep"), !keep.isEmpty else {
            throw UsageError("resolve needs --keep mine, theirs or FILE", command: "resolve")
        }
        id = arguments.positionals[0]
        self.keep = keep
    }

    func run(_ context: Context) throws {
        try ItemID.validate(id)
        let store = try context.open()
        let choice: ConflictResolution
        switch keep {
        case "mine": choice = .mine
        case "theirs": choice = .theirs
        default:
            choice = .merged(try ItemDocument.read(keep, limit: store.options.maxFileSize).bytes)
        }
        let ended = try resolve(store, choice)
        let which = keep == "mine" || keep == "theirs" ? keep : Display.escaped(keep)
        Output.error(
            "\(Display.escaped(id)): resolved, keeping \(which); \(ended.count) \(ended.count == 1 ? "version" : "versions") removed"
        )
    }

    /// Ends the conflicts; where `mine` or `theirs` cannot be told, lists the versions and
    /// asks for `--keep FILE`, nothing changed.
    private func resolve(_ store: JSONStore, _ choice: ConflictResolution) throws -> [Conflict] {
        do {
            return try store.resolve(id, keeping: choice)
        } catch {
            guard error.code == .ambiguous else { throw error }
        }
        let all = try store.conflicts(of: id)
        let file = store.filePath(id)
        let why = all.count > 1 ? "\(all.count) kept versions" : "another tool's copy"
        let lines =
            ["\(Display.escaped(id)): which version is \(keep) cannot be told (\(why)):"]
            + ConflictWords.versions(of: id, at: file, all)
        for line in lines { Output.error(line) }
        throw UsageError("keep one with --keep FILE; nothing was changed", command: "resolve")
    }
}
