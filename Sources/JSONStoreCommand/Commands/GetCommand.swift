import JSONStore

/// `jsonstore get ID [--json | --etag]`: one item, as `field: value` lines or as JSON, or
/// its etag alone.
struct GetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "get", abstract: "print one item", arguments: "ID",
        discussion: """
            Prints the item ID as "field: value" lines, or as JSON with --json. --etag prints \
            only its etag, a token that changes whenever the item does (a signature of its \
            file's bytes; on etcd its mod_revision), for put, set and delete --if-match.
            """,
        options: [
            .flag("--json", help: "print the item as JSON, with \"id\""),
            .flag("--etag", help: "print only the item's etag"),
        ],
        positionals: .ids)

    var id: String
    var json: Bool
    var etag: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let id = arguments.positionals.first else {
            throw UsageError(
                arguments.positionals.isEmpty ? "get needs an ID" : "get takes one ID",
                command: "get")
        }
        self.id = id
        json = arguments.has("--json")
        etag = arguments.has("--etag")
        if json && etag { throw UsageError("--json and --etag cannot go together", command: "get") }
    }

    func run(_ context: Context) throws {
        try ItemID.validate(id)
        let store = try context.open()
        if etag {
            // The stored value's, valid or not: a broken item can be replaced with CAS too.
            guard let stored = try store._storedValue(of: id) else {
                throw CommandFailure(CommandFailure.noItem(id, in: store.path))
            }
            return Output.line(stored.etag)
        }
        guard let item = try store.item(id) else {
            throw CommandFailure(CommandFailure.noItem(id, in: store.path))
        }
        if json {
            Output.out(Output.prettyJSON(.object(item.object)))
        } else {
            Output.lines(item.object.map { "\(Display.escaped($0.key)): \(Table.cell($0.value))" })
        }
    }
}
