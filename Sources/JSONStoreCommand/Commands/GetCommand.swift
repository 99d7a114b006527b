import JSONStore

/// `jsonstore get ID [--json]`: one item, as `field: value` lines or as JSON.
struct GetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "get", abstract: "print one item", arguments: "ID",
        discussion: "Prints the item ID as \"field: value\" lines, or as JSON with --json.",
        options: [.flag("--json", help: "print the item as JSON, with \"id\"")],
        positionals: .ids)

    var id: String
    var json: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let id = arguments.positionals.first else {
            throw UsageError(
                arguments.positionals.isEmpty ? "get needs an ID" : "get takes one ID",
                command: "get")
        }
        self.id = id
        json = arguments.has("--json")
    }

    func run(_ context: Context) throws {
        try ItemID.validate(id)
        let store = try context.open()
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
