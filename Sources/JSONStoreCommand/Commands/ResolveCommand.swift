import JSONStore

/// `jsonstore resolve ID --keep mine|theirs|FILE`: ends an item's conflicts
/// (`JSONStore.resolve(_:keeping:)`).
struct ResolveCommand: Command {
    static let configuration = CommandConfiguration(
        name: "resolve", abstract: "end an item's conflicts, keeping one version",
        arguments: "ID",
        discussion: """
            Ends the conflicts of the item ID (jsonstore check lists them): --keep mine keeps \
            the item as it is, --keep theirs makes the conflict's version the item (when \
            there is one conflict), --keep FILE makes FILE the item (a version merged by \
            hand; - reads stdin). Then every kept version of the item is removed. On a \
            mirrored directory the mirror sends the result to etcd, so every machine gets it.
            """,
        options: [
            .option(
                "--keep", value: "mine|theirs|FILE",
                help: "which version the item keeps: mine, theirs, or a file's")
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
        let ended = try store.resolve(id, keeping: choice)
        let which = keep == "mine" || keep == "theirs" ? keep : Display.escaped(keep)
        Output.error(
            "\(Display.escaped(id)): resolved, keeping \(which); \(ended.count) \(ended.count == 1 ? "version" : "versions") removed"
        )
    }
}
